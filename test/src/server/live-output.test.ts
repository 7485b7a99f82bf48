import t from 'tap';
import type { Alert, LogResult, Monitor, RunDetail, RunOutput } from '@pingmon/sdk';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import { startOnTestTime as setup } from '../helpers/test-time.js';
import type { OnTestTime as Setup } from '../helpers/test-time.js';
import { waitFor } from '../helpers/wait.js';

// Issue 32, points 1 to 3 (docs/api.md#live-output): a running run's output, sent in chunks placed by their offset,
// kept as a bounded window, read from an offset; a run timed out keeps its last lines as its log and alert.

const MINUTE = 60_000;
const WINDOW = 65_536;
const RUN = 'run-live-0001';

async function createMonitor(s: Setup, body: object = {}): Promise<Monitor> {
  const reply = await s.api.request<Monitor>('/monitors', { token: s.account.token, body: { name: 'job', ...body } });
  if (reply.status !== 200 && reply.status !== 201) throw new Error(`creating a monitor failed: ${reply.text}`);
  return reply.body;
}

const send = (s: Setup, monitorId: string, chunk: object) =>
  s.api.request(`/ping/${monitorId}/output`, { method: 'POST', apiKey: s.account.apiKey, body: chunk });

const read = async (s: Setup, monitorId: string, after = 0, runId = RUN) => {
  const reply = await s.api.request<RunOutput>(`/monitors/${monitorId}/runs/${runId}/output?after=${after}`, {
    token: s.account.token,
  });
  if (reply.status !== 200) throw new Error(`reading the output: ${reply.status} ${reply.text}`);
  return reply.body;
};

for (const kind of DATABASE_KINDS) {
  t.test(`live output on ${kind}`, async (t) => {
    t.test('chunks are placed by offset: sent twice or overlapping, they change nothing twice', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s);
      const early = await send(s, m.monitorId, { runId: RUN, offset: 0, text: 'too early\n' });
      t.equal(early.status, 409);
      t.equal(early.body.code, 'run_not_started', 'a chunk before its start is refused, to be sent again');

      t.equal((await s.api.ping(s.account, m.monitorId, 'start', { runId: RUN })).status, 200);
      t.same(await read(s, m.monitorId), { runId: RUN, status: 'running', running: true, text: '', from: 0, next: 0 });
      const first = await send(s, m.monitorId, { runId: RUN, offset: 0, text: 'line 1\n' });
      t.equal(first.status, 200, first.text);
      t.same(first.body, { runId: RUN, next: 7 });
      t.equal((await send(s, m.monitorId, { runId: RUN, offset: 0, text: 'line 1\n' })).body.next, 7, 'again: same');
      await send(s, m.monitorId, { runId: RUN, offset: 3, text: 'e 1\nline 2\n' });
      t.match(await read(s, m.monitorId), { text: 'line 1\nline 2\n', from: 0, next: 14 });
      t.match(await read(s, m.monitorId, 7), { text: 'line 2\n', from: 7, next: 14 }, 'read from an offset');
      t.match(await read(s, m.monitorId, 14), { text: '', from: 14, next: 14, running: true });

      // The wrapper dropped output the server was too slow for: the window starts again where the chunk does.
      await send(s, m.monitorId, { runId: RUN, offset: 100, text: 'line 9\n' });
      t.match(await read(s, m.monitorId, 14), { text: 'line 9\n', from: 100, next: 107 });

      const bad = await send(s, m.monitorId, { runId: RUN, offset: -1, text: 'x' });
      t.equal(bad.status, 400, 'a negative offset is refused');
      t.equal((await send(s, m.monitorId, { runId: RUN, offset: 0, text: 'x'.repeat(WINDOW + 1) })).status, 400);

      t.equal((await s.api.ping(s.account, m.monitorId, 'success', { runId: RUN })).status, 200);
      const late = await send(s, m.monitorId, { runId: RUN, offset: 107, text: 'after the end\n' });
      t.equal(late.status, 409);
      t.equal(late.body.code, 'run_finished', 'a chunk for a run that ended is refused');
      t.match(
        await read(s, m.monitorId, 100),
        { running: false, status: 'success', text: 'line 9\n' },
        'a follower reads the last lines a while past the end',
      );
      s.clock.advance(2 * MINUTE);
      await s.api.server.app.sweeper.sweepNow();
      t.match(await read(s, m.monitorId, 100), { running: false, text: '', next: 100 }, 'then the window goes');
      const rows = await s.api.query((knex) => knex('run_outputs').count({ n: '*' }));
      t.equal(Number(rows[0]!.n), 0);

      const missing = await s.api.request(`/monitors/${m.monitorId}/runs/nope-nope-nope/output`, {
        token: s.account.token,
      });
      t.equal(missing.status, 404);
      t.equal(missing.body.code, 'run_not_found');
    });

    t.test('another server process on the database reads it; NUL is kept as U+FFFD, the same length', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s);
      await s.api.ping(s.account, m.monitorId, 'start', { runId: RUN });
      t.equal((await send(s, m.monitorId, { runId: RUN, offset: 0, text: 'a\u0000b\n' })).status, 200);
      const other = await TestServer.on(t, s.api.database);
      const reply = await other.request<RunOutput>(`/monitors/${m.monitorId}/runs/${RUN}/output`, {
        token: s.account.token,
      });
      t.match(reply.body, { text: 'a\ufffdb\n', from: 0, next: 4, running: true });
    });

    t.test('the window keeps the last 64 KiB of the output', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s);
      await s.api.ping(s.account, m.monitorId, 'start', { runId: RUN });
      const piece = (i: number) => `${String(i).padStart(5, '0')}${'.'.repeat(9_994)}\n`;
      let offset = 0;
      for (let i = 0; i < 10; i++) {
        const reply = await send(s, m.monitorId, { runId: RUN, offset, text: piece(i) });
        t.equal(reply.status, 200, reply.text);
        offset += 10_000;
      }
      const output = await read(s, m.monitorId);
      t.equal(output.text.length, WINDOW);
      t.equal(output.from, 100_000 - WINDOW, 'a reader from 0 is told where the text starts');
      t.equal(output.next, 100_000);
      t.ok(output.text.endsWith(piece(9)));
    });

    t.test('a run timed out by maxRuntime keeps its last lines as its log and in its alert', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s, { maxRuntime: 60 });
      await s.api.ping(s.account, m.monitorId, 'start', { runId: RUN });
      const lines = Array.from({ length: 2_000 }, (_, i) => `step ${i} of the copy\n`).join('');
      t.equal((await send(s, m.monitorId, { runId: RUN, offset: 0, text: lines })).status, 200);
      s.clock.advance(2 * MINUTE);
      t.match(await s.api.server.app.sweeper.sweepNow(), { timedOut: 1 });

      const run = await s.api.request<RunDetail>(`/monitors/${m.monitorId}/runs/${RUN}`, { token: s.account.token });
      t.match(run.body, { status: 'failed', hasLog: true });
      const log = await s.api.request<LogResult>(`/monitors/${m.monitorId}/runs/${RUN}/log`, {
        token: s.account.token,
      });
      const content = log.body.content!;
      t.ok(content.length <= 10_000, 'within the log limit');
      t.ok(content.endsWith('step 1999 of the copy'), 'its last lines');
      t.ok(content.startsWith('step '), 'from the start of a line');

      const alerts = await s.api.request<{ alerts: Alert[] }>(`/alerts?monitorId=${m.monitorId}`, {
        token: s.account.token,
      });
      const alert = alerts.body.alerts.find((a) => a.event === 'timed_out')!;
      t.match(alert.logTail, /step 1999 of the copy$/);
      const hook = await waitFor(
        () => {
          s.clock.advance(100);
          return s.hooks.map((h) => JSON.parse(h.body) as { event: string; logTail: string | null })[0];
        },
        { what: 'the timed_out webhook' },
      );
      t.equal(hook.event, 'timed_out');
      t.match(hook.logTail, /step 1998 of the copy\nstep 1999 of the copy$/, 'the webhook carries the last lines');

      const late = await s.api.ping(s.account, m.monitorId, 'fail', { runId: RUN, logOutput: 'the real log\n' });
      t.equal(late.status, 200, 'a result after the timeout is answered as before');
      const kept = await s.api.request<LogResult>(`/monitors/${m.monitorId}/runs/${RUN}/log`, {
        token: s.account.token,
      });
      t.equal(kept.body.content, content, 'and leaves the timed-out run as it was');

      const plain = await createMonitor(s, { name: 'quiet job', maxRuntime: 60 });
      await s.api.ping(s.account, plain.monitorId, 'start', { runId: 'run-quiet-0001' });
      s.clock.advance(2 * MINUTE);
      await s.api.server.app.sweeper.sweepNow();
      const quiet = await s.api.request<RunDetail>(`/monitors/${plain.monitorId}/runs/run-quiet-0001`, {
        token: s.account.token,
      });
      t.match(quiet.body, { status: 'failed', hasLog: false }, 'a run without live output has no log, as before');
    });

    t.test('the window goes with its run (deleted with its monitor, as its log)', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s);
      await s.api.ping(s.account, m.monitorId, 'start', { runId: RUN });
      await send(s, m.monitorId, { runId: RUN, offset: 0, text: 'hello\n' });
      const deleted = await s.api.request(`/monitors/${m.monitorId}`, { method: 'DELETE', token: s.account.token });
      t.equal(deleted.status, 204, deleted.text);
      const rows = await s.api.query((knex) => knex('run_outputs').count({ n: '*' }));
      t.equal(Number(rows[0]!.n), 0);
    });
  });
}
