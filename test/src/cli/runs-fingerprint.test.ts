import t from 'tap';
import { tempDir } from '../helpers/databases.js';
import { pingmon } from '../helpers/cli.js';
import { TestServer } from '../helpers/server.js';

// docs/cli.md#pingmon-runs: runs of one failure (--fingerprint), and one run with how often its failure was seen.
t.test('pingmon runs --fingerprint and pingmon runs MONITOR RUN', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const env = { XDG_CONFIG_HOME: tempDir('pingmon-config-') };
  const cli = (...args: string[]) => pingmon(args, env);
  const login = await cli('login', '--url', api.url, '--email', account.email, '--password', account.password);
  t.equal(login.code, 0, login.stderr);
  const monitorId = await api.monitor(account, 'db backup');
  const refused = (pid: number) =>
    `pg_dump[${pid}]: error: connection to server at "10.0.0.5" failed: Connection refused`;
  for (const log of [refused(11), 'tar: /data: No space left on device', refused(2087), refused(90210)]) {
    const reply = await api.ping(account, monitorId, 'fail', { errorMessage: 'exit code 1', logOutput: log });
    t.equal(reply.status, 200, reply.text);
  }
  const listed = await cli('runs', monitorId, '--json');
  const runs = (JSON.parse(listed.stdout) as Array<{ runId: string; fingerprint: string }>).reverse();
  const print = runs[0]!.fingerprint;

  const same = await cli('runs', monitorId, '--fingerprint', print);
  t.equal(same.code, 0, same.stderr);
  t.same(
    same.stdout
      .split('\n')
      .filter((l) => l.includes('failed'))
      .map((l) => l.split(/\s+/)[0]),
    [runs[3]!.runId, runs[2]!.runId, runs[0]!.runId],
    'the three refused runs, not the disk full one',
  );
  const none = await cli('runs', monitorId, '--fingerprint', '0000000000000000');
  t.equal(none.stdout, 'No runs with fingerprint 0000000000000000.\n');

  const last = await cli('runs', monitorId, runs[3]!.runId);
  t.equal(last.code, 0, last.stderr);
  t.match(
    last.stdout,
    new RegExp(`failure +first seen (just now|\\d+s ago|\\d+m ago), 3 times \\(fingerprint ${print}\\)`),
  );
  t.match(last.stdout, new RegExp(`log +pingmon logs ${monitorId} ${runs[3]!.runId}`));
  const other = await cli('runs', monitorId, runs[1]!.runId);
  t.match(other.stdout, /failure +new failure \(fingerprint [0-9a-f]{16}\)/);
  const detail = await cli('runs', monitorId, runs[0]!.runId, '--json');
  t.match(JSON.parse(detail.stdout), { fingerprint: print, failure: { count: 3, firstSeenAt: /Z$/ } });
});
