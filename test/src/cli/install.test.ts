import { execFile, spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { POSTGRES_URL, createTestDatabase, tempDir } from '../helpers/databases.js';
import { finished, waitForLine } from '../helpers/cli.js';
import { TestServer } from '../helpers/server.js';

// A job host installs the `pingmon` command from its packed tarballs, as a user would, and gets no server: no
// native module, no database driver, no hapi. `pingmon run` works against a server elsewhere; `pingmon server` says
// what to install. Then, with the server package beside it, `pingmon server` starts.

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SERVER_ONLY = ['@hapi', 'knex', 'pg', 'better-sqlite3', 'pino', 'nodemailer', 'prom-client'];

async function pack(workspace: string, into: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', into], { cwd: join(ROOT, workspace) });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; size: number }>;
  t.comment(`${packed!.filename}: ${(packed!.size / 1024).toFixed(0)} kB packed`);
  return join(into, packed!.filename);
}

async function installGlobally(prefix: string, tarballs: string[], extra: string[] = []) {
  const started = Date.now();
  // --prefer-offline: what npm has cached (everything, after `npm ci`) is not asked for again.
  await run(
    'npm',
    ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', ...extra, ...tarballs],
    {
      cwd: prefix,
    },
  );
  return Date.now() - started;
}

/** Every path under `dir` (files and folders), relative to it. */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    const relative = path.slice(base.length + 1);
    return entry.isDirectory() && !entry.isSymbolicLink() ? [relative, ...walk(path, base)] : [relative];
  });
}

function sizeOf(dir: string): number {
  return walk(dir).reduce((sum, path) => sum + statSync(join(dir, path)).size, 0);
}

/** `pingmon` as installed in the prefix, with only the given settings. */
function installed(prefix: string, args: string[], env: Record<string, string> = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PINGMON_')));
  return spawn(join(prefix, 'bin', 'pingmon'), args, {
    env: { ...clean, XDG_STATE_HOME: tempDir('pingmon-state-'), XDG_CONFIG_HOME: tempDir('pingmon-config-'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

t.test('the pingmon command installs from its tarballs without the server, and pingmon run works', async (t) => {
  const packs = tempDir('pingmon-packs-');
  const prefix = tempDir('pingmon-prefix-');
  const cli = await pack('cli', packs);
  const sdk = await pack('sdk', packs);
  const ms = await installGlobally(prefix, [cli, sdk]);
  const modules = join(prefix, 'lib', 'node_modules');
  t.comment(`installed in ${(ms / 1000).toFixed(1)} s; ${(sizeOf(modules) / 1024 / 1024).toFixed(1)} MiB on disk`);

  const paths = walk(modules);
  t.same(
    paths.filter((path) => path.endsWith('.node') || path.endsWith('binding.gyp')),
    [],
    'no native module',
  );
  const names = paths.map((path) => path.split('/')).map((parts) => parts.at(-1)!);
  t.same(
    SERVER_ONLY.filter((name) => names.includes(name)),
    [],
    'none of the server’s dependencies',
  );

  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const monitorId = await api.monitor(account);
  const env = { PINGMON_URL: api.url.replace(/\/api\/v1$/, ''), PINGMON_API_KEY: account.apiKey };
  const job = await finished(installed(prefix, ['run', '--monitor', monitorId, '--', 'true'], env));
  t.equal(job.code, 0, job.stderr);
  t.equal(job.stderr, '', 'nothing to warn about');
  const runs = await api.request(`/monitors/${monitorId}/runs`, { token: account.token });
  t.match(runs.body.runs, [{ status: 'success' }], 'the run is recorded');
  t.equal(runs.body.runs.length, 1);

  const version = await finished(installed(prefix, ['--version']));
  t.match(version.stdout, /^pingmon\/\d+\.\d+\.\d+ /);

  for (const args of [
    ['server'],
    ['admin', 'create-account', '--email', 'a@example.com', '--password', 'long enough'],
    ['admin', 'backup', join(tempDir('pingmon-backup-'), 'copy.db')],
  ]) {
    const refused = await finished(installed(prefix, args));
    t.equal(refused.code, 1, args.join(' '));
    t.equal(refused.stdout, '');
    t.match(
      refused.stderr,
      new RegExp(
        '^pingmon: pingmon (server|admin create-account|admin backup) needs the server package, which is not ' +
          'installed here: install it beside this one from its tarball, npm install -g \\./pingmon-server-' +
          '\\d+\\.\\d+\\.\\d+\\.tgz \\(docs/cli\\.md#installing; .*\\)\n$',
      ),
      'one line saying what to install',
    );
  }

  t.test('with the server package installed beside it, pingmon server starts', async (t) => {
    if (!POSTGRES_URL) {
      // SQLite needs better-sqlite3 compiled for this install (minutes); PostgreSQL shows the same thing at once.
      t.comment('PINGMON_TEST_DATABASE_URL is not set: the server package is installed, but not started');
    }
    const server = await pack('server', packs);
    // Install scripts skipped: better-sqlite3's compilation, needed only for SQLite.
    const serverMs = await installGlobally(prefix, [cli, sdk, server], ['--ignore-scripts']);
    t.comment(`the server package added in ${(serverMs / 1000).toFixed(1)} s`);
    const help = await finished(installed(prefix, ['server', '--help']));
    t.equal(help.code, 0, help.stderr);
    if (!POSTGRES_URL) return;
    const db = await createTestDatabase('postgres');
    t.teardown(() => db.drop());
    const child = installed(prefix, ['server', '--port', '0'], db.env);
    const done = finished(child);
    const [, url] = await waitForLine(child, /pingmon server listening on (\S+)/);
    const health = await fetch(`${url}/health`);
    t.equal(health.status, 200);
    child.kill('SIGTERM');
    t.equal((await done).code, 0);
  });
});
