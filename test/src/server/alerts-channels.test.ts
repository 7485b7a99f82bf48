import { createHmac } from 'node:crypto';
import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { deadUrl, json, startReceiver } from '../helpers/receiver.js';
import { createServer } from '@pingmon/server';
import { send } from '@pingmon/server/internal';
import { request } from '../helpers/http.js';
import { TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SLACK_URL = 'https://hooks.slack.com/services/T000/B000/very-secret-token';

for (const kind of DATABASE_KINDS) {
  t.test(`channels on ${kind}`, async (t) => {
    // The worker never runs on its own here: these tests are about the API and the test endpoint. The attempt
    // timeout is long: a receiver here answers at once, but a loaded machine may take over a second to get to it.
    // (The test of the timeout itself has a server of its own.)
    const api = await TestServer.start(t, kind, { alertPollMs: 60_000, alertTimeoutMs: 30_000 });
    const alice = await api.account();
    const bob = await api.account();
    const channel = (account: { token: string }, body: object) =>
      api.request('/channels', { token: account.token, body });

    t.test('POST /channels answers 201 with the channel, its URL masked and its secret hidden', async (t) => {
      const created = await channel(alice, {
        type: 'webhook',
        url: 'https://example.com/hooks/pingmon?token=abc',
        secret: 'whsec_0123456789',
        name: ' ops hook ',
      });
      t.equal(created.status, 201);
      t.same(Object.keys(created.body).sort(), [
        'channelId',
        'createdAt',
        'enabled',
        'escalateAfter',
        'hasSecret',
        'monitorIds',
        'name',
        'options',
        'repeatEvery',
        'type',
        'url',
      ]);
      t.match(created.body, {
        name: 'ops hook',
        type: 'webhook',
        url: 'https://example.com/…',
        hasSecret: true,
        monitorIds: null,
        enabled: true,
      });
      t.match(created.body.channelId, /^ch_/);
      t.match(created.body.createdAt, ISO_MS);
      t.notOk(
        created.text.includes('whsec_0123456789') ||
          created.text.includes('token=abc') ||
          created.text.includes('/hooks/'),
      );
      const slack = await channel(alice, { type: 'slack', url: SLACK_URL });
      t.match(slack.body, { name: 'slack channel', type: 'slack', url: 'https://hooks.slack.com/…', hasSecret: false });
      const list = await api.request('/channels', { token: alice.token });
      t.equal(list.status, 200);
      t.equal(list.body.nextCursor, null);
      t.same(list.body.channels.slice(0, 2), [slack.body, created.body], 'newest first, masked the same way');
      t.notOk(list.text.includes('very-secret-token') || list.text.includes('whsec_'));
    });

    t.test('channels are validated with clear 400s', async (t) => {
      const cases: Array<[object, string, RegExp]> = [
        [{ url: SLACK_URL }, 'invalid_request', /type/],
        [{ type: 'teams', url: SLACK_URL }, 'invalid_request', /type/],
        [{ type: 'slack' }, 'invalid_request', /url/],
        [{ type: 'slack', url: 'hooks.slack.com/services/x' }, 'invalid_request', /url/],
        [{ type: 'slack', url: 'ftp://example.com/x' }, 'invalid_request', /http:\/\/ or https:\/\//],
        [{ type: 'slack', url: 'javascript:alert(1)' }, 'invalid_request', /url/],
        [{ type: 'webhook', url: 'https://example.com/x', secret: 'short' }, 'invalid_request', /secret/],
        [
          { type: 'slack', url: SLACK_URL, secret: 'a-long-enough-secret' },
          'secret_not_supported',
          /cannot have a secret/,
        ],
        [
          { type: 'discord', url: SLACK_URL, secret: 'a-long-enough-secret' },
          'secret_not_supported',
          /cannot have a secret/,
        ],
        [{ type: 'slack', url: SLACK_URL, monitorIds: [] }, 'invalid_request', /at least one monitor/],
        [{ type: 'slack', url: SLACK_URL, monitorIds: 'mon_x' }, 'invalid_request', /monitorIds/],
        [{ type: 'slack', url: SLACK_URL, enabled: 'yes' }, 'invalid_request', /enabled/],
        [{ type: 'slack', url: SLACK_URL, name: '' }, 'invalid_request', /name/],
        // fetch refuses such URLs: the channel could never be sent to.
        [
          { type: 'webhook', url: 'https://user:pass@example.com/x' },
          'invalid_request',
          /"url" must not contain a user name or password/,
        ],
        [
          { type: 'webhook', url: 'https://token@example.com/x' },
          'invalid_request',
          /"url" must not contain a user name or password/,
        ],
        [{ type: 'slack', url: UNPARSABLE_URL }, 'invalid_request', UNPARSABLE],
        [{ type: 'discord', url: UNPARSABLE_URL }, 'invalid_request', UNPARSABLE],
        [{ type: 'webhook', url: UNPARSABLE_URL }, 'invalid_request', UNPARSABLE],
        [{ type: 'webhook', url: 'http://example.com:99999/x' }, 'invalid_request', UNPARSABLE],
      ];
      for (const [body, code, message] of cases) {
        const reply = await channel(alice, body);
        t.equal(reply.status, 400, JSON.stringify(body));
        t.equal(reply.body.code, code);
        t.match(reply.body.message, message);
      }
    });

    t.test('PATCH with nothing to change says what can be changed', async (t) => {
      const created = await channel(alice, { type: 'slack', url: SLACK_URL });
      const reply = await api.request(`/channels/${created.body.channelId}`, {
        method: 'PATCH',
        token: alice.token,
        body: {},
      });
      t.equal(reply.status, 400);
      t.equal(reply.body.code, 'invalid_request');
      t.equal(
        reply.body.message,
        'The body must change at least one of name, url, secret, options, repeatEvery, escalateAfter, monitorIds ' +
          'and enabled.',
      );
      const badUrl = await api.request(`/channels/${created.body.channelId}`, {
        method: 'PATCH',
        token: alice.token,
        body: { url: 'https://u:p@example.com/x' },
      });
      t.equal(badUrl.status, 400);
      t.match(badUrl.body.message, /"url" must not contain a user name or password/);
      const unparsable = await api.request(`/channels/${created.body.channelId}`, {
        method: 'PATCH',
        token: alice.token,
        body: { url: UNPARSABLE_URL },
      });
      t.match(unparsable, { status: 400, body: { code: 'invalid_request', message: UNPARSABLE } });
    });

    t.test("a restriction names only the account's own monitors", async (t) => {
      const mine = await api.monitor(alice);
      const theirs = await api.monitor(bob);
      const refused = await channel(alice, { type: 'slack', url: SLACK_URL, monitorIds: [mine, theirs, 'mon_nope'] });
      t.equal(refused.status, 400);
      t.equal(refused.body.code, 'unknown_monitor');
      t.match(refused.body.message, new RegExp(`${theirs}, mon_nope`));
      const before = (await api.request('/channels', { token: alice.token })).body.channels.length;
      const ok = await channel(alice, { type: 'slack', url: SLACK_URL, monitorIds: [mine] });
      t.same(ok.body.monitorIds, [mine]);
      t.equal(
        (await api.request('/channels', { token: alice.token })).body.channels.length,
        before + 1,
        'the refused one was not created',
      );
    });

    t.test('PATCH changes any field but the type; secrets can be set and removed', async (t) => {
      const m1 = await api.monitor(alice);
      const m2 = await api.monitor(alice);
      const id = (await channel(alice, { type: 'webhook', url: 'https://example.com/a' })).body.channelId;
      const patch = (body: unknown) => api.request(`/channels/${id}`, { method: 'PATCH', token: alice.token, body });
      const changed = await patch({
        name: 'renamed',
        url: 'http://other.example.org:8080/b',
        secret: 'a-long-enough-secret',
        monitorIds: [m2, m1],
        enabled: false,
      });
      t.equal(changed.status, 200);
      t.match(changed.body, {
        channelId: id,
        name: 'renamed',
        type: 'webhook',
        url: 'http://other.example.org:8080/…',
        hasSecret: true,
        enabled: false,
      });
      t.same(changed.body.monitorIds, [m1, m2].sort());
      const stored = await api.query((knex) => knex('channels').where({ id }).first());
      t.equal(stored.url, 'http://other.example.org:8080/b', 'the full URL is kept for delivery');
      t.equal(stored.secret, 'a-long-enough-secret');
      const cleared = await patch({ secret: null, monitorIds: null, enabled: true });
      t.match(cleared.body, { hasSecret: false, monitorIds: null, enabled: true, name: 'renamed' });
      const type = await patch({ type: 'slack' });
      t.equal(type.status, 400);
      t.match(type.body.message, /type of a channel cannot change/);
      const nothing = await patch({});
      t.equal(nothing.status, 400);
      t.equal(nothing.body.code, 'invalid_request');
      const slackId = (await channel(alice, { type: 'slack', url: SLACK_URL })).body.channelId;
      const secret = await api.request(`/channels/${slackId}`, {
        method: 'PATCH',
        token: alice.token,
        body: { secret: 'a-long-enough-secret' },
      });
      t.equal(secret.body.code, 'secret_not_supported');
      const foreign = await api.request(`/channels/${slackId}`, {
        method: 'PATCH',
        token: alice.token,
        body: { monitorIds: [await api.monitor(bob)] },
      });
      t.equal(foreign.body.code, 'unknown_monitor');
    });

    t.test('DELETE removes a channel (204), then 404 channel_not_found', async (t) => {
      const id = (await channel(alice, { type: 'discord', url: 'https://discord.com/api/webhooks/1/abc' })).body
        .channelId;
      t.equal((await api.request(`/channels/${id}`, { method: 'DELETE', token: alice.token })).status, 204);
      const again = await api.request(`/channels/${id}`, { method: 'DELETE', token: alice.token });
      t.equal(again.status, 404);
      t.equal(again.body.code, 'channel_not_found');
      t.notOk(
        (await api.request('/channels', { token: alice.token })).body.channels.some(
          (c: { channelId: string }) => c.channelId === id,
        ),
      );
    });

    t.test('a restricted channel forgets a deleted monitor and stays restricted', async (t) => {
      const m = await api.monitor(alice);
      const id = (await channel(alice, { type: 'slack', url: SLACK_URL, monitorIds: [m] })).body.channelId;
      await api.request(`/monitors/${m}`, { method: 'DELETE', token: alice.token });
      const after = (await api.request('/channels', { token: alice.token })).body.channels.find(
        (c: { channelId: string }) => c.channelId === id,
      );
      t.same(after.monitorIds, [], 'no monitor: it receives nothing, rather than everything');
    });

    t.test('POST /channels/:id/test sends a test payload now and answers how it went', async (t) => {
      const receiver = await startReceiver(t, (_req, n, res) =>
        n === 1 ? json(res, 200, { ok: true }) : json(res, 400, { error: 'invalid_payload' }),
      );
      const id = (
        await channel(alice, {
          type: 'webhook',
          url: `${receiver.url}/hook`,
          secret: 'whsec_0123456789',
          enabled: false,
        })
      ).body.channelId;
      const ok = await api.request(`/channels/${id}/test`, { method: 'POST', token: alice.token });
      t.equal(ok.status, 200);
      t.same(Object.keys(ok.body).sort(), ['delivered', 'durationMs', 'error', 'statusCode']);
      t.match(ok.body, { delivered: true, statusCode: 200, error: null });
      t.equal(receiver.received.length, 1, 'sent even though the channel is disabled');
      const sent = receiver.received[0]!;
      t.equal(sent.url, '/hook');
      const body = JSON.parse(sent.body);
      t.match(body, { event: 'test', alertId: null, monitorId: null, runId: null, logSnippet: null, matchedRules: [] });
      const [, ts, mac] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(sent.headers['x-pingmon-signature'] as string)!;
      t.equal(
        mac,
        createHmac('sha256', 'whsec_0123456789').update(`${ts}.${sent.body}`).digest('hex'),
        'signed like every webhook',
      );
      const refused = await api.request(`/channels/${id}/test`, { method: 'POST', token: alice.token });
      t.match(refused.body, { delivered: false, statusCode: 400, error: 'HTTP 400: {"error":"invalid_payload"}' });
      const nobody = (await channel(alice, { type: 'slack', url: await deadUrl() })).body.channelId;
      const down = await api.request(`/channels/${nobody}/test`, { method: 'POST', token: alice.token });
      t.match(down.body, { delivered: false, statusCode: null, error: /ECONNREFUSED/ });
      t.equal(
        await api.query((knex) =>
          knex('alerts')
            .count({ n: '*' })
            .first()
            .then((r) => Number(r!.n)),
        ),
        0,
        'a test records no alert',
      );
    });

    t.test('a channel test times out after the attempt timeout and follows no redirect', async (t) => {
      const quick = await TestServer.start(t, kind, { alertPollMs: 60_000, alertTimeoutMs: 1_000 });
      const carol = await quick.account();
      const receiver = await startReceiver(t, (req, _n, res) => {
        if (req.url === '/moved') {
          res.writeHead(301, { location: '/elsewhere' });
          res.end();
        }
        // any other path: never answered
      });
      const add = async (url: string) =>
        (await quick.request('/channels', { token: carol.token, body: { type: 'slack', url } })).body.channelId;
      const slow = await add(`${receiver.url}/slow`);
      const timedOut = await quick.request(`/channels/${slow}/test`, { method: 'POST', token: carol.token });
      t.match(timedOut.body, { delivered: false, statusCode: null, error: 'no answer within 1000 ms' });
      t.ok(timedOut.body.durationMs >= 900 && timedOut.body.durationMs < 5_000, `${timedOut.body.durationMs} ms`);
      const moved = await add(`${receiver.url}/moved`);
      const redirect = await quick.request(`/channels/${moved}/test`, { method: 'POST', token: carol.token });
      t.match(redirect.body, { delivered: false, statusCode: 301, error: /redirects are not followed/ });
      t.notOk(
        receiver.received.some((r) => r.url === '/elsewhere'),
        'the redirect was not followed',
      );
    });

    t.test(
      'channels of another account are out of reach: 404 for every channel endpoint, and absent from lists',
      async (t) => {
        const id = (await channel(alice, { type: 'slack', url: SLACK_URL })).body.channelId;
        const requests: Array<[string, string, unknown]> = [
          ['PATCH', `/channels/${id}`, { name: 'mine now' }],
          ['DELETE', `/channels/${id}`, undefined],
          ['POST', `/channels/${id}/test`, undefined],
        ];
        for (const [method, path, body] of requests) {
          const reply = await api.request(path, { method, token: bob.token, body });
          t.equal(reply.status, 404, `${method} ${path}`);
          t.equal(reply.body.code, 'channel_not_found');
        }
        t.notOk(
          (await api.request('/channels', { token: bob.token })).body.channels.some(
            (c: { channelId: string }) => c.channelId === id,
          ),
        );
        t.match(
          (await api.request('/channels', { token: alice.token })).body.channels.find(
            (c: { channelId: string }) => c.channelId === id,
          ),
          { name: 'slack channel' },
        );
        const withKey = await api.request('/channels', { apiKey: alice.apiKey });
        t.equal(withKey.body.code, 'user_token_required');
      },
    );
  });
}

const NON_PUBLIC_URLS = [
  'http://127.0.0.1:9/hook',
  'http://0x7f.1/hook',
  'http://[::1]/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://10.0.0.5/hook',
  'http://192.168.1.10/hook',
  'http://169.254.169.254/latest',
  'http://[fd00::1]/hook',
  'http://[fe80::1]/hook',
  'http://0.0.0.0/hook',
  'http://localhost:8080/hook',
  // IPv6 that carries a loopback IPv4 address: IPv4-translated, NAT64 and 6to4.
  'http://[::ffff:0:127.0.0.1]/',
  'http://[64:ff9b::127.0.0.1]/',
  'http://[2002:7f00:1::]/',
];
const NON_PUBLIC = /a private, loopback or otherwise non-public address.*PINGMON_CHANNELS_PUBLIC_ONLY/;
// The URL standard (which fetch follows) refuses it; a looser parser reads a host "localhost%00".
const UNPARSABLE_URL = 'http://localhost%00:18999/';
const UNPARSABLE = /^"url" cannot be parsed as a URL/;

t.test('a 429 without Retry-After but with the wait in its body (Telegram, Discord) waits that long', async (t) => {
  const bodies: Record<string, unknown> = {
    '/telegram': {
      ok: false,
      error_code: 429,
      description: 'Too Many Requests: retry after 35',
      parameters: { retry_after: 35 },
    },
    '/discord': { message: 'You are being rate limited.', retry_after: 1.5, global: false },
    '/header': { retry_after: 99 },
    '/nothing': { error: 'slow down' },
  };
  const receiver = await startReceiver(t, (req, _n, res) =>
    json(res, 429, bodies[req.url], req.url === '/header' ? { 'retry-after': '7' } : {}),
  );
  const waits: Record<string, number | null> = {};
  for (const path of Object.keys(bodies)) {
    const request = { method: 'POST' as const, url: `${receiver.url}${path}`, headers: {}, body: '{}' };
    waits[path] = (await send(request, { timeoutMs: 5000, publicOnly: false })).retryAfterMs;
  }
  t.same(waits, { '/telegram': 35_000, '/discord': 1_500, '/header': 7_000, '/nothing': null }, 'the header wins');
});

t.test('with the setting on, sending to an IPv6 address carrying a loopback IPv4 one fails for good', async (t) => {
  const request = { method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: '{}' };
  // No connection is tried: the address is refused before one could be (nothing here would answer it).
  for (const host of ['[::ffff:0:127.0.0.1]', '[64:ff9b::127.0.0.1]', '[2002:7f00:1::]', '[64:ff9b:1::8.8.8.8]']) {
    const result = await send({ ...request, url: `http://${host}:9/hook` }, { timeoutMs: 1000, publicOnly: true });
    t.match(result, { statusCode: null, permanent: true, retryAfterMs: null }, host);
    t.match(result.error, NON_PUBLIC, host);
  }
});

for (const kind of DATABASE_KINDS) {
  t.test(`on ${kind}, URLs to non-public addresses are refused only with PINGMON_CHANNELS_PUBLIC_ONLY`, async (t) => {
    const open = await TestServer.start(t, kind, { alertPollMs: 60_000 });
    const hosted = await TestServer.start(t, kind, { alertPollMs: 60_000, channelsPublicOnly: true });
    t.equal(open.config.channelsPublicOnly, false, 'off by default');
    const [self, customer] = [await open.account(), await hosted.account()];
    for (const url of NON_PUBLIC_URLS) {
      const allowed = await open.request('/channels', { token: self.token, body: { type: 'webhook', url } });
      t.equal(allowed.status, 201, `${url} allowed when self-hosting`);
      const refused = await hosted.request('/channels', { token: customer.token, body: { type: 'webhook', url } });
      t.equal(refused.status, 400, `${url} refused when hosted`);
      t.equal(refused.body.code, 'invalid_request');
      t.match(refused.body.message, /^"url" points to \S+, /);
      t.match(refused.body.message, NON_PUBLIC);
    }
    const slack = { type: 'slack', url: SLACK_URL };
    const created = await hosted.request('/channels', { token: customer.token, body: slack });
    t.equal(created.status, 201, 'a public URL is accepted (and not contacted)');
    const moved = await hosted.request(`/channels/${created.body.channelId}`, {
      method: 'PATCH',
      token: customer.token,
      body: { url: 'http://192.168.0.1/admin' },
    });
    t.equal(moved.status, 400, 'a change to a non-public URL is refused too');
    t.match(moved.body.message, /192\.168\.0\.1/);
    for (const type of ['slack', 'discord', 'webhook']) {
      const unparsable = await hosted.request('/channels', {
        token: customer.token,
        body: { type, url: UNPARSABLE_URL },
      });
      t.match(
        unparsable,
        { status: 400, body: { code: 'invalid_request', message: UNPARSABLE } },
        `${type} unparsable`,
      );
    }
    const garbled = await hosted.request(`/channels/${created.body.channelId}`, {
      method: 'PATCH',
      token: customer.token,
      body: { url: UNPARSABLE_URL },
    });
    t.match(garbled, { status: 400, body: { code: 'invalid_request', message: UNPARSABLE } }, 'nor changed to one');
    t.equal(
      await hosted.query((knex) =>
        knex('channels')
          .count({ n: '*' })
          .first()
          .then((r) => Number(r!.n)),
      ),
      1,
    );
  });

  t.test(`on ${kind}, with the setting on, a name resolving to loopback fails for good when sent`, async (t) => {
    // Made while the setting was off (a name is resolved only when sending); the same database then runs with it on.
    const api = await TestServer.start(t, kind, { alertPollMs: 50, alertRetryBaseMs: 20, alertMaxAttempts: 4 });
    const alice = await api.account();
    const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
    const monitorId = await api.monitor(alice);
    const body = { type: 'webhook', url: `http://localhost:${receiver.port}/hook` };
    const { channelId } = (await api.request('/channels', { token: alice.token, body })).body;
    await api.server.stop();
    const hosted = await createServer({ ...api.config, channelsPublicOnly: true });
    await hosted.start();
    t.teardown(() => hosted.stop());
    const url = `${hosted.info.uri}/api/v1`;
    t.equal((await request(`${url}/ping/${monitorId}/fail`, { method: 'POST', apiKey: alice.apiKey })).status, 200);
    const row = await waitFor(
      async () => {
        const r = await api.query((knex) => knex('alert_deliveries').first());
        return r?.state === 'failed' && r;
      },
      { what: 'the delivery failed' },
    );
    t.equal(Number(row.attempts), 1, 'a permanent failure: no retry');
    t.match(row.last_error, /^localhost is (127\.0\.0\.1|::1), /);
    t.match(row.last_error, NON_PUBLIC);
    const test = await request(`${url}/channels/${channelId}/test`, { method: 'POST', token: alice.token });
    t.match(test.body, { delivered: false, statusCode: null, error: /^localhost is (127\.0\.0\.1|::1), a private/ });
    t.equal(receiver.received.length, 0, 'nothing reached the receiver');
  });

  t.test(`on ${kind}, POST /channels/:id/test is limited per channel, in the database`, async (t) => {
    const api = await TestServer.start(t, kind, { alertPollMs: 60_000 });
    // A second server on the same database: the limit must hold across processes.
    const other = await createServer(api.config);
    await other.start();
    t.teardown(() => other.stop());
    const alice = await api.account();
    const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
    const create = async () => {
      const body = { type: 'webhook', url: receiver.url };
      return (await api.request('/channels', { token: alice.token, body })).body.channelId as string;
    };
    const [busy, quiet] = [await create(), await create()];
    const servers = [api.url, `${other.info.uri}/api/v1`];
    const test = (base: string, channelId: string) =>
      request(`${base}/channels/${channelId}/test`, { method: 'POST', token: alice.token });
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => test(servers[i % 2]!, busy)));
    const statuses = replies.map((r) => r.status).sort();
    t.same(statuses, [...Array(5).fill(200), ...Array(7).fill(429)], 'five of a burst of twelve, over two servers');
    const limited = replies.find((r) => r.status === 429)!;
    t.match(limited.body, { success: false, statusCode: 429, code: 'rate_limited' });
    t.match(limited.body.message, `Channel ${busy} has been tested 5 times within 60 seconds, the most allowed.`);
    t.match(limited.body.message, /Wait \d+ seconds? before testing it again\.$/);
    t.ok(limited.body.retryAfter >= 1 && limited.body.retryAfter <= 60, `retryAfter ${limited.body.retryAfter}`);
    t.equal(limited.headers.get('retry-after'), String(limited.body.retryAfter));
    t.equal(receiver.received.length, 5, 'only the allowed tests were sent');
    t.equal((await test(api.url, quiet)).status, 200, 'another channel has its own count');
    t.equal((await test(api.url, 'ch_nope')).status, 404, 'an unknown channel is still a 404');
  });
}
