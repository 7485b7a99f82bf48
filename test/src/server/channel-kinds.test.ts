import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import t from 'tap';
import type { Alert, AlertDelivery, ChannelType } from '@pingmon/sdk';
import { createServer } from '@pingmon/server';
import { CHANNEL_TYPES, kindOf } from '@pingmon/server/internal';
import { HOSTILE } from '../helpers/channel-alerts.js';
import { TestClock } from '../helpers/clock.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { request } from '../helpers/http.js';
import { deadUrl, json, startReceiver } from '../helpers/receiver.js';
import type { Received } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import { TEST_TIME } from '../helpers/test-time.js';
import { waitFor } from '../helpers/wait.js';
import { checkAlertmanager } from '../helpers/vendors/alertmanager.js';
import { checkGooglechat } from '../helpers/vendors/googlechat.js';
import { checkMatrix } from '../helpers/vendors/matrix.js';
import { checkMattermost } from '../helpers/vendors/mattermost.js';
import { checkMsteams } from '../helpers/vendors/msteams.js';
import { checkNtfy } from '../helpers/vendors/ntfy.js';
import { checkOpsgenie } from '../helpers/vendors/opsgenie.js';
import { checkPagerduty } from '../helpers/vendors/pagerduty.js';
import { checkPushover } from '../helpers/vendors/pushover.js';
import { checkRocketchat } from '../helpers/vendors/rocketchat.js';
import { checkTelegram } from '../helpers/vendors/telegram.js';
import { checkTemplate } from '../helpers/vendors/template.js';

// Issue 29, point 7: every kind of channel but e-mail (its SMTP path has tests of its own), each on a local receiver
// that checks the vendor's request, told of one failure and its recovery by a real server on test time; each vendor
// first answers 429 with Retry-After, then 500, and the outbox gets every message through.

type Kind = Exclude<ChannelType, 'email'>;
/** Which message a request carries: the failure, its recovery, or a test message. */
type Message = 'fail' | 'recovered' | 'test';

interface Case {
  /** Appended to the receiver's URL: the channel's URL. */
  path: string;
  secret?: string;
  options?: Record<string, unknown>;
  /** The vendor's checker: what is wrong with a request it received. */
  check(req: Received): string[];
  /** The vendor's method, and the path and query it wants, for a message. */
  route(message: Message): [string, string | RegExp];
  /** The incident in the vendor's tool a request is about, and whether it opens or closes it. */
  incident?(req: Received): { key: string; closes: boolean };
}

const TELEGRAM_TOKEN = '7203581946:AAH3kq9vZ-x_Lp2Wm8RtYb4Nc6Df0Gj1Es5';
const WEBHOOK_SECRET = 'whsec_0123456789abcdef';
const TEMPLATE_AUTH = 'Basic dGVtcGxhdGU6c2VjcmV0LXZhbHVlLTQy';
/** Credentials of every kind, in URLs, secrets and options: none may ever be shown by the API. */
const CREDENTIALS = [
  'slackHookSecret42',
  'discordHookSecret42',
  'teamsSigSecret42',
  'chatTokenSecret42',
  'mattermostsecret42',
  'rocketSecret42',
  WEBHOOK_SECRET,
  TEMPLATE_AUTH,
  TELEGRAM_TOKEN.split(':')[1]!,
  'am-proxy-token-0123',
  'e93facc04764012d7bfb002500d5d1a6',
  'eb243592-faa2-4ba2-a551-1afdf565c889',
  'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2',
  'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
  'syt_cGluZ21vbg_bot_token_0123',
];

const body = (req: Received) => JSON.parse(req.body) as Record<string, unknown>;
const post = (path: string | RegExp): [string, string | RegExp] => ['POST', path];

const CASES: Record<Kind, Case> = {
  slack: { path: '/services/T0001/B0001/slackHookSecret42', check: checkSlack, route: () => post(/^\/services\//) },
  discord: {
    path: '/api/webhooks/1234567890/discordHookSecret42',
    check: checkDiscord,
    route: () => post('/api/webhooks/1234567890/discordHookSecret42'),
  },
  webhook: { path: '/hook', secret: WEBHOOK_SECRET, check: checkWebhook, route: () => post('/hook') },
  template: {
    path: '/rest/incidents?source=pingmon',
    secret: 'template-signing-secret',
    options: {
      method: 'PUT',
      headers: { Authorization: TEMPLATE_AUTH, 'X-Incident': '{{incidentKey}}' },
      body:
        '{"incident": {{incidentKey}}, "event": {{event}}, "summary": "[pingmon] {{headline}}", ' +
        '"details": "{{details}}\\n\\n{{logTail}}", "exitCode": {{meta.exitCode}}, "run": {{links.run}}}',
    },
    check: (req) => [
      ...checkTemplate(req),
      ...(req.headers.authorization === TEMPLATE_AUTH ? [] : ['the Authorization header is not the one given']),
      ...(req.headers['x-incident'] === body(req).incident ? [] : ['X-Incident is not the incident of the body']),
    ],
    route: () => ['PUT', '/rest/incidents?source=pingmon'],
    incident: (req) => ({ key: String(body(req).incident), closes: body(req).event === 'recovered' }),
  },
  alertmanager: {
    path: '/am',
    secret: 'am-proxy-token-0123',
    options: { labels: { team: 'data' } },
    check: (req) => [
      ...checkAlertmanager(req),
      ...(req.headers.authorization === 'Bearer am-proxy-token-0123' ? [] : ['no Authorization: Bearer <secret>']),
    ],
    route: () => post('/am/api/v2/alerts'),
    incident(req) {
      const [alert] = JSON.parse(req.body) as Array<{ labels: object; startsAt: string; endsAt: string }>;
      // Resolved: it ends when it starts (the recovery), where a firing alert ends minutes ahead.
      return { key: JSON.stringify(alert!.labels), closes: alert!.endsAt === alert!.startsAt };
    },
  },
  pagerduty: {
    path: '/v2/enqueue',
    secret: 'e93facc04764012d7bfb002500d5d1a6',
    check: checkPagerduty,
    route: () => post('/v2/enqueue'),
    incident: (req) => ({ key: String(body(req).dedup_key), closes: body(req).event_action === 'resolve' }),
  },
  opsgenie: {
    path: '',
    secret: 'eb243592-faa2-4ba2-a551-1afdf565c889',
    options: { priority: 'P2' },
    check: checkOpsgenie,
    route: (message) =>
      post(message === 'recovered' ? /^\/v2\/alerts\/[^/?]+\/close\?identifierType=alias$/ : '/v2/alerts'),
    incident(req) {
      const close = /^\/v2\/alerts\/([^/?]+)\/close/.exec(req.url);
      return close
        ? { key: decodeURIComponent(close[1]!), closes: true }
        : { key: String(body(req).alias), closes: false };
    },
  },
  msteams: {
    path: '/workflows/0f1e2d/triggers/manual/paths/invoke?api-version=2016-06-01&sig=teamsSigSecret42',
    check: checkMsteams,
    route: () => post('/workflows/0f1e2d/triggers/manual/paths/invoke?api-version=2016-06-01&sig=teamsSigSecret42'),
  },
  googlechat: {
    path: '/v1/spaces/AAAAx1y2z3/messages?key=chatKey42&token=chatTokenSecret42',
    check: checkGooglechat,
    route: () => post('/v1/spaces/AAAAx1y2z3/messages?key=chatKey42&token=chatTokenSecret42'),
  },
  mattermost: {
    path: '/hooks/mattermostsecret42',
    check: checkMattermost,
    route: () => post('/hooks/mattermostsecret42'),
  },
  rocketchat: {
    path: '/hooks/64f0c9e1/rocketSecret42',
    check: checkRocketchat,
    route: () => post('/hooks/64f0c9e1/rocketSecret42'),
  },
  telegram: {
    path: '',
    secret: TELEGRAM_TOKEN,
    options: { chatId: -1001234567890 },
    check: checkTelegram,
    route: () => post(`/bot${TELEGRAM_TOKEN}/sendMessage`),
  },
  ntfy: {
    path: '/pingmon-alerts-7f3k',
    secret: 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2',
    options: { priority: 4 },
    check: (req) => [
      ...checkNtfy(req),
      ...(body(req).topic === 'pingmon-alerts-7f3k' ? [] : ['not the topic of the channel']),
      ...(req.headers.authorization === 'Bearer tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2' ? [] : ['not the access token']),
    ],
    route: () => post('/'),
  },
  pushover: {
    path: '/1/messages.json',
    secret: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
    options: { userKey: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG', sound: 'siren' },
    check: checkPushover,
    route: () => post('/1/messages.json'),
  },
  matrix: {
    path: '',
    secret: 'syt_cGluZ21vbg_bot_token_0123',
    options: { roomId: '!ops:example.org' },
    check: (req) => [
      ...checkMatrix(req),
      ...(req.headers.authorization === 'Bearer syt_cGluZ21vbg_bot_token_0123' ? [] : ['not the access token']),
    ],
    route: () => ['PUT', /^\/_matrix\/client\/v3\/rooms\/(!|%21)ops%3Aexample\.org\/send\/m\.room\.message\/[^/?]+$/],
  },
};
const KINDS = Object.keys(CASES) as Kind[];

/** Slack's incoming webhooks: JSON with a notification text and Block Kit sections within their limits. */
function checkSlack(req: Received): string[] {
  const problems = jsonProblems(req);
  const { text, blocks } = body(req) as { text?: unknown; blocks?: Array<{ type: string; text?: { text: string } }> };
  if (typeof text !== 'string' || text === '') problems.push('no notification text');
  if (!Array.isArray(blocks) || blocks.length === 0 || blocks.length > 50) problems.push('not 1 to 50 blocks');
  for (const block of blocks ?? []) {
    if (block.type === 'section' && !(block.text && block.text.text.length <= 3_000))
      problems.push('a section over 3000 characters');
  }
  return problems;
}

/** Discord's webhooks: content of at most 2,000 characters, no mention parsed. */
function checkDiscord(req: Received): string[] {
  const problems = jsonProblems(req);
  const { content, allowed_mentions } = body(req) as { content?: unknown; allowed_mentions?: { parse?: unknown } };
  if (typeof content !== 'string' || content === '' || content.length > 2_000)
    problems.push('not 1 to 2000 characters');
  if (JSON.stringify(allowed_mentions?.parse) !== '[]') problems.push('mentions are parsed');
  return problems;
}

/** pingmon's own webhook: its payload, signed with the channel's secret as docs/api.md says. */
function checkWebhook(req: Received): string[] {
  const problems = jsonProblems(req);
  const signed = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(req.headers['x-pingmon-signature']));
  const mac = signed && createHmac('sha256', WEBHOOK_SECRET).update(`${signed[1]}.${req.body}`).digest('hex');
  if (!signed || mac !== signed[2]) problems.push('the signature does not verify');
  if (typeof body(req).event !== 'string') problems.push('no event');
  return problems;
}

function jsonProblems(req: Received): string[] {
  const problems: string[] = [];
  if (req.method !== 'POST') problems.push(`method ${req.method}`);
  if (req.headers['content-type'] !== 'application/json') problems.push('not JSON');
  if (!/^pingmon\/\S+$/.test(req.headers['user-agent'] ?? '')) problems.push('no user-agent pingmon/<version>');
  return problems;
}

/** A log with markup of every medium, long enough to be cut to its first and last 500 characters. */
const LOG = Array.from({ length: 60 }, (_, i) => `step ${i}: ${HOSTILE}`).join('\n');
/** What each vendor received, in order: the failure refused with 429 and retried, the recovery refused with 500 and
 * retried, a test message. */
const MESSAGES: Message[] = ['fail', 'fail', 'recovered', 'recovered', 'test'];

interface Vendor {
  kind: Kind;
  received: Received[];
  /** Answers to give before the default 200, in order. */
  answers: Array<(res: ServerResponse) => void>;
  channelId: string;
}

const byKind = <T>(vendors: Vendor[], value: (v: Vendor) => T) =>
  Object.fromEntries(vendors.map((v) => [v.kind, value(v)]));

for (const database of DATABASE_KINDS) {
  t.test(`every kind of channel on ${database}, on a receiver checking the vendor's API`, async (t) => {
    t.same(
      [...KINDS].sort(),
      CHANNEL_TYPES.filter((type) => type !== 'email').sort(),
      'a case for every kind the server has',
    );
    const clock = new TestClock();
    const api = await TestServer.start(t, database, {
      ...TEST_TIME,
      clock: clock.read,
      publicUrl: 'https://pingmon.example.com',
    });
    const account = await api.account();
    const monitorId = await api.monitor(account, 'nightly <backup> & *db* @here');

    const vendors: Vendor[] = [];
    for (const kind of KINDS) {
      const vendor: Vendor = { kind, received: [], answers: [], channelId: '' };
      const receiver = await startReceiver(t, (_req, _n, res) => (vendor.answers.shift() ?? ok)(res));
      vendor.received = receiver.received;
      const { path, secret, options } = CASES[kind];
      const created = await api.request('/channels', {
        token: account.token,
        body: { type: kind, name: kind, url: receiver.url + path, secret, options },
      });
      t.equal(created.status, 201, `${kind}: ${created.text}`);
      vendor.channelId = created.body.channelId;
      vendors.push(vendor);
    }
    const counts = () => byKind(vendors, (v) => v.received.length);
    const everyOne = (n: number) => Object.fromEntries(KINDS.map((kind) => [kind, n]));
    const deliveriesOf = (event: string, ready: (d: AlertDelivery) => boolean) => {
      let last: AlertDelivery[] = [];
      return waitFor(
        async () => {
          const { alerts } = (await api.request<{ alerts: Alert[] }>('/alerts', { token: account.token })).body;
          last = alerts.find((a) => a.event === event)?.deliveries ?? [];
          return last.length === KINDS.length && last.every(ready) ? last : undefined;
        },
        { what: `the ${event} alert's deliveries`, show: () => JSON.stringify(outcomes(last)) },
      );
    };
    const outcomes = (deliveries: AlertDelivery[]) =>
      Object.fromEntries(
        deliveries.map((d) => [d.channelType, [d.state, ...d.attempts.map((a) => a.statusCode)].join(' ')]),
      );

    t.test('the failure: refused with 429 and Retry-After, sent again once it has passed', async (t) => {
      for (const v of vendors)
        v.answers.push((res) => json(res, 429, { message: 'slow down' }, { 'retry-after': '120' }));
      const failedAt = clock.now;
      const ping = await api.ping(account, monitorId, 'fail', {
        errorMessage: `backup.sh exited with code 2 ${HOSTILE}`,
        logOutput: LOG,
        meta: { exitCode: 2 },
      });
      t.equal(ping.status, 200, ping.text);
      const refused = await deliveriesOf('fail', (d) => d.attempts.length === 1);
      t.same(counts(), everyOne(1), 'each vendor was asked once');
      t.same(outcomes(refused), Object.fromEntries(KINDS.map((k) => [k, 'pending 429'])));
      t.same(
        new Set(refused.map((d) => d.nextAttemptAt)),
        new Set([new Date(failedAt + 120_000).toISOString()]),
        'each retry is due when Retry-After says, on the server clock (its backoff alone: 20 ms)',
      );
      clock.advance(120_000);
      const delivered = await deliveriesOf('fail', (d) => d.attempts.length === 2);
      t.same(
        outcomes(delivered),
        Object.fromEntries(KINDS.map((k) => [k, k === 'alertmanager' ? 'pending 429 200' : 'delivered 429 200'])),
        'delivered; Alertmanager to be told again while the incident is open',
      );
      t.equal(
        delivered.find((d) => d.channelType === 'alertmanager')!.nextAttemptAt,
        new Date(failedAt + 180_000).toISOString(),
        'a minute later',
      );
      t.same(
        new Set(delivered.map((d) => d.attempts[1]!.at)),
        new Set([new Date(failedAt + 120_000).toISOString()]),
        'sent again once the 120 s had passed',
      );
      t.same(counts(), everyOne(2));
    });

    t.test('the recovery: refused with 500, retried, delivered', async (t) => {
      for (const v of vendors) v.answers.push((res) => json(res, 500, { error: 'internal' }));
      const ping = await api.ping(account, monitorId, 'success', {});
      t.equal(ping.status, 200, ping.text);
      const refused = await deliveriesOf('recovered', (d) => d.attempts.length === 1);
      t.same(outcomes(refused), Object.fromEntries(KINDS.map((k) => [k, 'pending 500'])));
      t.same(
        new Set(refused.map((d) => d.lastError)),
        new Set(['HTTP 500: {"error":"internal"}']),
        'the vendor said why',
      );
      clock.advance(1_000);
      const delivered = await deliveriesOf('recovered', (d) => d.state !== 'pending');
      t.same(outcomes(delivered), Object.fromEntries(KINDS.map((k) => [k, 'delivered 500 200'])));
      t.same(counts(), everyOne(4));
    });

    t.test('a test message, sent at once', async (t) => {
      for (const v of vendors) {
        const tested = await api.request(`/channels/${v.channelId}/test`, { method: 'POST', token: account.token });
        t.match(tested, { status: 200, body: { delivered: true, statusCode: 200, error: null } }, v.kind);
      }
      t.same(counts(), everyOne(5));
    });

    t.test("every request is the vendor's, and the recovery closes the incident the failure opened", async (t) => {
      const problems = byKind(vendors, (v) =>
        v.received.flatMap((req, i) => CASES[v.kind].check(req).map((p) => `${MESSAGES[i]} #${i + 1}: ${p}`)),
      );
      t.same(
        problems,
        byKind(vendors, () => []),
        "each vendor's checker passes every request",
      );
      const routes = byKind(vendors, (v) =>
        v.received.flatMap((req, i) => {
          const [method, path] = CASES[v.kind].route(MESSAGES[i]!);
          const fits = req.method === method && (typeof path === 'string' ? req.url === path : path.test(req.url));
          return fits ? [] : [`${MESSAGES[i]} #${i + 1}: ${req.method} ${req.url}, not ${method} ${String(path)}`];
        }),
      );
      t.same(
        routes,
        byKind(vendors, () => []),
        "each request has the vendor's method and path",
      );
      for (const v of vendors) {
        const [fail, failAgain, recovered, recoveredAgain] = v.received as [Received, Received, Received, Received];
        t.same(
          [failAgain.method, failAgain.url, recoveredAgain.method, recoveredAgain.url],
          [fail.method, fail.url, recovered.method, recovered.url],
          `${v.kind}: a retry goes where its first attempt went`,
        );
        // Alertmanager's endsAt moves on with each attempt; nothing else may.
        if (v.kind !== 'alertmanager') {
          t.equal(failAgain.body, fail.body, `${v.kind}: the retry is the same message`);
          t.equal(recoveredAgain.body, recovered.body, `${v.kind}: the recovery's retry too`);
        }
      }
      const incidents = vendors.filter((v) => CASES[v.kind].incident);
      t.same(
        incidents.map((v) => v.kind),
        ['template', 'alertmanager', 'pagerduty', 'opsgenie'],
      );
      for (const v of incidents) {
        const [fail, , recovered, , test] = v.received.map((req) => CASES[v.kind].incident!(req));
        t.same([fail!.closes, recovered!.closes, test!.closes], [false, true, false], `${v.kind}: opened, closed`);
        t.equal(recovered!.key, fail!.key, `${v.kind}: the recovery closes the incident the failure opened`);
        t.not(test!.key, fail!.key, `${v.kind}: a test message is an incident of its own`);
      }
      const matrix = vendors.find((v) => v.kind === 'matrix')!.received;
      t.equal(new Set(matrix.map((req) => req.url)).size, 3, 'Matrix: a transaction id per message, kept by retries');
    });

    t.test('no credential is ever shown: not by GET /channels, GET /alerts or a test', async (t) => {
      const shown = [
        (await api.request('/channels', { token: account.token })).text,
        (await api.request('/alerts', { token: account.token })).text,
      ].join('\n');
      t.same(
        CREDENTIALS.filter((secret) => shown.includes(secret)),
        [],
      );
    });

    t.test("an error from a kind with its token in the URL's path never shows the token", async (t) => {
      // Its own account: its channels hear of its monitor only.
      const other = await api.account();
      const echo = await startReceiver(t, (req, _n, res) => {
        // The default 404 page of many a web framework, which quotes the path it was asked for.
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end(`<pre>Cannot ${req.method} ${req.url}</pre>`);
      });
      const telegram = async (url: string) =>
        (
          await api.request('/channels', {
            token: other.token,
            body: { type: 'telegram', url, secret: TELEGRAM_TOKEN, options: { chatId: '@pingmon_ops' } },
          })
        ).body.channelId as string;
      const echoed = await telegram(echo.url);
      const closed = await telegram(await deadUrl());
      const m = await api.monitor(other);
      await api.ping(other, m, 'fail', { errorMessage: 'x' });
      const deliveries = await waitFor(
        async () => {
          const { alerts } = (await api.request<{ alerts: Alert[] }>('/alerts', { token: other.token })).body;
          const ds = alerts[0]?.deliveries ?? [];
          return ds.length === 2 && ds.every((d) => d.attempts.length >= 1) ? ds : undefined;
        },
        { what: 'an attempt of each' },
      );
      t.equal(echo.received[0]?.url, `/bot${TELEGRAM_TOKEN}/sendMessage`, 'the receiver quoted the token');
      const errorOf = (id: string) => deliveries.find((d) => d.channelId === id)!.lastError ?? '';
      t.equal(errorOf(echoed), 'HTTP 404: <pre>Cannot POST /…</pre>', 'the path it quoted is cut out');
      t.match(errorOf(closed), /ECONNREFUSED/);
      const tests = [];
      for (const id of [echoed, closed]) {
        const tested = await api.request(`/channels/${id}/test`, { method: 'POST', token: other.token });
        t.equal(tested.body.delivered, false);
        tests.push(tested.text);
      }
      t.match(tests[0], /HTTP 404/);
      const shown = {
        lastError: errorOf(echoed) + errorOf(closed),
        'GET /alerts': (await api.request('/alerts', { token: other.token })).text,
        'GET /channels': (await api.request('/channels', { token: other.token })).text,
        'POST /channels/:id/test': tests.join('\n'),
      };
      const secretPart = TELEGRAM_TOKEN.split(':')[1]!;
      for (const [where, text] of Object.entries(shown)) t.notMatch(text, secretPart, `not in ${where}`);
    });

    t.test('PINGMON_CHANNELS_PUBLIC_ONLY accepts a kind with no URL: its vendor API is public', async (t) => {
      // A second server on the same database; nothing of it is due to be sent.
      const hosted = await createServer({ ...api.config, channelsPublicOnly: true });
      await hosted.start();
      t.teardown(() => hosted.stop());
      const customer = await api.account();
      const create = (body: object) => request(`${hosted.info.uri}/api/v1/channels`, { token: customer.token, body });
      const vendorDefault = KINDS.filter((kind) => kindOf(kind).url.default !== undefined);
      t.same(vendorDefault, ['pagerduty', 'opsgenie', 'telegram', 'pushover']);
      for (const kind of vendorDefault) {
        const { secret, options } = CASES[kind];
        const created = await create({ type: kind, secret, options });
        t.equal(created.status, 201, `${kind}: ${created.text}`);
        t.equal(created.body.url, `${new URL(kindOf(kind).url.default!).origin}/…`, `${kind}: the vendor's own API`);
      }
      const local = await create({
        type: 'pagerduty',
        url: `${api.server.info.uri}/v2/enqueue`,
        secret: CASES.pagerduty.secret,
      });
      t.equal(local.status, 400, 'its URL, given as a loopback address, is refused');
    });
  });
}

function ok(res: ServerResponse): void {
  json(res, 200, {});
}
