import { copyFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import knexFactory from 'knex';
import t from 'tap';
import type { Test } from 'tap';
import { createTestDatabase, tempDir } from '../helpers/databases.js';
import type { TestDatabase } from '../helpers/databases.js';
import { createAccountCli, finished, pingmon, spawnCli, waitForLine } from '../helpers/cli.js';
import type { CliResult } from '../helpers/cli.js';
import { request } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';

const LISTENING = /pingmon server listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1)\n/;
const EMAIL = 'ops@example.com';
const PASSWORD = 'hunter2hunter2';
/** Fail pings with a full-size log before the backup: a copy that takes a while, and pings go on meanwhile. */
const SEEDED_RUNS = 1_200;
const STEADY_CLIENTS = 8;

interface Session {
  url: string;
  token: string;
  apiKey: string;
  child: ReturnType<typeof spawnCli>;
  exited: Promise<CliResult>;
}

async function createAccount(env: Record<string, string>): Promise<string> {
  return (await createAccountCli(env, { email: EMAIL, password: PASSWORD })).apiKey;
}

async function startServer(t: Test, env: Record<string, string>, apiKey: string): Promise<Session> {
  const child = spawnCli(['server', '--port', '0', '--host', '127.0.0.1'], { ...env, PINGMON_LOG_LEVEL: 'warn' });
  const exited = finished(child);
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const [, url] = await waitForLine(child, LISTENING);
  const login = await request(`${url}/auth/login`, { body: { email: EMAIL, password: PASSWORD } });
  if (login.status !== 200) throw new Error(`login failed: ${login.text}`);
  return { url: url!, token: login.body.token, apiKey, child, exited };
}

async function ping(session: Session, monitorId: string, kind: 'start' | 'success' | 'fail', body?: unknown) {
  const reply = await request(`${session.url}/ping/${monitorId}/${kind}`, { apiKey: session.apiKey, body: body ?? {} });
  if (reply.status !== 200) throw new Error(`${kind} ping answered ${reply.status}: ${reply.text}`);
  return reply.body.data;
}

/** Every run of a monitor, through the API, page by page. */
async function listRuns(session: Session, monitorId: string): Promise<Map<string, string>> {
  const runs = new Map<string, string>();
  let cursor: string | null = '';
  while (cursor !== null) {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = await request(`${session.url}/monitors/${monitorId}/runs?limit=200${query}`, {
      token: session.token,
    });
    if (page.status !== 200) throw new Error(`listing runs answered ${page.status}: ${page.text}`);
    for (const run of page.body.runs) runs.set(run.runId, run.status);
    cursor = page.body.nextCursor;
  }
  return runs;
}

async function integrityCheck(file: string): Promise<unknown> {
  const knex = knexFactory({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
  try {
    return await knex.raw('pragma integrity_check');
  } finally {
    await knex.destroy();
  }
}

t.test('a backup taken while the server takes pings restores every run acknowledged before it began', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.drop());
  const backups = tempDir();
  t.teardown(() => rmSync(backups, { recursive: true, force: true }));
  const apiKey = await createAccount(db.env);
  const live = await startServer(t, db.env, apiKey);
  const monitor = async (name: string) =>
    (await request(`${live.url}/monitors`, { token: live.token, body: { name } })).body.monitorId as string;
  const bulk = await monitor('bulk');
  const steady = await monitor('steady');
  for (let i = 0; i < SEEDED_RUNS; i += 20) {
    const log = (n: number) => `line ${n} of a long failure report\n`.repeat(300).slice(0, 10_000);
    await Promise.all(Array.from({ length: 20 }, (_, n) => ping(live, bulk, 'fail', { logOutput: log(i + n) })));
  }

  // Each client runs jobs one after another: a start, then the success of the run it opened.
  const phase = { backingUp: false, done: false };
  const before = { started: new Set<string>(), succeeded: new Set<string>() };
  let duringBackup = 0;
  const clients = Array.from({ length: STEADY_CLIENTS }, async () => {
    while (!phase.done) {
      const wasBefore = !phase.backingUp;
      const { runId } = await ping(live, steady, 'start');
      if (wasBefore && !phase.backingUp) before.started.add(runId);
      if (phase.backingUp) duringBackup += 1;
      await ping(live, steady, 'success', { runId });
      if (wasBefore && !phase.backingUp) before.succeeded.add(runId);
    }
  });
  const load = Promise.all(clients);
  load.catch(() => (phase.done = true));
  await waitFor(() => before.succeeded.size >= 50 || phase.done, { what: 'pings to flow before the backup' });
  const file = join(backups, 'pingmon-backup.db');
  phase.backingUp = true;
  const backup = await pingmon(['admin', 'backup', file, '--json'], db.env);
  const afterBackup = duringBackup;
  phase.done = true;
  await load;
  t.equal(backup.code, 0, backup.stderr);
  t.ok(afterBackup > 0, `${afterBackup} pings were answered while the backup ran`);
  const written = JSON.parse(backup.stdout);
  t.match(written, { path: file, source: join(db.dataDir, 'pingmon.db'), bytes: statSync(file).size, monitors: 2 });
  t.same(readdirSync(backups), ['pingmon-backup.db'], 'no temporary file is left beside the backup');
  t.equal(statSync(file).mode & 0o777, 0o600, 'the backup is readable by its owner only');

  live.child.kill('SIGTERM');
  t.equal((await live.exited).code, 0, 'the live server stops cleanly');

  // Restored as docs/deploy.md says: the backup copied into an empty data directory as pingmon.db.
  const restored = tempDir();
  t.teardown(() => rmSync(restored, { recursive: true, force: true }));
  copyFileSync(file, join(restored, 'pingmon.db'));
  t.same(await integrityCheck(join(restored, 'pingmon.db')), [{ integrity_check: 'ok' }]);
  const again = await startServer(t, { PINGMON_DATA_DIR: restored }, apiKey);

  const bulkRuns = await listRuns(again, bulk);
  t.equal(bulkRuns.size, SEEDED_RUNS, 'every seeded run is there');
  t.same(new Set(bulkRuns.values()), new Set(['failed']));
  const steadyRuns = await listRuns(again, steady);
  const missing = [...before.started].filter((runId) => !steadyRuns.has(runId));
  t.same(missing, [], `all ${before.started.size} runs started before the backup are there`);
  const unfinished = [...before.succeeded].filter((runId) => steadyRuns.get(runId) !== 'success');
  t.same(unfinished, [], `all ${before.succeeded.size} runs finished before the backup are there as successes`);
  t.equal(bulkRuns.size + steadyRuns.size, written.runs, 'the runs the backup counted are the runs restored');
  const aLog = await request(`${again.url}/monitors/${bulk}/runs/${[...bulkRuns.keys()][0]}/log`, {
    token: again.token,
  });
  t.match(aLog.body, { hasLog: true, content: /^line \d+ of a long failure report/ });

  const { runId } = await ping(again, steady, 'start');
  await ping(again, steady, 'success', { runId });
  t.equal((await listRuns(again, steady)).get(runId), 'success', 'the restored server takes new pings');
  again.child.kill('SIGTERM');
  t.equal((await again.exited).code, 0);
});

t.test('pingmon admin backup refuses, in one line, what it cannot do well', async (t) => {
  const db: TestDatabase = await createTestDatabase('sqlite');
  t.teardown(() => db.drop());
  const backups = tempDir();
  t.teardown(() => rmSync(backups, { recursive: true, force: true }));

  await t.test('no database yet', async (t) => {
    const result = await pingmon(['admin', 'backup', join(backups, 'a.db')], db.env);
    t.equal(result.code, 1);
    t.equal(
      result.stderr,
      `pingmon: there is no database at ${join(db.dataDir, 'pingmon.db')} yet: check --data-dir (or ` +
        'PINGMON_DATA_DIR), or start pingmon server once to create it\n',
    );
  });

  await t.test('a PostgreSQL database: pg_dump, with the command', async (t) => {
    const result = await pingmon(
      ['admin', 'backup', join(backups, 'a.db'), '--database-url', 'postgres://pingmon:s3cret@127.0.0.1:1/pingmon'],
      { ...db.env, PINGMON_DATABASE_SCHEMA: 'ops' },
    );
    t.equal(result.code, 1);
    t.equal(
      result.stderr,
      'pingmon: the database is PostgreSQL (postgres://pingmon:***@127.0.0.1:1/pingmon), and pingmon admin backup ' +
        'copies the embedded SQLite file only: back PostgreSQL up with pg_dump, under umask 077 (the dump holds the ' +
        'secret that signs user tokens), e.g. ' +
        '(umask 077 && pg_dump --format=custom --schema=ops --file=pingmon.dump "$PINGMON_DATABASE_URL")\n',
    );
  });

  // Only once the two above have run (awaited): they need the database not to exist yet.
  await createAccount(db.env);
  const existing = join(backups, 'existing.db');
  writeFileSync(existing, 'an older backup');

  t.test('an existing file, unless --force', async (t) => {
    const result = await pingmon(['admin', 'backup', existing], db.env);
    t.equal(result.code, 2);
    t.equal(result.stderr, `pingmon: ${existing} already exists: name another file, or add --force to replace it\n`);
    t.equal(readFileSync(existing, 'utf8'), 'an older backup', 'the file is left alone');
    const forced = await pingmon(['admin', 'backup', existing, '--force'], db.env);
    t.equal(forced.code, 0, forced.stderr);
    t.match(forced.stdout, new RegExp(`^backup  ${existing} \\(\\d+\\.\\d KiB\\)\\nholds   0 monitors, 0 runs\\n`));
    t.same(await integrityCheck(existing), [{ integrity_check: 'ok' }], 'it was replaced by a backup');
  });

  t.test('a directory that does not exist', async (t) => {
    const result = await pingmon(['admin', 'backup', join(backups, 'nope', 'a.db')], db.env);
    t.equal(result.code, 2);
    t.equal(
      result.stderr,
      `pingmon: the directory ${join(backups, 'nope')} does not exist: create it first ` +
        `(mkdir -p ${join(backups, 'nope')})\n`,
    );
  });

  t.test('a directory instead of a file', async (t) => {
    const result = await pingmon(['admin', 'backup', backups], db.env);
    t.equal(result.code, 2);
    t.equal(
      result.stderr,
      `pingmon: ${backups} is a directory: name the backup file, e.g. ${join(backups, 'pingmon-backup.db')}\n`,
    );
  });

  t.test('the live database itself, even with --force', async (t) => {
    const live = join(db.dataDir, 'pingmon.db');
    const result = await pingmon(['admin', 'backup', live, '--force'], db.env);
    t.equal(result.code, 2);
    t.equal(result.stderr, `pingmon: ${live} is the live database itself: name another file\n`);
  });

  t.test('nothing but finished backups is left in the directory', async (t) => {
    t.same(readdirSync(backups), ['existing.db']);
  });
});
