import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import t from 'tap';
import { CLI, cliEnv, createAccountCli, pingmon, spawnCli } from '../helpers/cli.js';
import { DATABASE_KINDS, createTestDatabase, knexOf } from '../helpers/databases.js';
import type { TestDatabase } from '../helpers/databases.js';
import { request } from '../helpers/http.js';
import { deadUrl, json, startReceiver } from '../helpers/receiver.js';
import { waitFor } from '../helpers/wait.js';

// The server's log as `pingmon server` writes it (issue 33): short lines for a person, JSON for machines, a request
// line only at debug or for a 5xx (or a slow request), alerts sent and failed at info.

const LISTENING = /pingmon server listening on (http:\/\/127\.0\.0\.1:\d+)\/api\/v1\ndashboard on \S+\n/;
// One attempt per alert: the unreachable channel's fails for good at once.
const ENV = { PINGMON_ALERT_TIMEOUT: '1', PINGMON_ALERT_MAX_ATTEMPTS: '1' };

interface Teardown {
  teardown(fn: () => unknown): void;
}

interface Running {
  base: string;
  /** Everything the server wrote to stdout so far. */
  output(): string;
  child: ChildProcess;
}

async function startServer(t: Teardown, db: TestDatabase, env: Record<string, string>): Promise<Running> {
  const child = spawnCli(['server', '--port', '0', '--host', '127.0.0.1'], { ...db.env, ...ENV, ...env });
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  const [, base] = await waitFor(() => LISTENING.exec(stdout), { what: 'the server listening' });
  return { base: base!, output: () => stdout, child };
}

/** An account, a monitor and two channels: one that answers 200, one where nothing listens. */
async function setUp(t: Teardown, db: TestDatabase, api: string) {
  const { apiKey } = await createAccountCli(db.env);
  const login = await request(`${api}/auth/login`, { body: { email: 'ops@example.com', password: 'hunter2hunter2' } });
  const token = login.body.token as string;
  const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
  const monitorId = (await request(`${api}/monitors`, { token, body: { name: 'nightly-backup' } })).body.monitorId;
  for (const [name, url] of [
    ['ops', `${receiver.url}/hook`],
    ['gone', `${await deadUrl()}/hook`],
  ]) {
    const made = await request(`${api}/channels`, {
      token,
      body: { type: 'webhook', name, url, monitorIds: [monitorId] },
    });
    if (made.status !== 201 && made.status !== 200) throw new Error(`channel: ${JSON.stringify(made.body)}`);
  }
  return { apiKey, token, monitorId };
}

/** A request that fails inside the server: its run's log table is dropped under it. */
async function breakLogs(db: TestDatabase): Promise<void> {
  const knex = knexOf(db);
  try {
    await knex.schema.dropTable('run_logs');
  } finally {
    await knex.destroy();
  }
}

for (const kind of DATABASE_KINDS) {
  t.test(`the pretty log at info on ${kind}: the two start-up lines, alerts and a 500, no request lines`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.drop());
    const server = await startServer(t, db, { PINGMON_LOG_FORMAT: 'pretty', PINGMON_LOG_LEVEL: 'info' });
    const api = `${server.base}/api/v1`;
    const { apiKey, token, monitorId } = await setUp(t, db, api);
    t.equal((await request(`${api}/nosuch`)).status, 404);
    const ping = await request(`${api}/ping/${monitorId}/fail`, {
      apiKey,
      body: { errorMessage: 'disk full', logOutput: 'No space left on device' },
    });
    t.equal(ping.status, 200);
    const runId = ping.body.data.runId as string;
    await waitFor(() => /alert failed/.test(server.output()) && /alert sent/.test(server.output()), {
      what: 'both alert lines',
      show: () => server.output(),
    });
    await breakLogs(db);
    const path = `/api/v1/monitors/${monitorId}/runs/${runId}/log`;
    t.equal((await request(`${server.base}${path}`, { token })).status, 500);
    await waitFor(() => server.output().includes(' 500 '), { what: 'the 500 line', show: () => server.output() });

    const lines = server.output().split('\n');
    t.same(lines.slice(0, 2), [`pingmon server listening on ${server.base}/api/v1`, `dashboard on ${server.base}/`]);
    const T = String.raw`\d\d:\d\d:\d\d`;
    const heads = lines.slice(2).filter((line) => line !== '' && !line.startsWith(' '));
    t.equal(heads.length, 4, `no line for the normal requests, the 404 or the ping:\n${heads.join('\n')}`);
    t.ok(
      heads.some((l) => new RegExp(`^${T} warn  GET ${path} 500 \\d+ms 127\\.0\\.0\\.1$`).test(l)),
      'the 500',
    );
    t.ok(
      heads.some((l) => new RegExp(`^${T} error .*run_logs`).test(l)),
      'its cause',
    );
    t.ok(heads.some((l) => new RegExp(`^${T} info  alert sent: nightly-backup failed → webhook ops$`).test(l)));
    t.ok(
      heads.some((l) =>
        new RegExp(`^${T} warn  alert failed after 1 attempt: nightly-backup failed → webhook gone: .+`).test(l),
      ),
    );
    t.notMatch(server.output(), /\x1b\[/, 'no colour: not a terminal');
    t.notMatch(server.output(), /\{"level"/, 'no JSON');
    t.notOk(server.output().includes('/hook'), 'no channel URL');
    for (const secret of [apiKey, token]) t.notOk(server.output().includes(secret), 'no secret');
  });
}

t.test('the JSON log at debug: a line per request with the fields machines read, alerts, a 500', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.drop());
  const server = await startServer(t, db, { PINGMON_LOG_FORMAT: 'json', PINGMON_LOG_LEVEL: 'debug' });
  const api = `${server.base}/api/v1`;
  const { apiKey, token, monitorId } = await setUp(t, db, api);
  const ping = await request(`${api}/ping/${monitorId}/fail`, {
    apiKey,
    body: { errorMessage: 'disk full', logOutput: 'No space left on device' },
  });
  await breakLogs(db);
  const path = `/api/v1/monitors/${monitorId}/runs/${ping.body.data.runId}/log`;
  t.equal((await request(`${server.base}${path}`, { token })).status, 500);
  type Line = { level: number; msg?: string; data?: string; tags?: string[]; [key: string]: unknown };
  const parsed = (): Line[] =>
    server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Line);
  // Buffered: written within a second.
  const lines = await waitFor(
    () => {
      const all = parsed();
      return all.some((l) => l.data?.startsWith('alert sent')) && all.some((l) => l.level === 50) ? all : undefined;
    },
    { what: 'the alert and the 500 in the log', show: () => server.output() },
  );
  const login = lines.find((l) => l.msg?.startsWith('POST /api/v1/auth/login '));
  t.match(login, {
    level: 20,
    time: Number,
    pid: Number,
    hostname: String,
    res: { statusCode: 200 },
    responseTime: Number,
    msg: /^POST \/api\/v1\/auth\/login 200 \d+ms 127\.0\.0\.1$/,
  });
  t.match(
    lines.find((l) => l.msg?.startsWith(`GET ${path} `)),
    { level: 40, res: { statusCode: 500 } },
  );
  t.match(
    lines.find((l) => l.level === 50),
    { tags: ['error'], err: { message: /run_logs/, stack: String }, msg: /run_logs/ },
  );
  t.match(
    lines.find((l) => l.data?.startsWith('alert sent')),
    { level: 30, tags: ['alerts', 'info'], data: 'alert sent: nightly-backup failed → webhook ops' },
  );
  t.match(
    lines.find((l) => l.data?.startsWith('alert failed')),
    {
      level: 40,
      tags: ['alerts', 'warn'],
      data: /^alert failed after 1 attempt: nightly-backup failed → webhook gone: /,
    },
  );
});

t.test('on a terminal the pretty lines are coloured, unless NO_COLOR is set', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.drop());
  for (const noColor of [undefined, '1']) {
    // `script` gives the server a terminal of its own; no PINGMON_LOG_FORMAT: a terminal chooses pretty.
    const command = `'${process.execPath}' '${CLI}' server --port 0 --host 127.0.0.1`;
    const env = cliEnv({ ...db.env, PINGMON_LOG_LEVEL: 'debug', ...(noColor ? { NO_COLOR: noColor } : {}) });
    if (!noColor) delete env.NO_COLOR;
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const stop = async () => {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
      await exited;
    };
    t.teardown(stop);
    const base = (await waitFor(() => /listening on (http:\S+)\/api\/v1/.exec(out), { what: 'listening' }))[1];
    await request(`${base}/api/v1/health`);
    const line = (await waitFor(() => /^.*GET \/api\/v1\/health 200.*$/m.exec(out), { what: 'the request line' }))[0];
    if (noColor) t.match(line, /^\d\d:\d\d:\d\d debug GET \/api\/v1\/health 200 \d+ms 127\.0\.0\.1\r?$/, 'NO_COLOR');
    else t.match(line, /^\x1b\[2m\d\d:\d\d:\d\d\x1b\[0m \x1b\[90mdebug\x1b\[0m GET \/api\/v1\/health 200 /, 'colour');
    await stop();
  }
});

t.test('a bad PINGMON_LOG_FORMAT is refused in one line saying what it takes', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.drop());
  const result = await pingmon(['server', '--port', '0'], { ...db.env, PINGMON_LOG_FORMAT: 'yaml' });
  t.not(result.code, 0);
  t.equal(
    result.stderr,
    'pingmon: PINGMON_LOG_FORMAT must be pretty (lines for a person) or json (a JSON object a line), or unset: ' +
      'pretty on a terminal, json otherwise (got "yaml")\n',
  );
});
