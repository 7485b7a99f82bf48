import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import t from 'tap';
import { RUN_OPTIONS } from 'pingmon/internal';
import { CLI, cliEnv, finished, pingmon } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/databases.js';
import { TestServer } from '../../helpers/server.js';

interface ManifestFlag {
  char?: string;
  description: string;
  multiple?: boolean;
  default?: string;
  options?: string[];
}

const manifest = JSON.parse(readFileSync(new URL('../../../../cli/oclif.manifest.json', import.meta.url), 'utf8')) as {
  commands: Record<string, { flags: Record<string, ManifestFlag> }>;
};

t.test('pingmon run --help is made from the table of flags that the run reads', async (t) => {
  // The manifest is what oclif's help reads; bin/run.js reads RUN_OPTIONS without oclif.
  const shown = manifest.commands.run!.flags;
  t.same(Object.keys(shown).sort(), Object.keys(RUN_OPTIONS).sort());
  for (const [name, option] of Object.entries(RUN_OPTIONS)) {
    const flag = shown[name]!;
    t.equal(flag.description, option.description, `--${name} description`);
    t.equal(flag.char, 'short' in option ? option.short : undefined, `--${name} short form`);
    t.equal(Boolean(flag.multiple), 'multiple' in option && option.multiple, `--${name} repeatable`);
    t.equal(flag.default, 'default' in option ? option.default : undefined, `--${name} default`);
    t.same(flag.options, 'choices' in option ? option.choices : undefined, `--${name} choices`);
  }
});

/** `pingmon …` started through oclif's own dispatch, which bin/run.js skips for `run`. */
function throughOclif(args: string[], env: Record<string, string>) {
  const script = `import { run } from '@oclif/core'; await run(${JSON.stringify(args)}, ${JSON.stringify(CLI)});`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: dirname(dirname(CLI)),
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return finished(child);
}

t.test('every flag pingmon run --help shows is read by the run, short forms and through oclif too', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const help = await pingmon(['run', '--help']);
  t.equal(help.code, 0);
  const shown = [...help.stdout.matchAll(/^ +(?:-(\w), )? *--([\w-]+)=/gm)].map(([, char, name]) => ({ char, name }));
  const config = { XDG_CONFIG_HOME: tempDir('pingmon-run-flags-') };
  const ways = [
    { how: 'long flags', short: false, start: pingmon },
    { how: 'short flags', short: true, start: pingmon },
    { how: 'through oclif', short: false, start: throughOclif },
  ];
  for (const { how, short, start } of ways) {
    const monitorId = await api.monitor(account, how);
    const values: Record<string, string> = {
      monitor: monitorId,
      'api-key': account.apiKey,
      url: api.url,
      meta: 'rows=7',
      'log-keep': 'tail',
      timeout: '1m',
      'kill-grace': '1s',
      'ping-timeout': '5s',
      'redact-env': 'HOME',
      'redact-pattern': '^VAULT_',
      cron: '0 3 * * *',
      tz: 'Europe/Berlin',
      every: '1h',
      grace: '10m',
      'max-runtime': '2h',
      'failure-threshold': '2',
      'recovery-threshold': '3',
    };
    t.same(shown.map(({ name }) => name).sort(), Object.keys(values).sort(), 'a value here for each flag shown');
    // A schedule is a cron expression (in a timezone) or an interval: each way gives one of them.
    const otherSchedule = short ? ['cron', 'tz'] : ['every'];
    const flags = shown
      .filter(({ name }) => !otherSchedule.includes(name))
      .flatMap(({ char, name }) => [short && char ? `-${char}` : `--${name}`, values[name]!]);
    const result = await start(['run', ...flags, '--', 'sh', '-c', 'echo out; exit 3'], config);
    t.equal(result.code, 3, `${how}: the job's exit code`);
    t.equal(result.stdout, 'out\n', how);
    t.equal(result.stderr, '', `${how}: no flag left out, no setting missing`);
    const runs = (await api.request(`/monitors/${monitorId}/runs?limit=1`, { token: account.token })).body.runs;
    t.match(runs[0], { status: 'failed', errorMessage: 'exit code 3: out', meta: { rows: 7, exitCode: 3 } }, how);
    const monitor = (await api.request(`/monitors/${monitorId}`, { token: account.token })).body;
    const schedule = short ? { every: 3600 } : { cron: '0 3 * * *', timezone: 'Europe/Berlin' };
    const settings = { schedule, startGrace: 600, maxRuntime: 7200, failureThreshold: 2, recoveryThreshold: 3 };
    t.match(monitor, settings, `${how}: the settings reached the monitor`);
  }
});
