import { randomUUID } from 'node:crypto';
import t from 'tap';
import { DATABASE_KINDS, createTestDatabase } from '../helpers/databases.js';
import { finished, pingmon, spawnCli, waitForLine } from '../helpers/cli.js';
import { request } from '../helpers/http.js';
import type { Reply } from '../helpers/http.js';
import { databaseOutage } from '../helpers/outage.js';
import { waitFor } from '../helpers/wait.js';

const LISTENING = /pingmon server listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1)\n/;
const FAILED_PINGS = 30;
/** Pings sent at once while the outage begins. */
const SENDERS = 6;
/** The server's interval between two log lines of one outage. */
const OUTAGE_LOG_INTERVAL_MS = 10_000;

interface LogLine {
  level: number;
  tags?: string[];
  data?: string;
  msg?: string;
}

/** The server's JSON log lines; the start-up line printed by the CLI is not one. */
function logLines(stdout: string): LogLine[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** What the outage lines count of one kind: the first line's one, if it is of that kind, and the "N more". */
function counted(lines: LogLine[], first: string, more: RegExp): number {
  return lines.reduce((sum, line) => {
    const text = line.data ?? '';
    return sum + Number(more.exec(text)?.[1] ?? 0) + (text.includes(first) ? 1 : 0);
  }, 0);
}

const requestsCounted = (lines: LogLine[]) =>
  counted(lines, '(a request was answered 503;', /(\d+) more requests? answered 503/);
const alertSenderFailures = (lines: LogLine[]) =>
  counted(lines, '(an operation of the alert sender failed;', /(\d+) more operations? of the alert sender failed/);

for (const kind of DATABASE_KINDS) {
  t.test(`on ${kind}, a database outage is a 503 counted in a few log lines, and over within a second`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.drop());
    const outage = await databaseOutage(t, kind);
    const env: Record<string, string> = { ...db.env, PINGMON_LOG_LEVEL: 'warn' };
    if (outage.databaseUrl) env.PINGMON_DATABASE_URL = outage.databaseUrl;
    const owner = { email: 'ops@example.com', password: 'hunter2hunter2' };
    const account = ['admin', 'create-account', '--email', owner.email, '--password', owner.password];
    const created = await pingmon([...account, '--plan', 'unlimited', '--json'], env);
    const { apiKey } = JSON.parse(created.stdout) as { apiKey: string };

    const child = spawnCli(['server', '--port', '0', '--host', '127.0.0.1'], env);
    const exited = finished(child);
    t.teardown(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const [, url] = await waitForLine(child, LISTENING);
    const { token } = (await request(`${url}/auth/login`, { body: owner })).body;
    const { monitorId } = (await request(`${url}/monitors`, { token, body: { name: 'outage' } })).body;
    // A key never used before the outage: its lookup is not in the server's cache.
    const { key: freshKey } = (await request(`${url}/api-keys`, { token, body: { name: 'fresh' } })).body;
    const ping = (key: string, runId: string) =>
      request(`${url}/ping/${monitorId}/start`, { apiKey: key, body: { runId } });

    // Under load: pings go on, a few at a time, while the outage begins. Each one is either acknowledged,
    // or answered 503 (then its sender stops): nothing else, and nothing acknowledged may be lost.
    const acknowledged: string[] = [];
    const unacknowledged: Reply[] = [];
    let began: Promise<void> | undefined;
    let outageBegan = 0;
    const sender = async () => {
      for (;;) {
        const runId = randomUUID();
        const reply = await ping(apiKey, runId);
        if (reply.status !== 200) {
          unacknowledged.push(reply);
          return;
        }
        acknowledged.push(runId);
        if (acknowledged.length >= 10 && !began) {
          outageBegan = Date.now();
          began = outage.begin(db);
        }
      }
    };
    await Promise.all(Array.from({ length: SENDERS }, sender));
    await began;
    t.same(
      unacknowledged.map((r) => [r.status, r.body.code]),
      unacknowledged.map(() => [503, 'database_unavailable']),
      `${acknowledged.length} pings acknowledged, then ${unacknowledged.length} answered 503 as the outage began`,
    );

    const refused = Array.from({ length: FAILED_PINGS }, () => randomUUID());
    const refusedAtOnce: Reply[] = await Promise.all([
      ...refused.map((runId) => ping(apiKey, runId)),
      ping(freshKey, randomUUID()),
      request(`${url}/monitors`, { token, body: { name: 'made during the outage' } }),
      request(`${url}/health`),
    ]);
    t.same(
      refusedAtOnce.map((r) => [r.status, r.headers.get('retry-after'), r.body.code]),
      refusedAtOnce.map(() => [503, '5', 'database_unavailable']),
      'pings, API calls and /health answer 503 database_unavailable with Retry-After',
    );
    const [first] = refusedAtOnce;
    t.same(Object.keys(first!.body).sort(), ['code', 'error', 'message', 'retryAfter', 'statusCode', 'success']);
    t.match(first!.body, { success: false, statusCode: 503, error: 'Service Unavailable', retryAfter: 5 });
    t.match(first!.body.message, /database.*Wait 5 seconds/);
    const failed = unacknowledged.length + refusedAtOnce.length;

    await outage.end();
    const back = Date.now();
    let refusedHealth = 0;
    await waitFor(
      async () => {
        const health = await request(`${url}/health`);
        if (health.status === 503) refusedHealth += 1;
        return health.status === 200 && health.body.status === 'ok';
      },
      { intervalMs: 20, what: '/health to answer 200' },
    );
    t.ok(Date.now() - back < 3_000, `/health is 200 ${Date.now() - back} ms after the database is back`);

    const resent = await Promise.all(refused.map((runId) => ping(apiKey, runId)));
    t.same(
      resent.map((r) => r.status),
      refused.map(() => 200),
      'the refused pings are accepted when sent again',
    );
    const { runs } = (await request(`${url}/monitors/${monitorId}/runs?limit=200`, { token })).body as {
      runs: Array<{ runId: string }>;
    };
    const stored = new Set(runs.map((r) => r.runId));
    t.same(
      [...acknowledged, ...refused].filter((runId) => !stored.has(runId)),
      [],
      'no acknowledged ping is lost',
    );

    child.kill('SIGTERM');
    const { code, stdout } = await exited;
    const stoppedAt = Date.now();
    t.equal(code, 0);
    const all = logLines(stdout);
    // The sweeper could not sweep while the database was away: it may say so once, with the fresh grace it gave.
    const gap = /^no pingmon server swept from \S+ to \S+: expected runs and deadlines/;
    const lines = all.filter((l) => !(l.tags?.includes('sweeper') && gap.test(String(l.data))));
    t.ok(all.length - lines.length <= 1, 'the sweeper names the gap at most once');
    t.same(
      lines.filter((l) => !l.tags?.includes('database')),
      [],
      'nothing but the outage is logged at warn',
    );
    t.match(
      lines[0]?.data,
      kind === 'postgres'
        ? /^cannot use the database at postgres:\/\/postgres@127\.0\.0\.1:\d+\/test \(schema test_\w+\): \S/
        : /^cannot use the database at \S+pingmon\.db: SQLITE_BUSY: database is locked/,
    );
    t.ok(
      lines.every((l) => l.level === 40),
      'at warn',
    );
    const mostLines = 2 + Math.floor((stoppedAt - outageBegan) / OUTAGE_LOG_INTERVAL_MS);
    t.ok(lines.length <= mostLines, `${lines.length} log lines for ${failed + refusedHealth} failed requests`);
    t.equal(requestsCounted(lines), failed + refusedHealth, 'every failed request is counted once');
    // The alert sender reads the outbox every second when it is idle, and no faster when the reads fail.
    const seconds = Math.ceil((stoppedAt - outageBegan) / 1000);
    t.ok(
      alertSenderFailures(lines) <= seconds + 1,
      `${alertSenderFailures(lines)} failed outbox reads in ${seconds} s`,
    );
  });
}
