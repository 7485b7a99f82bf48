import { createHmac } from 'node:crypto';
import t from 'tap';
import { FIXED_RULE } from '../helpers/alert-fixtures.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { deadUrl, json, startReceiver } from '../helpers/receiver.js';
import type { Received } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ZWSP = /\u200b/g;

/** The documented recipe: HMAC-SHA256 of "<t>.<raw body>" with the channel's secret, hex, compared with v1. */
function verifySignature(secret: string, header: string | undefined, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match) return false;
  return createHmac('sha256', secret).update(`${match[1]}.${body}`).digest('hex') === match[2];
}

/** A log whose every character says where it is, so that a wrong cut shows. */
function numberedLog(length: number): string {
  let log = '';
  for (let i = 0; log.length < length; i++) log += `line ${i} \`\`\` <&>\n`;
  return log.slice(0, length);
}

for (const kind of DATABASE_KINDS) {
  t.test(`alert delivery on ${kind}`, async (t) => {
    // No test here lets an attempt time out: receivers answer at once or hold their answers on purpose, for as
    // long as a loaded machine takes to send 40 pings. A short attempt timeout would race that hold.
    const api = await TestServer.start(t, kind, {
      alertPollMs: 50,
      alertRetryBaseMs: 20,
      alertTimeoutMs: 30_000,
      alertMaxAttempts: 4,
    });
    // Every test has an account of its own: an account's alerts go to all its channels.
    const bob = await api.account();
    const addChannel = async (account: TestAccount, body: object): Promise<string> => {
      const reply = await api.request('/channels', { token: account.token, body });
      if (reply.status !== 201) throw new Error(`creating a channel failed: ${reply.text}`);
      return reply.body.channelId;
    };
    const alertsOf = async (account: TestAccount, monitorId: string) =>
      (await api.request(`/alerts?monitorId=${monitorId}&limit=200`, { token: account.token })).body.alerts;
    /** Waits until every delivery of the monitor's alerts is settled (delivered or failed), and answers the alerts. */
    const settled = (account: TestAccount, monitorId: string, count: number) =>
      waitFor(
        async () => {
          const alerts = await alertsOf(account, monitorId);
          const done =
            alerts.length === count &&
            alerts.every((a: { deliveries: Array<{ state: string }> }) =>
              a.deliveries.every((d) => d.state !== 'pending'),
            );
          return done && alerts;
        },
        { what: `${count} settled alerts of ${monitorId}` },
      );

    t.test(
      'a fail ping raises one fail alert: error message, the first 500 characters of the stored log, a signed webhook',
      async (t) => {
        const alice = await api.account();
        const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
        const m = await api.monitor(alice, 'nightly backup');
        const channelId = await addChannel(alice, {
          type: 'webhook',
          url: `${receiver.url}/hook`,
          secret: 'whsec_0123456789abcdef',
          name: 'ops',
        });
        const body = {
          runId: 'run-with-a-long-log',
          errorMessage: 'backup.sh exited with code 2',
          meta: { exitCode: 2 },
          logOutput: numberedLog(12_000),
        };
        const ack = (await api.ping(alice, m, 'fail', body)).body.data;
        await waitFor(() => receiver.received.length === 1, { what: 'the webhook' });
        const stored = (await api.request(`/monitors/${m}/runs/${ack.runId}/log`, { token: alice.token })).body
          .content as string;
        t.equal(stored.length, 10_000);
        const sent = receiver.received[0]!;
        t.equal(sent.method, 'POST');
        t.equal(sent.headers['content-type'], 'application/json');
        t.match(sent.headers['user-agent'], /^pingmon\/\d+\.\d+\.\d+$/);
        t.ok(
          verifySignature('whsec_0123456789abcdef', sent.headers['x-pingmon-signature'] as string, sent.body),
          'the signature verifies',
        );
        t.notOk(
          verifySignature('another-secret-0000', sent.headers['x-pingmon-signature'] as string, sent.body),
          'and only with the secret',
        );
        const payload = JSON.parse(sent.body);
        t.same(Object.keys(payload), [
          'event',
          'alertId',
          'monitorId',
          'monitorName',
          'runId',
          'status',
          'errorMessage',
          'logSnippet',
          'logTail',
          'repeats',
          'meta',
          'matchedRules',
          'expectedAt',
          'serverGap',
          'lastRunAt',
          'lastRunStatus',
          'timestamp',
        ]);
        t.match(payload, {
          event: 'fail',
          monitorId: m,
          monitorName: 'nightly backup',
          runId: 'run-with-a-long-log',
          status: 'failed',
          errorMessage: 'backup.sh exited with code 2',
          meta: { exitCode: 2 },
          matchedRules: [],
        });
        t.equal(
          payload.logSnippet,
          stored.slice(0, 500),
          'the snippet is exactly the first 500 characters of the stored log',
        );
        // The stored log ends mid-line (cut at 10,000): the tail is its last lines, from the start of one.
        const tail = payload.logTail as string;
        t.ok(tail.length > 400 && tail.length <= 500, `the tail has ${tail.length} characters`);
        t.ok(stored.endsWith(tail), 'the tail is the end of the stored log');
        t.equal(stored[stored.length - tail.length - 1], '\n', 'and starts at the start of a line');
        t.same([payload.lastRunAt, payload.lastRunStatus], [null, null], 'no last run: that is for missed alerts');
        t.match(payload.alertId, /^alert_/);
        t.match(payload.timestamp, ISO_MS);

        const [alert] = await settled(alice, m, 1);
        t.match(alert, {
          alertId: payload.alertId,
          event: 'fail',
          monitorId: m,
          monitorName: 'nightly backup',
          runId: ack.runId,
          status: 'failed',
          errorMessage: 'backup.sh exited with code 2',
          logSnippet: payload.logSnippet,
          logTail: payload.logTail,
          createdAt: payload.timestamp,
        });
        t.equal(alert.deliveries.length, 1);
        const delivery = alert.deliveries[0];
        t.match(delivery, {
          channelId,
          channelName: 'ops',
          channelType: 'webhook',
          state: 'delivered',
          attemptCount: 1,
          nextAttemptAt: null,
          lastError: null,
        });
        t.match(delivery.deliveredAt, ISO_MS);
        t.match(delivery.attempts, [{ attempt: 1, statusCode: 200, error: null }]);
        t.match(delivery.attempts[0].at, ISO_MS);
        t.type(delivery.attempts[0].durationMs, 'number');

        const replay = await api.ping(alice, m, 'fail', body);
        t.equal(replay.status, 200);
        t.equal((await alertsOf(alice, m)).length, 1, 'a replayed ping raises no second alert');
      },
    );

    t.test('a fail alert without a log has no snippet; a start then fail raises one alert for the run', async (t) => {
      const alice = await api.account();
      const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
      const m = await api.monitor(alice);
      await addChannel(alice, { type: 'webhook', url: receiver.url });
      await api.ping(alice, m, 'start', { runId: 'paired-run-0001' });
      t.same(await alertsOf(alice, m), [], 'a start raises nothing');
      await api.ping(alice, m, 'fail', { runId: 'paired-run-0001', errorMessage: 'no log here' });
      await api.ping(alice, m, 'success', { runId: 'paired-run-0001' });
      const [alert] = await settled(alice, m, 1);
      t.match(alert, { event: 'fail', runId: 'paired-run-0001', logSnippet: null, errorMessage: 'no log here' });
      t.match(JSON.parse(receiver.received[0]!.body), { logSnippet: null, logTail: null });
      t.notOk('x-pingmon-signature' in receiver.received[0]!.headers, 'no secret, no signature');
    });

    t.test(
      'Slack and Discord get their own payloads, the snippet and the end in code blocks backticks cannot break',
      async (t) => {
        const alice = await api.account();
        const slack = await startReceiver(t, (_req, _n, res) => {
          res.writeHead(200);
          res.end('ok');
        });
        const discord = await startReceiver(t, (_req, _n, res) => {
          res.writeHead(204);
          res.end();
        });
        const m = await api.monitor(alice, 'etl `prod` <job>');
        await addChannel(alice, { type: 'slack', url: `${slack.url}/services/T/B/X` });
        await addChannel(alice, { type: 'discord', url: `${discord.url}/api/webhooks/1/abc` });
        const log = '```\nrm -rf ``` ` `` end```'.padEnd(600, '`');
        const errorMessage = `@everyone ${'e'.repeat(480)}`;
        await api.ping(alice, m, 'fail', { errorMessage, logOutput: log });
        const [alert] = await settled(alice, m, 1);
        t.same(
          alert.deliveries.map((d: { channelType: string; state: string }) => [d.channelType, d.state]),
          [
            ['slack', 'delivered'],
            ['discord', 'delivered'],
          ],
        );
        const snippet = log.slice(0, 500);
        // A last line of 596 characters: the tail is its last 500.
        const end = log.slice(-500);

        const s = JSON.parse(slack.received[0]!.body);
        t.same(Object.keys(s).sort(), ['blocks', 'text']);
        t.match(s.text, /^etl `prod` &lt;job&gt; failed: @everyone e+/);
        const sBlock = s.blocks.find((b: { text?: { text: string } }) => b.text?.text.startsWith('```')).text
          .text as string;
        t.equal(sBlock.match(/```/g)!.length, 2, 'slack: exactly the opening and closing fences');
        t.ok(sBlock.endsWith('\n```'));
        t.equal(
          sBlock.slice(4, -4).replace(ZWSP, ''),
          snippet,
          'slack: the snippet, whole, once the zero-width spaces are gone',
        );
        t.equal(slack.received[0]!.headers['content-type'], 'application/json');
        const sEnd = s.blocks.find((b: { text?: { text: string } }) => b.text?.text.startsWith('…end of the log:\n```'))
          .text.text as string;
        t.equal(sEnd.match(/```/g)!.length, 2, 'slack: the end has its own block');
        t.equal(sEnd.slice('…end of the log:\n```\n'.length, -4).replace(ZWSP, ''), end, 'slack: the end, whole');

        const d = JSON.parse(discord.received[0]!.body);
        t.same(d.allowed_mentions, { parse: [] }, 'discord: @everyone pings nobody');
        t.ok(d.content.length <= 2_000, `discord: ${d.content.length} characters`);
        t.equal(d.content.match(/```/g)!.length, 4, 'discord: the fences of two blocks');
        const [dBlock, dEnd] = [...d.content.matchAll(/```\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
        // A 480-character error message, the snippet and the end pass 2,000: the snippet gave way, the end did not.
        const shown = dBlock!.replace(ZWSP, '');
        t.ok(shown.endsWith('…') && snippet.startsWith(shown.slice(0, -1)), 'discord: the snippet, cut at its end');
        t.match(d.content, /\n```\n…end of the log:\n```\n/, 'discord: the end under the snippet, headed');
        t.equal(dEnd!.replace(ZWSP, ''), end, 'discord: the end, whole');
        t.match(d.content, /^🔴 \*\*etl \\`prod\\` <job>\*\* failed\n@everyone e+\nNew failure\.\n```/);
      },
    );

    t.test(
      'a 10,000-character log full of backticks: Discord within 2,000 characters, with the cause at its end',
      async (t) => {
        const alice = await api.account();
        const discord = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
        const slack = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
        const hook = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
        const m = await api.monitor(alice, `${'`'.repeat(100)} name`);
        await addChannel(alice, { type: 'discord', url: `${discord.url}/api/webhooks/1/abc` });
        await addChannel(alice, { type: 'slack', url: `${slack.url}/services/T/B/X` });
        await addChannel(alice, { type: 'webhook', url: hook.url });
        const cause = 'FATAL: ``` could not write block 7 ```';
        const log = `${'``` `` `\n'.repeat(1_000)}`.slice(0, 10_000 - cause.length - 1) + `\n${cause}`;
        await api.ping(alice, m, 'fail', { errorMessage: `exit code 1: ${'`'.repeat(480)}`, logOutput: log });
        await settled(alice, m, 1);
        const content = JSON.parse(discord.received[0]!.body).content as string;
        t.ok(content.length <= 2_000, `discord: ${content.length} characters`);
        // The snippet gives way first (to nothing, here): whatever is cut, every block is closed.
        const fences = content.match(/```/g)!.length;
        t.ok(fences >= 2 && fences % 2 === 0, `discord: ${fences / 2} block(s), each closed`);
        t.match(content.replace(ZWSP, ''), `${cause}\n\`\`\`\nrun `, 'discord: the cause ends the end block');
        const blocks = JSON.parse(slack.received[0]!.body).blocks as Array<{ text?: { text: string } }>;
        const end = blocks.find((b) => b.text?.text.startsWith('…end of the log:'))!.text!.text;
        t.ok(end.replace(ZWSP, '').endsWith(`${cause}\n\`\`\``), 'slack: the cause ends the end block');
        const payload = JSON.parse(hook.received[0]!.body);
        t.ok(payload.logTail.endsWith(`\n${cause}`), 'webhook: logTail ends with the cause');
        t.ok(payload.logTail.length <= 500);
        t.equal(payload.logSnippet, log.slice(0, 500), 'the snippet is still the first 500 characters');
      },
    );

    t.test('a silent failure alerts with the matched rules and no error or snippet', async (t) => {
      const alice = await api.account();
      const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
      const m = await api.monitor(alice, 'import');
      await addChannel(alice, { type: 'webhook', url: receiver.url });
      const rows = (
        await api.request(`/monitors/${m}/rules`, { token: alice.token, body: { metric: 'rows', op: 'lt', value: 1 } })
      ).body;
      const secs = (
        await api.request(`/monitors/${m}/rules`, {
          token: alice.token,
          body: { metric: 'seconds', op: 'gt', value: 60 },
        })
      ).body;
      await api.request(`/monitors/${m}/rules`, {
        token: alice.token,
        body: { metric: 'absent', op: 'neq', value: 0 },
      });
      await api.ping(alice, m, 'success', { meta: { rows: 5, seconds: 1 } });
      const runId = (await api.ping(alice, m, 'success', { meta: { rows: 0, seconds: 90 } })).body.data.runId;
      const [alert] = await settled(alice, m, 1);
      const matchedRules = [
        { ruleId: rows.ruleId, metric: 'rows', op: 'lt', value: 1, actual: 0, ...FIXED_RULE },
        { ruleId: secs.ruleId, metric: 'seconds', op: 'gt', value: 60, actual: 90, ...FIXED_RULE },
      ];
      t.match(alert, {
        event: 'silent_failure',
        runId,
        status: 'success',
        errorMessage: null,
        logSnippet: null,
        meta: { rows: 0, seconds: 90 },
      });
      t.same(alert.matchedRules, matchedRules);
      t.equal(receiver.received.length, 1, 'only the matching success alerted');
      t.match(JSON.parse(receiver.received[0]!.body), {
        event: 'silent_failure',
        runId,
        status: 'success',
        matchedRules,
        logSnippet: null,
        errorMessage: null,
      });
      await api.ping(alice, m, 'success', { runId, meta: { rows: 0 } });
      t.equal((await alertsOf(alice, m)).length, 1, 'a replay raises no second alert');
    });

    t.test('5xx is retried with backoff until it succeeds, every attempt recorded', async (t) => {
      const alice = await api.account();
      const receiver = await startReceiver(t, (_req, n, res) =>
        n <= 2 ? json(res, 503, { error: 'try later' }) : json(res, 200, {}),
      );
      const m = await api.monitor(alice);
      await addChannel(alice, { type: 'slack', url: receiver.url });
      await api.ping(alice, m, 'fail', { errorMessage: 'x' });
      const [alert] = await settled(alice, m, 1);
      const delivery = alert.deliveries[0];
      t.match(delivery, { state: 'delivered', attemptCount: 3 });
      t.match(delivery.attempts, [
        { attempt: 1, statusCode: 503, error: 'HTTP 503: {"error":"try later"}' },
        { attempt: 2, statusCode: 503, error: 'HTTP 503: {"error":"try later"}' },
        { attempt: 3, statusCode: 200, error: null },
      ]);
      t.equal(receiver.received.length, 3);
      t.same(new Set(receiver.received.map((r) => r.body)).size, 1, 'the same message each time');
    });

    t.test('429 is retried after the Retry-After it gives, not sooner', async (t) => {
      const alice = await api.account();
      const times: number[] = [];
      const receiver = await startReceiver(t, (_req, n, res) => {
        times.push(Date.now());
        if (n === 1) json(res, 429, { message: 'slow down' }, { 'retry-after': '1' });
        else json(res, 200, {});
      });
      const m = await api.monitor(alice);
      await addChannel(alice, { type: 'discord', url: receiver.url });
      await api.ping(alice, m, 'fail', { errorMessage: 'x' });
      const [alert] = await settled(alice, m, 1);
      t.match(alert.deliveries[0], { state: 'delivered', attemptCount: 2 });
      t.match(alert.deliveries[0].attempts, [{ statusCode: 429 }, { statusCode: 200 }]);
      t.ok(
        times[1]! - times[0]! >= 990,
        `the retry waited ${times[1]! - times[0]!} ms (backoff alone would be ~20 ms)`,
      );
    });

    t.test('another 4xx is a permanent failure: one attempt, no retry', async (t) => {
      const alice = await api.account();
      const receiver = await startReceiver(t, (_req, _n, res) => json(res, 404, { error: 'no such webhook' }));
      const m = await api.monitor(alice);
      await addChannel(alice, { type: 'webhook', url: receiver.url });
      await api.ping(alice, m, 'fail', { errorMessage: 'x' });
      const [alert] = await settled(alice, m, 1);
      t.match(alert.deliveries[0], {
        state: 'failed',
        attemptCount: 1,
        deliveredAt: null,
        nextAttemptAt: null,
        lastError: 'HTTP 404: {"error":"no such webhook"}',
      });
      t.equal(alert.deliveries[0].attempts.length, 1);
      t.equal(receiver.received.length, 1, 'failed is final: nothing can claim it again');
    });

    t.test('a channel disabled before its retry is due gets no retry: the delivery ends as failed', async (t) => {
      const alice = await api.account();
      // The 503 is held until the channel is disabled: disabling it after the answer would race the retry.
      let answer: (() => void) | undefined;
      const receiver = await startReceiver(t, (_req, _n, res) => {
        answer = () => json(res, 503, {}, { 'retry-after': '1' });
      });
      const m = await api.monitor(alice);
      const ch = await addChannel(alice, { type: 'webhook', url: receiver.url });
      await api.ping(alice, m, 'fail', { errorMessage: 'x' });
      await waitFor(() => answer, { what: 'the first attempt in flight' });
      await api.request(`/channels/${ch}`, { method: 'PATCH', token: alice.token, body: { enabled: false } });
      answer!();
      await waitFor(async () => (await alertsOf(alice, m))[0]?.deliveries[0]?.attempts.length === 1, {
        what: 'the first attempt recorded',
      });
      const [alert] = await settled(alice, m, 1);
      t.match(alert.deliveries[0], {
        state: 'failed',
        attemptCount: 1,
        lastError: 'the channel was disabled before this alert could be delivered',
      });
      t.equal(alert.deliveries[0].attempts.length, 1);
      t.equal(receiver.received.length, 1, 'nothing was sent after the channel was disabled');
    });

    t.test('network errors are retried up to the maximum number of attempts', async (t) => {
      const alice = await api.account();
      const m = await api.monitor(alice);
      await addChannel(alice, { type: 'webhook', url: await deadUrl() });
      await api.ping(alice, m, 'fail', { errorMessage: 'x' });
      const [alert] = await settled(alice, m, 1);
      const delivery = alert.deliveries[0];
      t.match(delivery, { state: 'failed', attemptCount: 4, lastError: /ECONNREFUSED/ });
      t.same(
        delivery.attempts.map((a: { attempt: number; statusCode: null }) => [a.attempt, a.statusCode]),
        [
          [1, null],
          [2, null],
          [3, null],
          [4, null],
        ],
      );
      // Each wait is at least its backoff (20 ms doubled per attempt, less 20%), and a loaded machine only
      // lengthens it: comparing two measured waits would race that noise. The third, ≥ 64 ms, is longer than
      // any first backoff (≤ 24 ms) could be.
      const at = delivery.attempts.map((a: { at: string }) => Date.parse(a.at));
      t.ok(at[3] - at[2] >= 64, `the waits grow: ${at[1] - at[0]} ms, then ${at[3] - at[2]} ms`);
    });

    t.test('more alerts at once than attempts in flight: all delivered once, pings answered meanwhile', async (t) => {
      const alice = await api.account();
      const counts = new Map<string, number>();
      // Answers are held until every ping is answered: the worker's slots are all busy while pings nudge it.
      const held: Array<() => void> = [];
      let holding = true;
      const receiver = await startReceiver(t, (req, _n, res) => {
        const { alertId } = JSON.parse(req.body) as { alertId: string };
        counts.set(alertId, (counts.get(alertId) ?? 0) + 1);
        if (holding) held.push(() => json(res, 200, {}));
        else json(res, 200, {});
      });
      const m = await api.monitor(alice);
      await addChannel(alice, { type: 'webhook', url: receiver.url });
      const first = await api.ping(alice, m, 'fail', { errorMessage: 'failure 0' });
      t.equal(first.status, 200);
      await waitFor(() => held.length === 1, { what: 'the first attempt in flight' });
      const pings = await Promise.all(
        Array.from({ length: 39 }, (_, i) => api.ping(alice, m, 'fail', { errorMessage: `failure ${i + 1}` })),
      );
      t.same([...new Set(pings.map((p) => p.status))], [200]);
      await waitFor(() => held.length >= 10, { what: 'every slot busy' });
      t.equal(
        (await api.ping(alice, m, 'fail', { errorMessage: 'one more nudge' })).status,
        200,
        'pings are answered while every slot is busy',
      );
      t.equal((await api.request('/health')).status, 200);
      t.equal(held.length, 10, 'never more attempts in flight than the worker has slots');
      holding = false;
      for (const answer of held) answer();
      await settled(alice, m, 41);
      t.equal(counts.size, 41);
      t.same([...new Set(counts.values())], [1], 'each alert sent once');
    });

    t.test('alerts go to the enabled channels that take the monitor, and only to them', async (t) => {
      const owner = await api.account();
      const seen: Record<string, Received[]> = {};
      const receiverFor = async (name: string) => {
        const r = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
        seen[name] = r.received;
        return r.url;
      };
      const m1 = await api.monitor(owner, 'one');
      const m2 = await api.monitor(owner, 'two');
      const all = await addChannel(owner, { type: 'webhook', url: await receiverFor('all'), name: 'all' });
      const only1 = await addChannel(owner, {
        type: 'webhook',
        url: await receiverFor('only1'),
        monitorIds: [m1],
        name: 'only1',
      });
      await addChannel(owner, {
        type: 'webhook',
        url: await receiverFor('disabled'),
        enabled: false,
        name: 'disabled',
      });
      const bobs = await addChannel(bob, { type: 'webhook', url: await receiverFor('bob'), name: 'bob' });
      await api.ping(owner, m1, 'fail', { errorMessage: 'one failed' });
      await api.ping(owner, m2, 'fail', { errorMessage: 'two failed' });
      const [a1] = await settled(owner, m1, 1);
      const [a2] = await settled(owner, m2, 1);
      t.same(
        a1.deliveries.map((d: { channelId: string }) => d.channelId),
        [all, only1],
      );
      t.same(
        a2.deliveries.map((d: { channelId: string }) => d.channelId),
        [all],
      );
      t.same(seen.all!.map((r) => JSON.parse(r.body).errorMessage).sort(), ['one failed', 'two failed']);
      t.same(
        seen.only1!.map((r) => JSON.parse(r.body).errorMessage),
        ['one failed'],
      );
      t.same(seen.disabled, [], 'a disabled channel gets nothing');
      t.same(seen.bob, [], "another account's channel gets nothing");
      t.ok(bobs);
    });

    t.test(
      'GET /alerts: newest first, page by page, filtered by monitor, and each account sees only its own',
      async (t) => {
        const owner = await api.account();
        const m1 = await api.monitor(owner, 'one');
        const m2 = await api.monitor(owner, 'two');
        const runs: string[] = [];
        for (let i = 0; i < 5; i++)
          runs.push((await api.ping(owner, i % 2 ? m2 : m1, 'fail', { errorMessage: `failure ${i}` })).body.data.runId);
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const page: { status: number; body: { alerts: Array<{ runId: string }>; nextCursor: string | null } } =
            await api.request(`/alerts?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: owner.token });
          t.equal(page.status, 200);
          t.ok(page.body.alerts.length <= 2);
          seen.push(...page.body.alerts.map((a: { runId: string }) => a.runId));
          cursor = page.body.nextCursor;
        } while (cursor);
        t.same(seen, [...runs].reverse());
        const first = (await api.request(`/alerts?monitorId=${m2}`, { token: owner.token })).body;
        t.same(
          first.alerts.map((a: { runId: string }) => a.runId),
          [runs[3], runs[1]],
        );
        t.same(first.alerts[0].deliveries, [], 'no channel: an alert with no deliveries');
        t.same(
          (await api.request('/alerts', { token: bob.token })).body.alerts.filter(
            (a: { monitorId: string }) => a.monitorId === m1,
          ),
          [],
        );
        const foreign = await api.request(`/alerts?monitorId=${m1}`, { token: bob.token });
        t.equal(foreign.status, 404);
        t.equal(foreign.body.code, 'monitor_not_found');
        t.equal((await api.request('/alerts?limit=0', { token: owner.token })).body.code, 'invalid_request');
        t.equal((await api.request('/alerts?cursor=nope', { token: owner.token })).body.code, 'invalid_cursor');
        t.equal((await api.request('/alerts', { apiKey: owner.apiKey })).body.code, 'user_token_required');
      },
    );

    t.test('deleting a monitor or a channel takes its alerts or deliveries with it', async (t) => {
      const alice = await api.account();
      const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
      const m = await api.monitor(alice);
      const ch = await addChannel(alice, { type: 'webhook', url: receiver.url });
      await api.ping(alice, m, 'fail', { errorMessage: 'x' });
      await settled(alice, m, 1);
      await api.request(`/channels/${ch}`, { method: 'DELETE', token: alice.token });
      const [alert] = await alertsOf(alice, m);
      t.same(alert.deliveries, [], "the channel's deliveries went with it");
      await api.request(`/monitors/${m}`, { method: 'DELETE', token: alice.token });
      t.equal(
        await api.query((knex) =>
          knex('alerts')
            .where({ monitor_id: m })
            .count({ n: '*' })
            .first()
            .then((r) => Number(r!.n)),
        ),
        0,
      );
    });
  });
}

/** Resolves once the server refuses connections: its stop is past the point of accepting requests. */
async function waitForClosedListener(api: TestServer): Promise<void> {
  await waitFor(
    () =>
      fetch(`${api.url}/health`).then(
        () => false,
        () => true,
      ),
    { what: 'the listener closed' },
  );
}

for (const kind of DATABASE_KINDS) {
  t.test(
    `stopping a server on ${kind} lets its attempts in flight finish and records them: nothing is sent twice`,
    async (t) => {
      const api = await TestServer.start(t, kind, { alertPollMs: 50, alertRetryBaseMs: 20, alertTimeoutMs: 30_000 });
      const alice = await api.account();
      let answer: (() => void) | undefined;
      const held = await startReceiver(t, (_req, _n, res) => {
        answer = () => json(res, 200, {});
      });
      const m = await api.monitor(alice);
      await api.request('/channels', { token: alice.token, body: { type: 'webhook', url: held.url } });
      await api.ping(alice, m, 'fail', { errorMessage: 'x' });
      await waitFor(() => answer, { what: 'the attempt in flight' });
      t.equal(api.server.app.deliveries.busy, 1);

      let stopped = false;
      const stopping = api.server.stop().then(() => (stopped = true));
      await waitForClosedListener(api);
      t.notOk(stopped, 'the stop waits for the attempt');
      answer!();
      await stopping;
      t.equal(held.received.length, 1, 'the receiver got the alert once');
      const row = await api.query((knex) => knex('alert_deliveries').first());
      t.match(row, { state: 'delivered', claimed_until: null, claim_token: null });
      t.equal(Number(row.attempts), 1);
    },
  );

  t.test(
    `on ${kind}, a stop that abandons its attempts in flight gives them back, for the next server to make at once`,
    async (t) => {
      const api = await TestServer.start(t, kind, { alertPollMs: 50, alertRetryBaseMs: 20, alertTimeoutMs: 30_000 });
      const alice = await api.account();
      const held = await startReceiver(t, (_req, n, res) => {
        if (n > 1) json(res, 200, {});
      });
      const m = await api.monitor(alice);
      await api.request('/channels', { token: alice.token, body: { type: 'webhook', url: held.url } });
      await api.ping(alice, m, 'fail', { errorMessage: 'x' });
      await waitFor(() => held.received.length === 1, { what: 'the attempt in flight' });
      const stopping = api.server.stop();
      await waitForClosedListener(api);
      api.server.app.deliveries.abandon();
      await stopping;
      const row = await api.query((knex) => knex('alert_deliveries').first());
      t.match(row, { state: 'pending', claimed_until: null, claim_token: null });
      t.equal(Number(row.attempts), 0, 'the abandoned attempt is not counted');

      const { createServer } = await import('@pingmon/server');
      const next = await createServer(api.config);
      await next.start();
      t.teardown(() => next.stop());
      await waitFor(() => held.received.length === 2, {
        what: 'the attempt made again by the next server, without waiting for a lease to run out',
      });
      const delivered = await waitFor(
        async () => {
          const r = await api.query((knex) => knex('alert_deliveries').first());
          return r.state === 'delivered' && r;
        },
        { what: 'the delivery recorded' },
      );
      t.equal(Number(delivered.attempts), 1);
    },
  );
}

for (const kind of DATABASE_KINDS) {
  t.test(
    `on ${kind}, each retry a server schedules is made when due, not only the earliest, ` +
      'even with no poll to fall back on',
    async (t) => {
      // An hour between polls: only the worker's own schedule can bring the retries.
      const api = await TestServer.start(t, kind, {
        alertPollMs: 3_600_000,
        alertRetryBaseMs: 20,
        alertTimeoutMs: 2_000,
      });
      const alice = await api.account();
      const soon = await startReceiver(t, (_req, n, res) => json(res, n === 1 ? 500 : 200, {}));
      const later = await startReceiver(t, (_req, n, res) =>
        n === 1 ? json(res, 429, {}, { 'retry-after': '1' }) : json(res, 200, {}),
      );
      const m = await api.monitor(alice);
      for (const receiver of [soon, later])
        await api.request('/channels', { token: alice.token, body: { type: 'webhook', url: receiver.url } });
      await api.ping(alice, m, 'fail', { errorMessage: 'x' });
      await waitFor(() => soon.received.length === 2, { what: 'the retry after the backoff (~20 ms)' });
      await waitFor(() => later.received.length === 2, {
        what: 'the retry after Retry-After (1 s)',
        timeoutMs: 10_000,
      });
      t.pass('both retries made');
    },
  );
}
