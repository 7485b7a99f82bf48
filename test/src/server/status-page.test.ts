import t from 'tap';
import type { Test } from 'tap';
import type { StatusPage } from '@pingmon/sdk';
import { SLUG_RULE } from '@pingmon/sdk';
import { TestClock } from '../helpers/clock.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import type { DatabaseKind } from '../helpers/databases.js';
import { request } from '../helpers/http.js';
import { DocumentChecker } from '../helpers/openapi.js';
import type { OpenApiDocument } from '../helpers/openapi.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';
import { TEST_TIME } from '../helpers/test-time.js';

// The public status page and badges (docs/dashboard.md#status-page, docs/api.md#status-page): an account's admins
// choose its public monitors; anyone reads /status/<slug> and /badge/<slug>/<monitor>.svg|json, which show those
// monitors only, never a log, and error messages only when chosen.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** "Today" of the story, at noon: the page is read then. */
const T0 = Date.parse('2027-03-27T12:00:00.000Z');
const on = (daysBefore: number, hour: number) =>
  new Date(T0 - 12 * HOUR - daysBefore * DAY + hour * HOUR).toISOString();

/** What must never reach the public: a private monitor's name, any log, an error message unless chosen. */
const PRIVATE = ['Secret payroll', 'secret-payroll', 'PRIVATE-ERROR-TEXT', 'PRIVATE-LOG-TEXT', 'PUBLIC-LOG-TEXT'];

interface Setup {
  api: TestServer;
  origin: string;
  clock: TestClock;
  account: TestAccount;
  other: TestAccount;
  checker: DocumentChecker;
  ids: Record<'backup' | 'dump' | 'report' | 'secret', string>;
}

/**
 * Four monitors over six days (22 to 27 March 2027): the nightly backup succeeds, fails, succeeds, misses a run,
 * has a day without runs and succeeds today; the dump fails today; the report is paused; the payroll is private.
 */
async function setup(t: Test, kind: DatabaseKind): Promise<Setup> {
  const clock = new TestClock(Date.parse(on(5, 12)));
  const api = await TestServer.start(t, kind, { ...TEST_TIME, clock: clock.read });
  const [account, other] = [await api.account(), await api.account()];
  const create = async (body: object) => {
    const reply = await api.request('/monitors', { token: account.token, body });
    if (reply.status !== 201) throw new Error(`creating a monitor failed: ${reply.text}`);
    return reply.body.monitorId as string;
  };
  const ids = {
    backup: await create({
      name: 'Nightly backup',
      slug: 'nightly-backup',
      schedule: { every: 86400 },
      startGrace: 3600,
    }),
    dump: await create({ name: 'DB dump <&>', slug: 'db-dump' }),
    report: await create({ name: 'Weekly report', slug: 'weekly-report' }),
    secret: await create({ name: 'Secret payroll', slug: 'secret-payroll' }),
  };
  const ping = async (at: string, id: string, kind: 'success' | 'fail', body: object = {}) => {
    clock.set(at);
    const reply = await api.ping(account, id, kind, body);
    if (reply.status !== 200) throw new Error(`the ${kind} ping failed: ${reply.text}`);
  };
  const sweep = async (at: string) => {
    clock.set(at);
    await api.server.app.sweeper.sweepNow();
  };
  await ping(on(5, 13), ids.backup, 'success', { logOutput: 'PUBLIC-LOG-TEXT' });
  await ping(on(4, 13), ids.backup, 'fail', { errorMessage: 'OLD-ERROR', logOutput: 'PUBLIC-LOG-TEXT' });
  await ping(on(3, 13), ids.backup, 'success');
  // The first sweep after days without one gives the deadline a fresh grace (a gap of the server's); the next finds
  // the run of the 25th missed.
  await sweep(on(2, 15));
  await sweep(on(2, 17));
  await ping(on(1, 9), ids.report, 'success');
  await ping(on(0, 10), ids.backup, 'success');
  await ping(on(0, 11), ids.dump, 'fail', { errorMessage: 'PUBLIC-ERROR-TEXT', logOutput: 'PUBLIC-LOG-TEXT' });
  await ping(on(0, 11.5), ids.secret, 'fail', { errorMessage: 'PRIVATE-ERROR-TEXT', logOutput: 'PRIVATE-LOG-TEXT' });
  clock.set(on(0, 11.75));
  const paused = await api.request(`/monitors/${ids.report}`, {
    method: 'PATCH',
    token: account.token,
    body: { paused: true },
  });
  if (paused.status !== 200) throw new Error(`pausing failed: ${paused.text}`);
  clock.set(new Date(T0).toISOString());
  const doc = (await request<OpenApiDocument>(`${api.url}/openapi.json`)).body;
  const origin = api.url.replace(/\/api\/v1$/, '');
  return { api, origin, clock, account, other, checker: new DocumentChecker(doc), ids };
}

/** PUT /status-page, its answer checked against the OpenAPI document. */
async function put(s: Setup, body: unknown, token = s.account.token) {
  const reply = await s.api.request<StatusPage>('/status-page', { method: 'PUT', token, body });
  const problems = s.checker.problems('PUT', '/status-page', reply, body);
  if (problems.length > 0) throw new Error(`the answer is not as documented: ${problems.join('; ')}`);
  return reply;
}

const get = (s: Setup, path: string, headers: Record<string, string> = {}) =>
  request(`${s.origin}${path}`, { headers });

/** Each day bar of the monitor's list on the page, oldest first: its state and its text. */
function bars(html: string, name: string): Array<{ state: string; text: string }> {
  const list = new RegExp(`<ol class="bars" aria-label="${name}, the last 90 days">(.*?)</ol>`).exec(html)?.[1];
  if (list === undefined) throw new Error(`no bars for ${name}`);
  return [...list.matchAll(/<li class="day-(\w+)" title="([^"]*)"><span class="sr-only">([^<]*)<\/span><\/li>/g)].map(
    (m) => {
      if (m[2] !== m[3]) throw new Error(`a bar's tooltip (${m[2]}) is not its text (${m[3]})`);
      return { state: m[1]!, text: m[2]! };
    },
  );
}

for (const kind of DATABASE_KINDS) {
  t.test(`the status page and badges on ${kind}`, async (t) => {
    const s = await setup(t, kind);

    t.test('an account has no page until an admin sets one', async (t) => {
      const reply = await s.api.request<StatusPage>('/status-page', { token: s.account.token });
      t.equal(reply.status, 200);
      t.same(reply.body, {
        slug: null,
        title: null,
        showErrorMessages: false,
        path: null,
        monitors: [],
        updatedAt: null,
      });
      t.same(s.checker.problems('GET', '/status-page', reply), []);
    });

    t.test('setting the page refuses what is wrong, naming it', async (t) => {
      const bad = await put(s, { slug: 'Acme Jobs' });
      t.equal(bad.status, 400);
      t.match(bad.body, { code: 'invalid_status_page', message: new RegExp(`slug must be ${SLUG_RULE.slice(0, 20)}`) });
      const missing = await put(s, { monitorIds: [] });
      t.match(missing.body, { code: 'invalid_status_page', message: /slug/ });
      const unknown = await put(s, { slug: 'acme', monitorIds: ['nightly-backup', 'no-such-job'] });
      t.equal(unknown.status, 400);
      t.match(unknown.body, { code: 'unknown_monitor', message: /no monitor no-such-job in your account/ });
      const extra = await put(s, { slug: 'acme', public: true });
      t.match(extra.body, { code: 'invalid_status_page', message: /"public" is not a status page field/ });
      const twice = await put(s, { slug: 'acme', monitorIds: ['db-dump', 'db-dump'] });
      t.match(twice.body, { code: 'invalid_status_page', message: /each once/ });
      const reread = await s.api.request<StatusPage>('/status-page', { token: s.account.token });
      t.equal(reread.body.slug, null, 'nothing refused was kept');
    });

    t.test('an admin sets the slug, title and public monitors, by slug or id, in their order', async (t) => {
      const reply = await put(s, {
        slug: 'acme',
        title: 'Acme jobs',
        monitorIds: ['nightly-backup', s.ids.dump, 'weekly-report'],
      });
      t.equal(reply.status, 200, reply.text);
      t.match(reply.body, {
        slug: 'acme',
        title: 'Acme jobs',
        showErrorMessages: false,
        path: '/status/acme',
        updatedAt: new Date(T0).toISOString(),
      });
      t.same(
        reply.body.monitors.map((m) => [m.slug, m.svgBadgePath, m.jsonBadgePath]),
        [
          ['nightly-backup', '/badge/acme/nightly-backup.svg', '/badge/acme/nightly-backup.json'],
          ['db-dump', '/badge/acme/db-dump.svg', '/badge/acme/db-dump.json'],
          ['weekly-report', '/badge/acme/weekly-report.svg', '/badge/acme/weekly-report.json'],
        ],
      );
      const reread = await s.api.request<StatusPage>('/status-page', { token: s.account.token });
      t.same(reread.body, reply.body);
    });

    t.test("another account cannot take the slug, nor make this account's monitors public", async (t) => {
      const taken = await put(s, { slug: 'acme' }, s.other.token);
      t.equal(taken.status, 409);
      t.match(taken.body, { code: 'slug_taken', message: /acme is taken by another account\. Choose another slug/ });
      const foreign = await put(s, { slug: 'other', monitorIds: [s.ids.secret] }, s.other.token);
      t.equal(foreign.status, 400);
      t.match(foreign.body, {
        code: 'unknown_monitor',
        message: new RegExp(`no monitor ${s.ids.secret} in your account`),
      });
      const unsigned = await s.api.request('/status-page', { method: 'PUT', body: { slug: 'acme' } });
      t.equal(unsigned.status, 401);
    });

    t.test('the page shows the public monitors, their status and summary, and nothing private', async (t) => {
      const page = await get(s, '/status/acme');
      t.equal(page.status, 200);
      t.match(page.headers.get('content-type'), /^text\/html; charset=utf-8/);
      const html = page.text;
      t.match(html, /<h1>Acme jobs<\/h1>/);
      t.match(html, /<p class="summary bad">1 of 3 monitors down<\/p>/);
      t.match(html, /<h2>Nightly backup<\/h2><span class="state ok">Up<\/span>/);
      t.match(html, /<h2>DB dump &lt;&amp;&gt;<\/h2><span class="state bad">Down<\/span>/);
      t.match(html, /<h2>Weekly report<\/h2><span class="state muted">Paused<\/span>/);
      for (const text of [...PRIVATE, 'PUBLIC-ERROR-TEXT', 'OLD-ERROR', '<script'])
        t.notOk(html.includes(text), `no ${text}`);
      t.match(page.headers.get('content-security-policy'), /default-src 'none'; style-src 'sha256-/);
    });

    t.test('each public monitor has a bar per day of the last 90, from its runs and missed runs', async (t) => {
      const days = bars((await get(s, '/status/acme')).text, 'Nightly backup');
      t.equal(days.length, 90);
      t.same(
        days.slice(0, 84).map((d) => d.state),
        Array(84).fill('none'),
        'before it existed: no data',
      );
      t.equal(days[0]!.text, '28 Dec 2026: no data (before the monitor)');
      t.same(days.slice(84), [
        { state: 'ok', text: '22 Mar 2027: 1 run, no failure' },
        { state: 'failed', text: '23 Mar 2027: 1 of 1 run failed' },
        { state: 'ok', text: '24 Mar 2027: 1 run, no failure' },
        { state: 'failed', text: '25 Mar 2027: 1 missed run' },
        { state: 'none', text: '26 Mar 2027: no runs recorded' },
        { state: 'ok', text: '27 Mar 2027: 1 run, no failure' },
      ]);
      const html = (await get(s, '/status/acme')).text;
      t.match(html, /Last run 2027-03-27 10:00 UTC · 60% of days with runs had no failure/);
      t.same(
        bars(html, 'Weekly report')
          .slice(-2)
          .map((d) => d.state),
        ['ok', 'none'],
      );
    });

    t.test('error messages show only when the page is set to show them, and never a private one', async (t) => {
      t.equal((await put(s, { slug: 'acme', monitorIds: ['db-dump'], showErrorMessages: true })).status, 200);
      const html = (await get(s, '/status/acme')).text;
      t.match(html, /<p class="error">PUBLIC-ERROR-TEXT<\/p>/);
      t.match(html, /<h1>acme<\/h1>/, 'without a title, the slug heads the page');
      for (const text of [...PRIVATE, 'Nightly backup']) t.notOk(html.includes(text), `no ${text}`);
      t.equal(
        (await put(s, { slug: 'acme', title: 'Acme jobs', monitorIds: ['nightly-backup', 'db-dump', 'weekly-report'] }))
          .status,
        200,
      );
    });

    t.test('the page and badges are cached for a minute and revalidated by ETag', async (t) => {
      for (const path of ['/status/acme', '/badge/acme/nightly-backup.svg', '/badge/acme/nightly-backup.json']) {
        const first = await get(s, path);
        t.equal(first.status, 200, path);
        t.equal(first.headers.get('cache-control'), 'public, max-age=60', path);
        const etag = first.headers.get('etag');
        t.match(etag, /^"[\w-]+"$/, path);
        const again = await get(s, path, { 'if-none-match': etag! });
        t.equal(again.status, 304, `${path} unchanged: 304`);
        t.equal(again.text, '');
      }
      const before = (await get(s, '/badge/acme/nightly-backup.json')).headers.get('etag')!;
      s.clock.set(new Date(T0 + 60_000).toISOString());
      const fail = await s.api.ping(s.account, s.ids.backup, 'fail');
      t.equal(fail.status, 200);
      const after = await get(s, '/badge/acme/nightly-backup.json', { 'if-none-match': before });
      t.equal(after.status, 200, 'a change of status is a new ETag');
      t.equal(after.body.message, 'down');
      s.clock.set(new Date(T0 + 120_000).toISOString());
      t.equal((await s.api.ping(s.account, s.ids.backup, 'success')).status, 200);
    });

    t.test('badges say each public monitor is up, down or paused, as SVG and shields.io JSON', async (t) => {
      const cases = [
        ['nightly-backup', 'Nightly backup', 'up', 'brightgreen', '#4c1'],
        ['db-dump', 'DB dump <&>', 'down', 'red', '#e05d44'],
        ['weekly-report', 'Weekly report', 'paused', 'lightgrey', '#9f9f9f'],
      ] as const;
      for (const [slug, label, message, color, hex] of cases) {
        const json = await get(s, `/badge/acme/${slug}.json`);
        t.equal(json.status, 200);
        t.same(json.body, { schemaVersion: 1, label, message, color });
        t.equal(json.headers.get('access-control-allow-origin'), '*');
        const svg = await get(s, `/badge/acme/${slug}.svg`);
        t.equal(svg.status, 200);
        t.match(svg.headers.get('content-type'), /^image\/svg\+xml/);
        const escaped = label.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;');
        t.match(svg.text, new RegExp(`^<svg xmlns="http://www.w3.org/2000/svg" width="(\\d+)" height="20"`));
        t.ok(svg.text.includes(`<title>${escaped}: ${message}</title>`), `${slug}: its title`);
        t.ok(svg.text.includes(`>${message}</text>`), `${slug}: its message`);
        t.ok(svg.text.includes(`fill="${hex}"`), `${slug}: its colour`);
      }
      // Each half as wide as its text in 11 px Verdana, 5 px either side.
      const [up, paused] = [
        await get(s, '/badge/acme/nightly-backup.svg'),
        await get(s, '/badge/acme/weekly-report.svg'),
      ];
      const messageWidth = (svg: string) => Number(/<rect x="\d+" width="(\d+)"/.exec(svg)![1]);
      t.equal(messageWidth(up.text), 14 + 10, '"up": 13.8 px of text, padded');
      t.equal(messageWidth(paused.text), 40 + 10, '"paused": 39.6 px of text, padded');
    });

    t.test('an unknown page, a private monitor and an unknown one answer 404 alike, naming nothing', async (t) => {
      const page = await get(s, '/status/no-such-page');
      t.equal(page.status, 404);
      t.match(page.text, /No status page here/);
      const answers = await Promise.all(
        [
          '/badge/acme/secret-payroll',
          '/badge/acme/no-such-job',
          '/badge/nobody/nightly-backup',
          '/badge/acme/Bad%20Slug',
        ]
          .flatMap((path) => [`${path}.svg`, `${path}.json`])
          .map((path) => get(s, path)),
      );
      for (const answer of answers) {
        t.equal(answer.status, 404);
        t.same(answer.body, answers[0]!.body);
        for (const text of PRIVATE) t.notOk(answer.text.includes(text), `no ${text}`);
      }
      t.match(answers[0]!.body, { code: 'badge_not_found' });
    });

    t.test('a deleted monitor leaves the page; a page without a slug is gone', async (t) => {
      t.equal(
        (await s.api.request(`/monitors/${s.ids.report}`, { method: 'DELETE', token: s.account.token })).status,
        204,
      );
      const reply = await s.api.request<StatusPage>('/status-page', { token: s.account.token });
      t.same(
        reply.body.monitors.map((m) => m.slug),
        ['nightly-backup', 'db-dump'],
      );
      t.notOk((await get(s, '/status/acme')).text.includes('Weekly report'));
      t.equal((await get(s, '/badge/acme/weekly-report.svg')).status, 404);
      const off = await put(s, { slug: null, monitorIds: ['nightly-backup'] });
      t.equal(off.status, 200);
      t.match(off.body, { slug: null, path: null, monitors: [{ slug: 'nightly-backup', svgBadgePath: null }] });
      t.equal((await get(s, '/status/acme')).status, 404);
      t.equal((await get(s, '/badge/acme/nightly-backup.svg')).status, 404);
      const freed = await put(s, { slug: 'acme' }, s.other.token);
      t.equal(freed.status, 200, 'the slug is free for another account');
    });
  });
}
