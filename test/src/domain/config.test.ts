import t from 'tap';
import { loadConfig, redactUrl } from '@pingmon/server';

t.test('loadConfig reads PINGMON_* and lets overrides win', async (t) => {
  const config = loadConfig({ PINGMON_HOST: '0.0.0.0', PINGMON_PORT: '9000', PINGMON_DATA_DIR: '/d', HOME: '/home/x' }, { port: 0 });
  t.match(config, { host: '0.0.0.0', port: 0, dataDir: '/d', databaseUrl: undefined });
  t.ok(Object.isFrozen(config));
  t.equal(loadConfig({ HOME: '/home/x' }).dataDir, '/home/x/.local/share/pingmon');
  t.equal(loadConfig({ XDG_DATA_HOME: '/xdg' }).dataDir, '/xdg/pingmon');
  t.same(loadConfig({ PINGMON_PLAN_INTERVALS: 'free=30, pro=0.5' }).planIntervalsMs, { free: 30_000, pro: 500, business: 1_000, unlimited: 0 });
});

t.test('loadConfig refuses bad values with a message naming the setting', async (t) => {
  t.throws(() => loadConfig({ PINGMON_PORT: 'http' }), /PINGMON_PORT must be a port number/);
  t.throws(() => loadConfig({ PINGMON_PLAN_INTERVALS: 'gold=1' }), /PINGMON_PLAN_INTERVALS/);
  t.throws(() => loadConfig({ PINGMON_DATABASE_URL: 'mysql://u:pw@h/db' }), /postgres:\/\/.*u:\*\*\*@h/);
  t.throws(() => loadConfig({ PINGMON_LOG_LEVEL: 'loud' }), /PINGMON_LOG_LEVEL/);
});

t.test('redactUrl hides every form of database password', async (t) => {
  const cases: Array<[string, string]> = [
    ['postgres://u:pw@h:5432/db', 'postgres://u:***@h:5432/db'],
    ['postgres://u:p@ss-word@h/db', 'postgres://u:***@h/db'],
    ['postgres://:secret@h/db', 'postgres://:***@h/db'],
    ['postgres://u@h/db?password=secret&sslmode=require', 'postgres://u@h/db?password=***&sslmode=require'],
    ['postgres://h/db', 'postgres://h/db'],
  ];
  for (const [url, shown] of cases) t.equal(redactUrl(url), shown, url);
});
