import { chmodSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { createAccountCli, finished, pingmon, spawnCli, waitForLine } from '../helpers/cli.js';
import type { CliResult } from '../helpers/cli.js';
import { tempDir } from '../helpers/databases.js';
import { request } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';

// The umask most systems give a service: without pingmon's own care, directories come out 0755 and files 0644.
process.umask(0o022);

const LISTENING = /pingmon server listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1)\n/;
const EMAIL = 'ops@example.com';
const PASSWORD = 'hunter2hunter2';
const DB_FILES = ['pingmon.db', 'pingmon.db-wal', 'pingmon.db-shm'];

interface Running {
  url: string;
  child: ReturnType<typeof spawnCli>;
  exited: Promise<CliResult>;
  /** Everything the server wrote to stdout so far (its log). */
  output(): string;
}

async function startServer(t: Test, env: Record<string, string>): Promise<Running> {
  const child = spawnCli(['server', '--port', '0', '--host', '127.0.0.1'], { ...env, PINGMON_LOG_LEVEL: 'warn' });
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const exited = finished(child);
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const [, url] = await waitForLine(child, LISTENING);
  return { url: url!, child, exited, output: () => stdout };
}

/** An account, a monitor and one ping through the running server: the database has been written to. */
async function writePing(server: Running, env: Record<string, string>): Promise<void> {
  const { apiKey } = await createAccountCli(env, { email: EMAIL, password: PASSWORD });
  const login = await request(`${server.url}/auth/login`, { body: { email: EMAIL, password: PASSWORD } });
  const monitor = await request(`${server.url}/monitors`, { token: login.body.token, body: { name: 'nightly' } });
  const ping = await request(`${server.url}/ping/${monitor.body.monitorId}/success`, { apiKey, body: {} });
  if (ping.status !== 200) throw new Error(`the ping answered ${ping.status}: ${ping.text}`);
}

async function stop(server: Running): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8).padStart(4, '0');

/** The modes of the data directory and of pingmon's files in it, by name. */
function modes(dataDir: string): Record<string, string> {
  const found: Record<string, string> = { '.': modeOf(dataDir) };
  for (const name of DB_FILES) if (existsSync(join(dataDir, name))) found[name] = modeOf(join(dataDir, name));
  return found;
}

const PRIVATE = { '.': '0700', 'pingmon.db': '0600', 'pingmon.db-wal': '0600', 'pingmon.db-shm': '0600' };

function scratch(t: Test): string {
  const dir = tempDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('a new --data-dir is made 0700 and the database files in it 0600, under umask 022', async (t) => {
  const dataDir = join(scratch(t), 'data');
  const env = { PINGMON_DATA_DIR: dataDir };
  const server = await startServer(t, env);
  await writePing(server, env);
  t.same(modes(dataDir), PRIVATE, 'the database, its -wal and its -shm are the owner’s alone');
  await stop(server);
  t.notMatch(server.output(), /tightened/, 'nothing was loose, nothing is reported');
});

t.test('the default data directory ($XDG_DATA_HOME/pingmon) is made 0700, its files 0600', async (t) => {
  const dataHome = join(scratch(t), 'share');
  const env = { XDG_DATA_HOME: dataHome };
  const server = await startServer(t, env);
  await writePing(server, env);
  t.same(modes(join(dataHome, 'pingmon')), PRIVATE);
  await stop(server);
});

t.test('an existing 0755 data directory with 0644 files left by a crash is tightened, the log says so', async (t) => {
  const dataDir = join(scratch(t), 'data');
  const env = { PINGMON_DATA_DIR: dataDir };
  const first = await startServer(t, env);
  await writePing(first, env);
  // Killed: its -wal and -shm stay behind, as an older pingmon's would, with the modes given below.
  first.child.kill('SIGKILL');
  await first.exited;
  chmodSync(dataDir, 0o755);
  for (const name of DB_FILES) chmodSync(join(dataDir, name), 0o644);

  const second = await startServer(t, env);
  t.same(modes(dataDir), PRIVATE);
  const line = await waitFor(() => /^.*tightened.*$/m.exec(second.output())?.[0], { what: 'the log line' });
  t.match(line, /"level":40/, 'a warning');
  t.match(line, `${dataDir} from 0755 to 0700`);
  t.match(line, `${join(dataDir, 'pingmon.db')} from 0644 to 0600`);
  t.match(line, `${join(dataDir, 'pingmon.db-wal')} from 0644 to 0600`);
  t.match(line, /signs user tokens/, 'it says why');
  await stop(second);
});

t.test('a data directory holding files of others keeps its mode, with a warning; the database is 0600', async (t) => {
  const dataDir = join(scratch(t), 'data');
  mkdirSync(dataDir, { mode: 0o755 });
  writeFileSync(join(dataDir, 'notes.txt'), 'not pingmon’s\n');
  const env = { PINGMON_DATA_DIR: dataDir };
  const server = await startServer(t, env);
  await writePing(server, env);
  t.same(modes(dataDir), { ...PRIVATE, '.': '0755' }, 'the directory is not pingmon’s alone to change');
  const line = await waitFor(() => /^.*open to other users.*$/m.exec(server.output())?.[0], { what: 'the warning' });
  t.match(line, /"level":40/);
  t.match(line, `chmod 700 ${dataDir}`, 'it says what to do');
  await stop(server);
});

t.test('pingmon admin create-account tightens a 0644 database too, and warns on standard error', async (t) => {
  const dataDir = join(scratch(t), 'data');
  const env = { PINGMON_DATA_DIR: dataDir };
  await createAccountCli(env, { email: 'first@example.com' });
  chmodSync(join(dataDir, 'pingmon.db'), 0o644);
  const args = ['admin', 'create-account', '--email', EMAIL, '--password', PASSWORD, '--json'];
  const created = await pingmon(args, env);
  t.equal(created.code, 0, created.stderr);
  t.same(modes(dataDir), { '.': '0700', 'pingmon.db': '0600' });
  t.match(created.stderr, `pingmon: tightened ${join(dataDir, 'pingmon.db')} from 0644 to 0600`);
  t.ok(JSON.parse(created.stdout).apiKey, 'the JSON on standard output is whole');
});

t.test('pingmon admin set-password tightens a 0644 database too, and warns on standard error', async (t) => {
  const dataDir = join(scratch(t), 'data');
  const env = { PINGMON_DATA_DIR: dataDir };
  await createAccountCli(env, { email: EMAIL, password: PASSWORD });
  chmodSync(join(dataDir, 'pingmon.db'), 0o644);
  const set = await pingmon(['admin', 'set-password', '--email', EMAIL, '--password', `${PASSWORD}-new`], env);
  t.equal(set.code, 0, set.stderr);
  t.same(modes(dataDir), { '.': '0700', 'pingmon.db': '0600' });
  t.match(set.stderr, `pingmon: tightened ${join(dataDir, 'pingmon.db')} from 0644 to 0600`);
  t.match(set.stdout, /^Password of ops@example\.com set; 0 sessions ended\.\n$/);
});

t.test('a backup is 0600 under umask 022, also when it replaces a 0644 file', async (t) => {
  const dataDir = join(scratch(t), 'data');
  const backups = scratch(t);
  chmodSync(backups, 0o755);
  const env = { PINGMON_DATA_DIR: dataDir };
  await createAccountCli(env, { email: EMAIL, password: PASSWORD });
  const fresh = join(backups, 'fresh.db');
  const made = await pingmon(['admin', 'backup', fresh], env);
  t.equal(made.code, 0, made.stderr);
  t.equal(modeOf(fresh), '0600');
  const replaced = join(backups, 'replaced.db');
  writeFileSync(replaced, 'an older backup', { mode: 0o644 });
  const forced = await pingmon(['admin', 'backup', '--force', replaced], env);
  t.equal(forced.code, 0, forced.stderr);
  t.equal(modeOf(replaced), '0600');
});
