import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { DATABASE_KINDS, tempDir } from '../helpers/databases.js';
import { pingmon } from '../helpers/cli.js';
import { deadUrl, json, startReceiver } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

// Secrets stay on the host (docs/cli.md#secrets-stay-on-the-host): a job printing each shape of secret, one of them
// split across two writes, run by the real CLI; neither the server, the alert nor the spool ever holds one.

const SECRETS = [
  'hunter2',
  'tok-abc-123-xyz',
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'swordfish42',
  'correct-horse-staple',
  'tok_zzzzzz9',
  'vaultvalue77',
  'MHcCAQEEIBYr',
  'AwEHoUQDQgAE',
];

// Ten secrets: the URL's password (split across two writes), the bearer token, the AWS key id and secret key, a
// password=, the variable named by --redact-env, one whose name ends in TOKEN, one --redact-pattern names, the key
// block (one), and the password of the last line on stderr.
const JOB = `#!/bin/sh
printf 'connecting to post'
sleep 0.05
printf 'gres://u:hunter2@db/x\\n'
echo "Authorization: Bearer tok-abc-123-xyz"
echo "key id AKIAIOSFODNN7EXAMPLE"
echo "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
echo "mysql --password=swordfish42"
echo "passphrase $BACKUP_PASSPHRASE, db token is $DB_TOKEN, vault $VAULT_SECRET_ID"
echo "-----BEGIN EC PRIVATE KEY-----" >&2
echo "MHcCAQEEIBYr" >&2
sleep 0.05
echo "AwEHoUQDQgAE" >&2
echo "-----END EC PRIVATE KEY-----" >&2
echo "login failed with password=swordfish42" >&2
exit 3
`;
const REDACTIONS = 10;

function jobScript(): string {
  const path = join(tempDir('pingmon-redact-'), 'job.sh');
  writeFileSync(path, JOB, { mode: 0o755 });
  return path;
}

const jobEnv = {
  XDG_CONFIG_HOME: tempDir('pingmon-config-'),
  BACKUP_PASSPHRASE: 'correct-horse-staple',
  DB_TOKEN: 'tok_zzzzzz9',
  VAULT_SECRET_ID: 'vaultvalue77',
};
const redactArgs = ['--redact-env', 'BACKUP_PASSPHRASE', '--redact-pattern', '^VAULT_'];

function holdsNoSecret(t: Test, text: string, what: string) {
  const found = SECRETS.filter((secret) => text.includes(secret));
  t.same(found, [], `${what} holds no secret`);
}

for (const kind of DATABASE_KINDS) {
  t.test(`pingmon run keeps secrets on the host, on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind, { alertPollMs: 50 });
    const account = await api.account('unlimited');
    const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
    const channel = await api.request('/channels', {
      token: account.token,
      body: { type: 'webhook', url: `${receiver.url}/hook` },
    });
    t.equal(channel.status, 201, channel.text);
    const script = jobScript();

    t.test('the run, its log, its error message and its alert hold [redacted] instead', async (t) => {
      const m = await api.monitor(account, 'leaky job');
      const env = { ...jobEnv, PINGMON_URL: api.url, PINGMON_API_KEY: account.apiKey, PINGMON_MONITOR: m };
      const result = await pingmon(['run', ...redactArgs, '--', script], env);
      t.equal(result.code, 3);
      t.match(result.stdout, 'connecting to postgres://u:hunter2@db/x\n', "the job's own output is unchanged");
      t.match(result.stderr, 'MHcCAQEEIBYr');
      t.equal(result.stderr.split('\n').filter((l) => l.startsWith('[pingmon]')).length, 0, result.stderr);

      const runs = await api.request(`/monitors/${m}/runs`, { token: account.token });
      const [run] = runs.body.runs;
      t.match(run, { status: 'failed', redactions: REDACTIONS });
      t.equal(run.errorMessage, 'exit code 3: login failed with password=[redacted]');
      const detail = await api.request(`/monitors/${m}/runs/${run.runId}`, { token: account.token });
      t.equal(detail.body.redactions, REDACTIONS);
      const log = (await api.request(`/monitors/${m}/runs/${run.runId}/log`, { token: account.token })).body.content;
      holdsNoSecret(t, log, 'the log');
      t.match(log, 'connecting to postgres://u:[redacted]@db/x\n');
      t.match(log, 'Authorization: Bearer [redacted]\n');
      t.match(log, 'passphrase [redacted], db token is [redacted], vault [redacted]\n');
      t.match(log, '[redacted]\nlogin failed', 'the key block is one [redacted]');

      await waitFor(() => receiver.received.length === 1, { what: 'the fail alert' });
      const alert = receiver.received[0]!.body;
      holdsNoSecret(t, alert, 'the alert');
      t.match(JSON.parse(alert), { errorMessage: 'exit code 3: login failed with password=[redacted]' });

      const shown = await pingmon(['runs', m, run.runId], {
        ...jobEnv,
        PINGMON_URL: api.url,
        PINGMON_TOKEN: account.token,
      });
      t.match(shown.stdout, /^redacted {4}10 values$/m, shown.stderr);
    });

    t.test('with the server down, the spool holds [redacted] instead', async (t) => {
      const stateHome = tempDir('pingmon-redact-state-');
      const env = {
        ...jobEnv,
        PINGMON_URL: await deadUrl(),
        PINGMON_API_KEY: account.apiKey,
        PINGMON_MONITOR: 'leaky-job',
        PINGMON_REDACT_ENV: 'BACKUP_PASSPHRASE',
        PINGMON_REDACT_PATTERN: '^VAULT_',
        XDG_STATE_HOME: stateHome,
      };
      const result = await pingmon(['run', '--', script], env);
      t.equal(result.code, 3);
      const spool = join(stateHome, 'pingmon', 'spool');
      const files = readdirSync(spool).filter((name) => name.endsWith('.json'));
      t.equal(files.length, 2, 'start and fail are in the spool');
      const kept = files.map((name) => readFileSync(join(spool, name), 'utf8'));
      for (const text of kept) holdsNoSecret(t, text, 'a spooled ping');
      const fail = kept.map((text) => JSON.parse(text)).find((ping) => ping.kind === 'fail');
      t.match(fail.body, {
        redactions: REDACTIONS,
        errorMessage: 'exit code 3: login failed with password=[redacted]',
      });
    });

    t.test('a --redact-pattern that is no regular expression is said, and the rest still redacted', async (t) => {
      const m = await api.monitor(account, 'bad pattern');
      const env = { ...jobEnv, PINGMON_URL: api.url, PINGMON_API_KEY: account.apiKey, PINGMON_MONITOR: m };
      const result = await pingmon(['run', '--redact-pattern', '(', '--', 'sh', '-c', 'echo $DB_TOKEN'], env);
      t.equal(result.code, 0);
      t.equal(result.stdout, 'tok_zzzzzz9\n');
      t.match(result.stderr, /^\[pingmon\] the redact pattern "\(" is not a regular expression .*: ignored/m);
      const [run] = (await api.request(`/monitors/${m}/runs`, { token: account.token })).body.runs;
      t.match(run, { status: 'success', redactions: 1 });
    });
  });
}
