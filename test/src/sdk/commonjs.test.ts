import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { TestServer } from '../helpers/server.js';

// The README's CommonJS example: a project made by `npm init` require()s the SDK, an ES module (Node 20.19+).

const SCRIPT = `
const { createPinger } = require('@pingmon/sdk');

const pinger = createPinger({ monitorId: process.env.MONITOR });
pinger.wrap(() => runBackup()).then((result) => console.log('reported', result));

async function runBackup() {
  return 'backed up';
}
`;

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

function node(args: string[], env: Record<string, string>): Promise<Ended> {
  // Run from the test package, where @pingmon/sdk resolves as it does in a project that installed it.
  const cwd = fileURLToPath(new URL('../..', import.meta.url));
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

t.test('CommonJS code require()s the SDK and reports a run with it', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const monitorId = await api.monitor(account, 'from CommonJS');
  const env = { PINGMON_URL: api.url, PINGMON_API_KEY: account.apiKey, MONITOR: monitorId };
  const result = await node(['--input-type=commonjs', '-e', SCRIPT], env);
  t.equal(result.code, 0, result.stderr);
  t.equal(result.stdout, 'reported backed up\n');
  t.notMatch(result.stderr, /Cannot use import statement|ERR_REQUIRE_ESM/);
  const runs = (await api.request(`/monitors/${monitorId}/runs`, { token: account.token })).body.runs;
  t.match(runs, [{ status: 'success' }]);
  t.ok(runs[0].durationMs >= 0, 'start and success paired');
});
