import { createHmac } from 'node:crypto';
import t from 'tap';
import { createClient, createPinger } from '@pingmon/sdk';
import type { Alert, RuleOp, PingmonError } from '@pingmon/sdk';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { json, startReceiver } from '../helpers/receiver.js';
import { FIXED_RULE } from '../helpers/alert-fixtures.js';
import { TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as PingmonError,
  );

for (const kind of DATABASE_KINDS) {
  t.test(`the client's alert rules, channels and alerts on ${kind}`, async (t) => {
    // A failed delivery waits a minute before its retry: a test sees it pending, and nothing is sent twice meanwhile.
    // No attempt here is meant to time out: the receivers answer at once, however long a loaded machine takes.
    const api = await TestServer.start(t, kind, {
      alertPollMs: 50,
      alertRetryBaseMs: 60_000,
      alertTimeoutMs: 30_000,
      alertMaxAttempts: 3,
    });
    const alice = await api.account();
    const bob = await api.account();
    const client = createClient({ baseUrl: api.url, token: alice.token });
    const bobClient = createClient({ baseUrl: api.url, token: bob.token });

    t.test('rules: create with every operator, list in the order added, delete', async (t) => {
      const { monitorId } = await client.createMonitor({ name: 'rules' });
      t.same(await client.listRules(monitorId), { rules: [], nextCursor: null });
      const ops: RuleOp[] = ['lt', 'lte', 'gt', 'gte', 'eq', 'neq'];
      const created = [];
      for (const [i, op] of ops.entries()) {
        const rule = await client.createRule(monitorId, { metric: 'rowsProcessed', op, value: i - 0.5 });
        t.match(rule, { ruleId: /^rule_/, monitorId, metric: 'rowsProcessed', op, value: i - 0.5 });
        t.match(rule.createdAt, /Z$/);
        created.push(rule);
      }
      const listed = await client.listRules(monitorId);
      t.same(listed, { rules: created, nextCursor: null });

      await client.deleteRule(monitorId, created[2]!.ruleId);
      t.same(
        (await client.listRules(monitorId)).rules.map((r) => r.op),
        ['lt', 'lte', 'gte', 'eq', 'neq'],
      );
      t.match(await failure(client.deleteRule(monitorId, created[2]!.ruleId)), { status: 404, code: 'rule_not_found' });
      t.match(await failure(client.createRule(monitorId, { metric: 'rows', op: 'below' as RuleOp, value: 1 })), {
        status: 400,
        code: 'invalid_request',
        message: /op/,
      });
      t.match(await failure(client.listRules('mon_nope')), { status: 404, code: 'monitor_not_found' });
    });

    t.test('a rule turns a success into a silent failure, shown by listAlerts with every matched rule', async (t) => {
      const { monitorId } = await client.createMonitor({ name: 'export' });
      const low = await client.createRule(monitorId, { metric: 'rowsProcessed', op: 'lt', value: 1 });
      const zero = await client.createRule(monitorId, { metric: 'rowsProcessed', op: 'eq', value: 0 });
      await client.createRule(monitorId, { metric: 'missing', op: 'neq', value: 1 });
      const pinger = createPinger({ monitorId, apiKey: alice.apiKey, baseUrl: api.url });
      const fine = await pinger.success({ meta: { rowsProcessed: 5 } });
      const silent = await pinger.success({ meta: { rowsProcessed: 0 } });
      const run = await client.getRun(monitorId, silent.runId);
      t.match(run, { status: 'success', silentFailure: true });
      t.same(
        run.matchedRules,
        [
          { ruleId: low.ruleId, metric: 'rowsProcessed', op: 'lt', value: 1, actual: 0, ...FIXED_RULE },
          { ruleId: zero.ruleId, metric: 'rowsProcessed', op: 'eq', value: 0, actual: 0, ...FIXED_RULE },
        ],
        'a rule whose metric is missing never matches',
      );
      t.equal((await client.getRun(monitorId, fine.runId)).silentFailure, false);
      const { alerts } = await client.listAlerts({ monitorId });
      t.equal(alerts.length, 1, 'one alert for the run, listing both rules');
      t.match(alerts[0], {
        event: 'silent_failure',
        monitorId,
        monitorName: 'export',
        runId: silent.runId,
        status: 'success',
        errorMessage: null,
        logSnippet: null,
        meta: { rowsProcessed: 0 },
        deliveries: [],
      });
      t.same(alerts[0]!.matchedRules, run.matchedRules);
    });

    t.test('channels: create (URL masked), list, update, test against a real receiver, delete', async (t) => {
      const receiver = await startReceiver(t, (req, _n, res) =>
        req.url === '/busy' ? json(res, 503, { error: 'busy' }) : json(res, 200, {}),
      );
      const { monitorId } = await client.createMonitor({ name: 'for channels' });
      const hook = await client.createChannel({
        type: 'webhook',
        url: `${receiver.url}/hook/secret-path`,
        name: 'incident bot',
        secret: 'whsec_0123456789abcdef',
      });
      t.match(hook, {
        channelId: /^ch_/,
        name: 'incident bot',
        type: 'webhook',
        url: `${receiver.url}/…`,
        hasSecret: true,
        monitorIds: null,
        enabled: true,
      });
      t.notOk(
        JSON.stringify(hook).includes('secret-path') || JSON.stringify(hook).includes('whsec_'),
        'neither the full URL nor the secret comes back',
      );
      const slack = await client.createChannel({ type: 'slack', url: `${receiver.url}/busy`, monitorIds: [monitorId] });
      t.match(slack, { name: 'slack channel', type: 'slack', hasSecret: false, monitorIds: [monitorId] });
      t.same(
        (await client.listChannels()).channels.map((c) => c.channelId),
        [slack.channelId, hook.channelId],
        'newest first',
      );

      const tested = await client.testChannel(hook.channelId);
      t.match(tested, { delivered: true, statusCode: 200, error: null });
      t.type(tested.durationMs, 'number');
      const sent = receiver.received.at(-1)!;
      t.equal(sent.url, '/hook/secret-path', 'sent to the full URL');
      t.match(JSON.parse(sent.body), { event: 'test', alertId: null, runId: null });
      const [, ts, mac] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(sent.headers['x-pingmon-signature']))!;
      t.equal(mac, createHmac('sha256', 'whsec_0123456789abcdef').update(`${ts}.${sent.body}`).digest('hex'));
      const count = receiver.received.length;
      t.match(await client.testChannel(slack.channelId), {
        delivered: false,
        statusCode: 503,
        error: 'HTTP 503: {"error":"busy"}',
      });
      t.equal(receiver.received.length, count + 1, 'a refused test is not sent again by the client');

      const renamed = await client.updateChannel(slack.channelId, {
        name: 'ops slack',
        enabled: false,
        monitorIds: null,
      });
      t.match(renamed, { channelId: slack.channelId, name: 'ops slack', enabled: false, monitorIds: null });
      t.match(await client.updateChannel(hook.channelId, { secret: null }), { hasSecret: false });
      t.match(await failure(client.updateChannel(slack.channelId, { secret: 'a-long-enough-secret' })), {
        status: 400,
        code: 'secret_not_supported',
      });
      t.match(await failure(client.createChannel({ type: 'discord', url: 'ftp://example.com' })), {
        status: 400,
        code: 'invalid_request',
        message: /url/,
      });

      await client.deleteChannel(slack.channelId);
      await client.deleteChannel(hook.channelId);
      t.same((await client.listChannels()).channels, []);
      t.match(await failure(client.deleteChannel(hook.channelId)), { status: 404, code: 'channel_not_found' });
      t.match(await failure(client.testChannel(hook.channelId)), { status: 404, code: 'channel_not_found' });
    });

    t.test(
      'listAlerts: a fail alert with its deliveries, delivered, pending and failed, newest first, page by page',
      async (t) => {
        const receiver = await startReceiver(t, (req, _n, res) => {
          if (req.url === '/ok') json(res, 200, {});
          else if (req.url === '/busy') json(res, 503, { error: 'busy' });
          else json(res, 400, { error: 'bad payload' });
        });
        const { monitorId } = await client.createMonitor({ name: 'nightly backup' });
        const channels = [];
        for (const path of ['/ok', '/busy', '/bad']) {
          channels.push(
            await client.createChannel({
              type: 'webhook',
              url: receiver.url + path,
              name: path.slice(1),
              monitorIds: [monitorId],
            }),
          );
        }
        const pinger = createPinger({ monitorId, apiKey: alice.apiKey, baseUrl: api.url });
        const first = await pinger.fail({ message: 'exit code 2', log: 'x'.repeat(600) });
        const settled = (alert: Alert | undefined) =>
          alert?.deliveries.every((d) => d.attemptCount >= 1 && (d.state !== 'pending' || d.attempts.length === 1));
        const alert = await waitFor(
          async () => {
            const { alerts } = await client.listAlerts({ monitorId });
            return settled(alerts[0]) ? alerts[0] : undefined;
          },
          { what: 'an attempt on every channel' },
        );
        t.match(alert, {
          event: 'fail',
          runId: first.runId,
          status: 'failed',
          errorMessage: 'exit code 2',
          logSnippet: 'x'.repeat(500),
          matchedRules: [],
        });
        t.same(
          alert!.deliveries.map((d) => [d.channelName, d.channelType, d.state]),
          [
            ['ok', 'webhook', 'delivered'],
            ['busy', 'webhook', 'pending'],
            ['bad', 'webhook', 'failed'],
          ],
        );
        const [ok, busy, bad] = alert!.deliveries;
        t.match(ok, {
          channelId: channels[0]!.channelId,
          attemptCount: 1,
          nextAttemptAt: null,
          lastError: null,
          attempts: [{ attempt: 1, statusCode: 200, error: null }],
        });
        t.match(busy, {
          attemptCount: 1,
          deliveredAt: null,
          lastError: 'HTTP 503: {"error":"busy"}',
          attempts: [{ attempt: 1, statusCode: 503 }],
        });
        t.ok(Date.parse(busy!.nextAttemptAt!) > Date.now() + 30_000, 'the retry waits for the backoff');
        t.match(bad, {
          state: 'failed',
          attemptCount: 1,
          nextAttemptAt: null,
          lastError: 'HTTP 400: {"error":"bad payload"}',
        });

        const second = await pinger.fail({ message: 'exit code 3' });
        const third = await pinger.fail({ message: 'exit code 4' });
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listAlerts({ monitorId, limit: 2, cursor });
          t.ok(page.alerts.length <= 2);
          seen.push(...page.alerts.map((a) => a.runId!));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        t.same(seen, [third.runId, second.runId, first.runId], 'newest first, every page');
        t.ok(
          (await client.listAlerts()).alerts.some((a) => a.runId === first.runId),
          'without a monitor: every monitor of the account',
        );
        t.match(await failure(client.listAlerts({ limit: 0 })), { status: 400, code: 'invalid_request' });
      },
    );

    t.test("another account's monitors and channels answer 404, and its lists show none of them", async (t) => {
      const { monitorId } = await client.createMonitor({ name: 'private' });
      const rule = await client.createRule(monitorId, { metric: 'rows', op: 'lt', value: 1 });
      // Disabled: the alert below must not go out to discord.com.
      const channel = await client.createChannel({
        type: 'discord',
        url: 'https://discord.com/api/webhooks/1/abc',
        enabled: false,
      });
      await createPinger({ monitorId, apiKey: alice.apiKey, baseUrl: api.url }).fail({ message: 'secret failure' });
      const attempts: Array<[string, () => Promise<unknown>, string]> = [
        ['listRules', () => bobClient.listRules(monitorId), 'monitor_not_found'],
        [
          'createRule',
          () => bobClient.createRule(monitorId, { metric: 'rows', op: 'gt', value: 0 }),
          'monitor_not_found',
        ],
        ['deleteRule', () => bobClient.deleteRule(monitorId, rule.ruleId), 'monitor_not_found'],
        ['updateChannel', () => bobClient.updateChannel(channel.channelId, { enabled: true }), 'channel_not_found'],
        ['deleteChannel', () => bobClient.deleteChannel(channel.channelId), 'channel_not_found'],
        ['testChannel', () => bobClient.testChannel(channel.channelId), 'channel_not_found'],
        ['listAlerts', () => bobClient.listAlerts({ monitorId }), 'monitor_not_found'],
      ];
      for (const [name, attempt, code] of attempts)
        t.match(await failure(attempt()), { name: 'PingmonError', status: 404, code }, name);
      t.notOk((await bobClient.listChannels()).channels.some((c) => c.channelId === channel.channelId));
      t.notOk((await bobClient.listAlerts()).alerts.some((a) => a.monitorId === monitorId));
      t.same((await client.listRules(monitorId)).rules, [rule], 'nothing changed');
      t.match(
        (await client.listChannels()).channels.find((c) => c.channelId === channel.channelId),
        { enabled: false },
      );
      t.equal((await client.listAlerts({ monitorId })).alerts.length, 1);
    });

    t.test('an API key is not a user token', async (t) => {
      const keyed = createClient({ baseUrl: api.url, token: alice.apiKey });
      t.match(await failure(keyed.listChannels()), { status: 401 });
      t.match(await failure(keyed.listAlerts()), { status: 401 });
    });
  });
}
