import t from 'tap';
import { ConfigError, loadConfig, redactUrl } from '@pingmon/server';

t.test('loadConfig reads PINGMON_* and lets overrides win', async (t) => {
  const config = loadConfig(
    { PINGMON_HOST: '0.0.0.0', PINGMON_PORT: '9000', PINGMON_DATA_DIR: '/d', HOME: '/home/x' },
    { port: 0 },
  );
  t.match(config, { host: '0.0.0.0', port: 0, dataDir: '/d', databaseUrl: undefined });
  t.ok(Object.isFrozen(config));
  t.equal(loadConfig({ HOME: '/home/x' }).dataDir, '/home/x/.local/share/pingmon');
  t.equal(loadConfig({ XDG_DATA_HOME: '/xdg' }).dataDir, '/xdg/pingmon');
  t.same(loadConfig({ PINGMON_PLAN_INTERVALS: 'free=30, pro=0.5' }).planIntervalsMs, {
    free: 30_000,
    pro: 500,
    business: 1_000,
    unlimited: 0,
  });
  t.equal(loadConfig({}).monitorCacheSize, 10_000);
  t.equal(loadConfig({ PINGMON_MONITOR_CACHE: '0' }).monitorCacheSize, 0);
});

t.test('PINGMON_PLAN_MONITORS bounds the monitors of an account per plan, 0 for none', async (t) => {
  t.same(loadConfig({}).planMonitors, { free: 100, pro: 1_000, business: 10_000, unlimited: 0 });
  t.same(loadConfig({ PINGMON_PLAN_MONITORS: 'free=20, unlimited=50000' }).planMonitors, {
    free: 20,
    pro: 1_000,
    business: 10_000,
    unlimited: 50_000,
  });
  for (const bad of ['gold=1', 'free=-1', 'free=1.5', 'free', 'free=ten']) {
    t.throws(
      () => loadConfig({ PINGMON_PLAN_MONITORS: bad }),
      new RegExp(`^PINGMON_PLAN_MONITORS must look like "free=20,pro=500" .*got "${bad}"`),
      bad,
    );
  }
});

t.test(
  'the log is pretty on a terminal and JSON otherwise, unless PINGMON_LOG_FORMAT says; coloured on a terminal',
  async (t) => {
    const of = (env: Record<string, string>, terminal: boolean) => {
      const { logFormat, logColor } = loadConfig(env, {}, terminal);
      return { logFormat, logColor };
    };
    t.same(of({}, true), { logFormat: 'pretty', logColor: true });
    t.same(of({}, false), { logFormat: 'json', logColor: false });
    t.same(of({ NO_COLOR: '1' }, true), { logFormat: 'pretty', logColor: false });
    t.same(of({ NO_COLOR: '' }, true), { logFormat: 'pretty', logColor: true }, 'an empty NO_COLOR is unset');
    t.same(of({ PINGMON_LOG_FORMAT: 'json' }, true), { logFormat: 'json', logColor: false });
    t.same(of({ PINGMON_LOG_FORMAT: 'pretty' }, false), { logFormat: 'pretty', logColor: false });
    t.same(of({ PINGMON_LOG_FORMAT: '' }, false), { logFormat: 'json', logColor: false }, 'empty is unset');
  },
);

t.test('loadConfig refuses bad values with a message naming the setting', async (t) => {
  t.throws(() => loadConfig({ PINGMON_PORT: 'http' }), /PINGMON_PORT must be a port number/);
  t.throws(() => loadConfig({ PINGMON_PLAN_INTERVALS: 'gold=1' }), /PINGMON_PLAN_INTERVALS/);
  t.throws(() => loadConfig({ PINGMON_DATABASE_URL: 'mysql://u:pw@h/db' }), /postgres:\/\/.*u:\*\*\*@h/);
  t.throws(() => loadConfig({ PINGMON_LOG_LEVEL: 'loud' }), /PINGMON_LOG_LEVEL/);
});

const PLANS_SHAPE =
  'PINGMON_PLAN_INTERVALS must look like "free=1m,pro=10s" (plans: free, pro, business, unlimited; ' +
  'each a duration such as 90s, 10m, 1h30m or 2d)';
const SUCH_AS = 'such as 90s, 10m, 1h30m or 2d';

t.test('each bad setting is refused in one line naming it and quoting the value as written', async (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ PINGMON_PORT: ' 70000 ' }, 'PINGMON_PORT must be a port number from 0 to 65535 (got " 70000 ")'],
    [
      { PINGMON_TOKEN_TTL: '1.5' },
      `PINGMON_TOKEN_TTL must be a duration of whole seconds above 0 ${SUCH_AS} (got "1.5")`,
    ],
    [{ PINGMON_BODY_LIMIT: '0' }, 'PINGMON_BODY_LIMIT must be a positive whole number (got "0")'],
    [{ PINGMON_DATABASE_POOL_SIZE: '1' }, 'PINGMON_DATABASE_POOL_SIZE must be a whole number of 2 or more (got "1")'],
    [
      { PINGMON_ALERT_TIMEOUT: '0.0001' },
      `PINGMON_ALERT_TIMEOUT must be a duration longer than 0 ${SUCH_AS} (got "0.0001"), at most 24d`,
    ],
    [
      { PINGMON_ALERT_RETRY_BASE: ' ' },
      `PINGMON_ALERT_RETRY_BASE must be a duration ${SUCH_AS} (got " "), at most 24d`,
    ],
    [
      { PINGMON_PRUNE_INTERVAL: '30d' },
      `PINGMON_PRUNE_INTERVAL must be a duration longer than 0 ${SUCH_AS} (got "30d"), at most 24d`,
    ],
    [
      { PINGMON_SWEEP_INTERVAL: '30m1h' },
      `PINGMON_SWEEP_INTERVAL must be a duration longer than 0 ${SUCH_AS} (got "30m1h"), at most 24d`,
    ],
    [{ PINGMON_ALERT_MAX_ATTEMPTS: '2e-1' }, 'PINGMON_ALERT_MAX_ATTEMPTS must be a positive whole number (got "2e-1")'],
    [
      { PINGMON_MONITOR_CACHE: '-1' },
      `PINGMON_MONITOR_CACHE must be a whole number of monitors, or 0 to read each ping's monitor (got "-1")`,
    ],
    [{ PINGMON_LOG_LEVEL: '' }, 'PINGMON_LOG_LEVEL must be one of debug, info, warn, error, silent (got "")'],
    [
      { PINGMON_LOG_FORMAT: 'text' },
      'PINGMON_LOG_FORMAT must be pretty (lines for a person) or json (a JSON object a line), or unset: pretty on a ' +
        'terminal, json otherwise (got "text")',
    ],
    [{ PINGMON_CHANNELS_PUBLIC_ONLY: 'yes' }, 'PINGMON_CHANNELS_PUBLIC_ONLY must be true, false, 1 or 0 (got "yes")'],
    [{ PINGMON_PLAN_INTERVALS: 'free=1,__proto__=2' }, `${PLANS_SHAPE}, got "free=1,__proto__=2"`],
    [{ PINGMON_PLAN_INTERVALS: 'free=' }, `${PLANS_SHAPE}, got "free="`],
    [{ PINGMON_PLAN_INTERVALS: 'free=-1' }, `${PLANS_SHAPE}, got "free=-1"`],
    [
      { PINGMON_LOG_LEVEL: 'loud', PINGMON_PORT: 'http' },
      'PINGMON_PORT must be a port number from 0 to 65535 (got "http")',
    ],
  ];
  for (const [env, message] of cases) t.throws(() => loadConfig(env), new ConfigError(message), JSON.stringify(env));
  t.throws(
    () => loadConfig({}, { port: 70000 }),
    new ConfigError('--port must be a port number from 0 to 65535 (got "70000")'),
  );
  t.throws(
    () => loadConfig({}, { databaseUrl: 'mysql://u:pw@h/db' }),
    new ConfigError(
      'database URL must start with postgres:// (got "mysql://u:***@h/db"); leave it unset to use embedded SQLite',
    ),
  );
});

t.test('the variables that take a time read the durations of the CLI, and bare numbers as seconds', async (t) => {
  const config = loadConfig({
    PINGMON_TOKEN_TTL: '12h',
    PINGMON_ALERT_TIMEOUT: '1m30s',
    PINGMON_ALERT_RETRY_BASE: '500ms',
    PINGMON_SWEEP_INTERVAL: '2.5',
    PINGMON_PRUNE_INTERVAL: '1h30m',
    PINGMON_PLAN_INTERVALS: 'free=2m, pro=1.5s, business=0',
  });
  t.match(config, {
    tokenTtlSeconds: 43_200,
    alertTimeoutMs: 90_000,
    alertRetryBaseMs: 500,
    sweepIntervalMs: 2_500,
    pruneIntervalMs: 5_400_000,
    planIntervalsMs: { free: 120_000, pro: 1_500, business: 0, unlimited: 0 },
  });
  t.equal(loadConfig({ PINGMON_TOKEN_TTL: '30d' }).tokenTtlSeconds, 2_592_000, 'no timer: longer than 24d is fine');
  t.equal(loadConfig({ PINGMON_PRUNE_INTERVAL: '24d' }).pruneIntervalMs, 2_073_600_000);
});

t.test('empty variables count as unset where a default stands in for them', async (t) => {
  const config = loadConfig({ PINGMON_HOST: '', PINGMON_DATA_DIR: '', PINGMON_PLAN_INTERVALS: '', HOME: '/home/x' });
  t.match(config, { host: '127.0.0.1', dataDir: '/home/x/.local/share/pingmon', planIntervalsMs: { free: 60_000 } });
  t.match(loadConfig({ PINGMON_ALERT_TIMEOUT: '2.5', PINGMON_ALERT_RETRY_BASE: '0' }), {
    alertTimeoutMs: 2_500,
    alertRetryBaseMs: 0,
  });
});

t.test('PINGMON_CHANNELS_PUBLIC_ONLY is off unless set to true or 1', async (t) => {
  const cases: Array<[string | undefined, boolean]> = [
    [undefined, false],
    ['', false],
    ['false', false],
    ['0', false],
    ['true', true],
    ['TRUE', true],
    ['1', true],
  ];
  for (const [value, expected] of cases) {
    t.equal(loadConfig({ PINGMON_CHANNELS_PUBLIC_ONLY: value }).channelsPublicOnly, expected, String(value));
  }
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

t.test('sign-in through an identity provider: PINGMON_OIDC_* and PINGMON_PASSWORD_SIGN_IN', async (t) => {
  const base = {
    PINGMON_OIDC_ISSUER: 'https://login.example.com/realms/acme',
    PINGMON_OIDC_CLIENT_ID: 'pingmon',
    PINGMON_PUBLIC_URL: 'https://pingmon.example.com',
  };
  t.equal(loadConfig({}).oidc, undefined, 'none by default');
  t.equal(loadConfig({}).passwordSignIn, true);
  t.same(loadConfig(base).oidc, {
    issuer: base.PINGMON_OIDC_ISSUER,
    clientId: 'pingmon',
    clientSecret: undefined,
    name: 'single sign-on',
    account: undefined,
    scopes: 'openid email profile',
    allowedDomains: [],
    groupsClaim: 'groups',
    roles: {},
    defaultRole: 'viewer',
    trustUnverifiedEmail: false,
  });
  const full = loadConfig({
    ...base,
    PINGMON_OIDC_CLIENT_SECRET: 's3cret',
    PINGMON_OIDC_NAME: 'Okta',
    PINGMON_OIDC_ACCOUNT: 'acc_0mwre67ib6Po1zhc6lS',
    PINGMON_OIDC_TRUST_UNVERIFIED_EMAIL: '1',
    PINGMON_OIDC_SCOPES: 'openid email groups',
    PINGMON_OIDC_ALLOWED_DOMAINS: 'Acme.com, @corp.acme.com',
    PINGMON_OIDC_GROUPS_CLAIM: 'roles',
    PINGMON_OIDC_ROLES: 'pingmon admins=admin, sre=member',
    PINGMON_OIDC_DEFAULT_ROLE: 'member',
    PINGMON_PASSWORD_SIGN_IN: 'false',
  });
  t.match(full.oidc, {
    clientSecret: 's3cret',
    name: 'Okta',
    account: 'acc_0mwre67ib6Po1zhc6lS',
    trustUnverifiedEmail: true,
    scopes: 'openid email groups',
    allowedDomains: ['acme.com', 'corp.acme.com'],
    groupsClaim: 'roles',
    defaultRole: 'member',
  });
  t.same({ ...full.oidc!.roles }, { 'pingmon admins': 'admin', sre: 'member' });
  t.equal(full.passwordSignIn, false);

  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ PINGMON_OIDC_CLIENT_ID: 'x' }, /PINGMON_OIDC_CLIENT_ID is set but PINGMON_OIDC_ISSUER is not/],
    [
      { PINGMON_OIDC_ALLOWED_DOMAINS: 'acme.com' },
      /PINGMON_OIDC_ALLOWED_DOMAINS is set but PINGMON_OIDC_ISSUER is not/,
    ],
    [
      { PINGMON_OIDC_ISSUER: 'https://login.example.com' },
      /PINGMON_OIDC_CLIENT_ID must be set with PINGMON_OIDC_ISSUER/,
    ],
    [
      { ...base, PINGMON_PUBLIC_URL: '' },
      /PINGMON_PUBLIC_URL must be set with PINGMON_OIDC_ISSUER.*\/api\/v1\/auth\/oidc\/callback/,
    ],
    [
      { ...base, PINGMON_OIDC_ISSUER: 'login.example.com' },
      /PINGMON_OIDC_ISSUER must be the identity provider's issuer URL/,
    ],
    [
      { ...base, PINGMON_OIDC_ROLES: 'sre=boss' },
      /PINGMON_OIDC_ROLES must be groups and roles like .*\(got "sre=boss"\)/,
    ],
    [{ ...base, PINGMON_OIDC_ROLES: 'admin' }, /PINGMON_OIDC_ROLES must be/],
    [{ ...base, PINGMON_OIDC_ALLOWED_DOMAINS: 'not a domain' }, /PINGMON_OIDC_ALLOWED_DOMAINS must be e-mail domains/],
    [
      { ...base, PINGMON_OIDC_DEFAULT_ROLE: 'root' },
      /PINGMON_OIDC_DEFAULT_ROLE must be one of owner, admin, member, viewer/,
    ],
    [
      { ...base, PINGMON_OIDC_SCOPES: 'email' },
      /PINGMON_OIDC_SCOPES must be scopes separated by spaces, openid among them/,
    ],
    [{ PINGMON_PASSWORD_SIGN_IN: 'false' }, /PINGMON_PASSWORD_SIGN_IN=false needs PINGMON_OIDC_ISSUER/],
    [{ ...base, PINGMON_OIDC_ACCOUNT: 'acme' }, /PINGMON_OIDC_ACCOUNT must be an account id, acc_…/],
    [{ PINGMON_PASSWORD_SIGN_IN: 'nope' }, /PINGMON_PASSWORD_SIGN_IN must be true, false, 1 or 0/],
  ];
  for (const [env, message] of cases) t.throws(() => loadConfig(env), message, JSON.stringify(env));
  const refusal = t.throws(() =>
    loadConfig({ ...base, PINGMON_OIDC_CLIENT_SECRET: 'hunter2', PINGMON_OIDC_ROLES: 'x' }),
  );
  t.notMatch(String(refusal), /hunter2/, 'the secret is never quoted');
});
