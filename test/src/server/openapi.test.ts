import { createHash, randomBytes } from 'node:crypto';
import { createClient } from '@pingmon/sdk';
import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import type { RequestOptions } from '../helpers/http.js';
import { request } from '../helpers/http.js';
import { DocumentChecker, OPENAPI_SKELETON, strictAjv } from '../helpers/openapi.js';
import type { OpenApiDocument } from '../helpers/openapi.js';
import { signInThroughProvider } from '../helpers/oidc-flow.js';
import { providerSettings, startIdentityProvider } from '../helpers/oidc-provider.js';
import type { ProviderUser } from '../helpers/oidc-provider.js';
import { closedPort, json, startReceiver } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import { codeAt } from '../helpers/totp.js';
import { waitFor } from '../helpers/wait.js';

const PREFIX = '/api/v1';
const SESSION = { 'x-pingmon-request': '1' };

for (const kind of DATABASE_KINDS) {
  t.test(`the OpenAPI document on ${kind}`, async (t) => {
    // With an identity provider: its sign-in routes are walked too.
    const port = await closedPort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const people: Record<string, ProviderUser> = {};
    const idp = await startIdentityProvider(t, {
      redirectUri: `${publicUrl}${PREFIX}/auth/oidc/callback`,
      users: people,
    });
    const oidc = providerSettings(idp);
    const api = await TestServer.start(t, kind, { alertPollMs: 50, alertTimeoutMs: 30_000, port, publicUrl, oidc });
    const served = await request(`${api.url}/openapi.json`);
    const doc = served.body as OpenApiDocument;
    const checker = new DocumentChecker(doc);
    const apiRoutes = api.server
      .table()
      .filter((route) => route.path.startsWith(`${PREFIX}/`))
      .map((route) => ({ route, name: `${route.method.toUpperCase()} ${route.path.slice(PREFIX.length)}` }));

    t.test('GET /api/v1/openapi.json answers it without credentials, as OpenAPI 3.1', async (t) => {
      t.equal(served.status, 200);
      t.match(served.headers.get('content-type'), /^application\/json/);
      t.match(doc, { openapi: /^3\.1\./, info: { title: 'pingmon API' }, servers: [{ url: PREFIX }] });
    });

    t.test('every route under /api/v1 is in it with its method and a success response, and nothing else', async (t) => {
      t.ok(apiRoutes.length >= 30, `${apiRoutes.length} routes`);
      for (const { route, name } of apiRoutes) {
        const operation = doc.paths[route.path.slice(PREFIX.length)]?.[route.method];
        t.ok(operation, `${name} is in the document`);
        const codes = Object.keys(operation?.responses ?? {});
        t.ok(
          codes.some((code) => /^[23]\d\d$/.test(code)),
          `${name} documents its success response (${codes})`,
        );
      }
      const documented = Object.entries(doc.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      );
      t.same(documented.sort(), apiRoutes.map(({ name }) => name).sort(), 'no operation without a route');
      const operationIds = Object.values(doc.paths).flatMap((operations) =>
        Object.values(operations).map((operation) => operation.operationId),
      );
      t.same(
        operationIds.filter((id) => !/^[a-z][A-Za-z]*$/.test(id ?? '')),
        [],
        'every operation has an operationId, in camelCase',
      );
      t.equal(new Set(operationIds).size, operationIds.length, 'no operationId twice');
      // Named after the SDK client's methods: a generated client reads like the SDK.
      const client = createClient({ baseUrl: api.url });
      const sdkMethods = Object.entries(client)
        .filter(([key, value]) => typeof value === 'function' && !/^(pause|resume|snooze)Monitor$/.test(key))
        .map(([key]) => key);
      t.same(
        sdkMethods.filter((method) => !operationIds.includes(method)),
        [],
        'each SDK method (but pause, resume and snooze, which are updateMonitor) is an operationId',
      );
      t.notOk(
        documented.some((name) => /metrics|assets|\{path\*\}/.test(name)),
        'the dashboard and operator routes are not in it',
      );
    });

    t.test('it is valid OpenAPI 3.1 structure, and every schema in it compiles as JSON Schema 2020-12', async (t) => {
      const skeleton = strictAjv().compile(OPENAPI_SKELETON);
      t.ok(skeleton(doc), JSON.stringify(skeleton.errors));
      const schemes = Object.keys(doc.components.securitySchemes);
      for (const [path, operations] of Object.entries(doc.paths)) {
        const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
        for (const [method, operation] of Object.entries(operations)) {
          const name = `${method.toUpperCase()} ${path}`;
          const inPath = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
          t.same(inPath.sort(), templated, `${name} declares its path parameters`);
          for (const requirement of operation.security) {
            t.same(
              Object.keys(requirement).filter((s) => !schemes.includes(s)),
              [],
              `${name} names known schemes`,
            );
          }
          for (const [code, response] of Object.entries(operation.responses)) {
            for (const type of Object.keys(response.content ?? {})) {
              t.type(checker.schema('paths', path, method, 'responses', code, 'content', type, 'schema'), 'function');
            }
          }
          for (const type of Object.keys(operation.requestBody?.content ?? {})) {
            t.type(checker.schema('paths', path, method, 'requestBody', 'content', type, 'schema'), 'function');
          }
        }
      }
      for (const name of Object.keys(doc.components.schemas)) {
        t.type(checker.schema('components', 'schemas', name), 'function', `components.schemas.${name} compiles`);
      }
    });

    t.test('the security schemes are the credentials the server takes', async (t) => {
      t.match(doc.components.securitySchemes, {
        userToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'pingmon_session' },
        sessionHeader: { type: 'apiKey', in: 'header', name: 'x-pingmon-request' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        apiKeyBearer: { type: 'http', scheme: 'bearer' },
      });
      t.same(doc.paths['/ping/{monitorId}/start']?.post?.security, [{ apiKey: [] }, { apiKeyBearer: [] }]);
      t.same(doc.paths['/monitors']?.get?.security, [
        { userToken: [] },
        { sessionCookie: [], sessionHeader: [] },
        { apiKey: [] },
        { apiKeyBearer: [] },
      ]);
      const listing = doc.paths['/monitors']?.get as unknown as Record<string, unknown>;
      t.equal(listing['x-pingmon-access'], 'read', 'each operation says its access level');
      for (const open of ['/health', '/auth/login', '/openapi.json']) {
        const operation = Object.values(doc.paths[open] ?? {})[0];
        t.same(operation?.security, [], `${open} needs no credentials`);
      }
    });

    t.test('no response is validated at request time: the pings pay nothing for the document', async (t) => {
      for (const { route, name } of apiRoutes) t.equal(route.settings.response?.sample, 0, name);
    });

    t.test('the answers of a realistic session all match the document', async (t) => {
      const alice = await api.account();
      const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
      const call = async (method: string, path: string, options: RequestOptions = {}) => {
        const reply = await api.request(path, { method, ...options });
        t.same(checker.problems(method, path, reply, options.body), [], `${method} ${path} → ${reply.status}`);
        return reply;
      };
      const as = (options: RequestOptions = {}) => ({ token: alice.token, ...options });
      const key = { apiKey: alice.apiKey };

      t.equal((await call('GET', '/health')).status, 200);
      t.equal((await call('GET', '/openapi.json')).status, 200);
      const credentials = { email: alice.email, password: alice.password };
      t.equal((await call('POST', '/auth/login', { body: credentials })).status, 200);
      t.equal((await call('POST', '/auth/login', { body: { ...credentials, password: 'wrong' } })).status, 401);
      t.equal((await call('POST', '/auth/session', { body: credentials })).status, 403);
      t.equal((await call('POST', '/auth/session', { body: credentials, headers: SESSION })).status, 200);
      t.equal((await call('DELETE', '/auth/session', { headers: SESSION })).status, 204);
      t.same((await call('GET', '/auth/methods')).body.provider, {
        name: oidc.name,
        start: `${PREFIX}/auth/oidc/start`,
      });
      t.equal((await call('GET', '/auth/oidc/start', { redirect: 'manual' })).status, 302);
      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const cookie = { cookie: `pingmon_session=${alice.token}`, ...SESSION };
      const cliCode = await call('POST', '/auth/cli/code', { headers: cookie, body: { challenge } });
      t.equal((await call('POST', '/auth/cli/token', { body: { code: cliCode.body.code, verifier } })).status, 200);
      people.alice = { email: alice.email };
      const back = await signInThroughProvider(`${api.url}/auth/oidc/start`, 'alice');
      const callback = new URL(back.url);
      const reply = { status: back.status, headers: back.headers, body: back.body, text: back.body };
      t.same(checker.problems('GET', callback.pathname.slice(PREFIX.length), reply), [], `callback → ${back.status}`);
      t.equal((await call('GET', '/me', as())).status, 200);
      t.equal((await call('GET', '/me')).status, 401);
      t.equal((await call('GET', '/me', { apiKey: alice.apiKey })).status, 401);
      const sessions = await call('GET', '/me/sessions', as());
      const other = (sessions.body.sessions as { sessionId: string; current: boolean }[]).find((s) => !s.current);
      t.equal((await call('DELETE', `/me/sessions/${other?.sessionId}`, as())).status, 204);
      t.equal((await call('DELETE', '/me/sessions/ses_nope', as())).status, 404);
      t.equal((await call('DELETE', '/me/sessions', as())).status, 200);
      const enrolment = await call('POST', '/me/second-factor', as());
      t.equal((await call('POST', '/me/second-factor/confirm', as({ body: { code: 'nope' } }))).status, 403);
      const code = codeAt(enrolment.body.secret, Date.now());
      t.equal((await call('POST', '/me/second-factor/confirm', as({ body: { code } }))).status, 200);
      t.equal((await call('POST', '/me/second-factor/disable', as({ body: {} }))).status, 400);
      const disable = { password: alice.password };
      t.equal((await call('POST', '/me/second-factor/disable', as({ body: disable }))).status, 204);

      const nightly = { name: 'nightly', schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' }, maxRuntime: 3600 };
      const monitor = await call('POST', '/monitors', as({ body: nightly }));
      t.equal(monitor.status, 201);
      const m = monitor.body.monitorId as string;
      const hourly = await call('POST', '/monitors', as({ body: { name: 'hourly', schedule: { every: 3600 } } }));
      t.equal(hourly.status, 201);
      t.equal((await call('POST', '/monitors', as({ body: { schedule: null } }))).status, 400);
      t.equal((await call('GET', `/monitors/${m}/expected?count=3`, as())).status, 200);
      t.equal((await call('PATCH', `/monitors/${m}`, as({ body: { renotifyAfter: 600, paused: false } }))).status, 200);

      const hook = { type: 'webhook', url: `${receiver.url}/hook`, secret: 'whsec_0123456789' };
      const channel = await call('POST', '/channels', as({ body: hook }));
      t.equal(channel.status, 201);
      const ch = channel.body.channelId as string;
      t.equal((await call('PATCH', `/channels/${ch}`, as({ body: { name: 'ops', monitorIds: [m] } }))).status, 200);
      t.equal((await call('GET', '/channels', as())).status, 200);
      t.equal((await call('GET', '/channel-kinds', as())).status, 200);
      t.match((await call('POST', `/channels/${ch}/test`, as())).body, { delivered: true });
      t.equal((await call('POST', '/channels/ch_nope/test', as())).status, 404);
      const template = { type: 'template', options: { body: '{"event": "{{event}}"}' } };
      t.match((await call('POST', '/channels/preview', as({ body: template }))).body, { problem: null });

      const rule = await call('POST', `/monitors/${m}/rules`, as({ body: { metric: 'rows', op: 'lt', value: 1 } }));
      t.equal(rule.status, 201);
      t.equal((await call('GET', `/monitors/${m}/rules`, as())).status, 200);
      const preview = { metric: 'rows', op: 'lt', value: 1 };
      t.equal((await call('POST', `/monitors/${m}/rules/preview?runs=5`, as({ body: preview }))).status, 200);
      const schedule = { schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' }, startGrace: 600 };
      t.equal((await call('POST', '/schedules/preview', as({ body: schedule }))).status, 200);
      t.equal(
        (await call('POST', '/schedules/preview', as({ body: { schedule: { cron: '0 25 * * *' } } }))).status,
        400,
      );

      const runId = 'run-openapi-0001';
      t.equal((await call('POST', `/ping/${m}/start`, { ...key, body: { runId } })).status, 200);
      const chunk = { runId, offset: 0, text: 'copying…\n' };
      t.equal((await call('POST', `/ping/${m}/output`, { ...key, body: chunk })).status, 200);
      t.equal((await call('GET', `/monitors/${m}/runs/${runId}/output?after=0`, as())).status, 200);
      const silent = await call('POST', `/ping/${m}/success`, { ...key, body: { runId, meta: { rows: 0 } } });
      t.equal(silent.status, 200);
      const failed = { errorMessage: 'disk full', logOutput: 'line 1\nline 2\n', meta: { freeBytes: 0 } };
      const fail = await call('POST', `/ping/${m}/fail`, { token: alice.apiKey, body: failed });
      t.equal(fail.status, 200);
      const plain = { ...key, body: 'a log sent as text', headers: { 'content-type': 'text/plain' } };
      t.equal((await call('POST', `/ping/${m}/fail`, plain)).status, 200);
      t.equal((await call('POST', `/ping/${m}/success`, { ...key, body: { meta: { rows: 'ten' } } })).status, 400);
      t.match((await call('POST', `/ping/${m}/output`, { ...key, body: chunk })).body, { code: 'run_finished' });
      t.equal((await call('POST', '/ping/mon_nope/start', key)).status, 404);
      t.equal((await call('POST', `/ping/${m}/start`)).status, 401);
      const free = await api.account('free');
      const limited = await api.monitor(free);
      t.equal((await call('POST', `/ping/${limited}/start`, { apiKey: free.apiKey })).status, 200);
      const tooSoon = await call('POST', `/ping/${limited}/start`, { apiKey: free.apiKey });
      t.match(tooSoon, { status: 429, body: { code: 'rate_limited', retryAfter: Number } });

      t.equal((await call('GET', '/monitors?history=5', as())).status, 200);
      t.match((await call('GET', `/monitors/${m}`, as())).body, { status: 'down', incident: { cause: 'fail' } });
      t.equal((await call('GET', '/monitors/mon_nope', as())).status, 404);
      t.equal((await call('GET', `/monitors/${m}/runs?status=failed`, as())).status, 200);
      t.equal((await call('GET', `/monitors/${m}/runs?limit=0`, as())).status, 400);
      const runs = (await call('GET', `/monitors/${m}/runs?limit=1`, as())).body;
      t.type(runs.nextCursor, 'string');
      t.equal(
        (await call('GET', `/monitors/${m}/runs?limit=1&cursor=${encodeURIComponent(runs.nextCursor)}`, as())).status,
        200,
      );
      t.match((await call('GET', `/monitors/${m}/runs/${runId}`, as())).body, { silentFailure: true });
      t.match((await call('GET', `/monitors/${m}/runs/${runId}/log`, as())).body, { hasLog: false });
      const failedRun = fail.body.data.runId as string;
      t.match((await call('GET', `/monitors/${m}/runs/${failedRun}/log`, as())).body, { hasLog: true });
      t.equal((await call('GET', `/monitors/${m}/runs/run_nope`, as())).status, 404);
      t.equal((await call('GET', `/monitors/${m}/events?kind=run_failed,alert&limit=2`, as())).status, 200);

      // The alerts once delivered, so that their deliveries have attempts.
      await waitFor(
        async () => {
          const alerts = (await api.request(`/alerts?monitorId=${m}`, as())).body.alerts ?? [];
          // Every alert was raised by a ping answered above: none can come later.
          const settled = (a: { deliveries: Array<{ state: string }> }) =>
            a.deliveries.every((d) => d.state !== 'pending');
          return alerts.length > 0 && alerts.every(settled);
        },
        { what: 'the alerts of the monitor, delivered' },
      );
      const alerts = await call('GET', `/alerts?monitorId=${m}`, as());
      t.match(alerts.body.alerts, [{ deliveries: [{ state: 'delivered', attempts: [{ statusCode: 200 }] }] }]);
      t.equal((await call('GET', '/alerts?monitorId=mon_nope', as())).status, 404);

      t.equal((await call('GET', '/api-keys', as())).status, 200);
      const created = await call('POST', '/api-keys', as({ body: { name: 'ci' } }));
      t.equal(created.status, 201);
      t.equal((await call('DELETE', `/api-keys/${created.body.keyId}`, as())).status, 204);
      t.equal((await call('DELETE', '/api-keys/key_nope', as())).status, 404);

      const reader = await call('POST', '/api-keys', as({ body: { name: 'grafana', scope: 'read', monitorIds: [m] } }));
      t.equal(reader.status, 201);
      t.equal((await call('GET', '/monitors', { token: reader.body.key })).status, 200);
      t.equal((await call('POST', '/monitors', { token: reader.body.key, body: { name: 'x' } })).status, 403);
      const invite = { email: 'openapi@example.com', role: 'viewer' };
      const invited = await call('POST', '/users/invites', as({ body: invite }));
      t.equal(invited.status, 201);
      t.equal((await call('GET', '/users/invites', as())).status, 200);
      const inviteToken = (invited.body.url as string).split('#')[1];
      t.equal((await call('POST', '/auth/invites/lookup', { body: { token: inviteToken } })).status, 200);
      const acceptance = { body: { token: inviteToken, password: 'viewer password' } };
      const joined = await call('POST', '/auth/invites/accept', acceptance);
      t.equal(joined.status, 200);
      t.equal((await call('POST', '/auth/invites/accept', acceptance)).status, 410);
      t.equal((await call('GET', '/users', as())).status, 200);
      t.equal((await call('POST', '/monitors', { token: joined.body.token, body: { name: 'x' } })).status, 403);
      const viewerId = joined.body.user.userId as string;
      t.equal((await call('PATCH', `/users/${viewerId}`, as({ body: { role: 'member' } }))).status, 200);
      t.equal((await call('PATCH', `/users/${alice.userId}`, as({ body: { role: 'member' } }))).status, 409);
      t.equal((await call('DELETE', `/users/${viewerId}`, as())).status, 204);
      const pending = await call('POST', '/users/invites', as({ body: { ...invite, email: 'later@example.com' } }));
      t.equal((await call('DELETE', `/users/invites/${pending.body.inviteId}`, as())).status, 204);

      const snooze = { snoozedUntil: new Date(Date.now() + 3_600_000).toISOString() };
      t.match((await call('PATCH', `/monitors/${m}`, as({ body: snooze }))).body, snooze);
      const window = { cron: '0 2 * * 0', timezone: 'Europe/Berlin', duration: 7200, monitorIds: [m] };
      const added = await call('POST', '/maintenance-windows', as({ body: window }));
      t.equal(added.status, 201);
      t.equal((await call('POST', '/maintenance-windows', as({ body: { cron: '0 2 * * 0' } }))).status, 400);
      t.equal((await call('GET', '/maintenance-windows', as())).status, 200);
      t.equal((await call('DELETE', `/maintenance-windows/${added.body.windowId}`, as())).status, 204);
      const audit = await call('GET', '/audit?limit=50&action=monitor', as());
      t.match(audit.body.entries[0], { action: 'monitor.snoozed', changes: [{ field: 'snoozedUntil' }] });
      t.equal((await call('GET', '/status-page', as())).status, 200);
      const page = { slug: `page-${Date.now()}`, monitorIds: [m], showErrorMessages: true };
      t.match((await call('PUT', '/status-page', as({ body: page }))).body, { path: `/status/${page.slug}` });
      t.equal((await call('PUT', '/status-page', as({ body: { slug: 'Not A Slug' } }))).status, 400);

      t.equal((await call('DELETE', `/monitors/${m}/rules/${rule.body.ruleId}`, as())).status, 204);
      t.equal((await call('DELETE', `/channels/${ch}`, as())).status, 204);
      t.equal((await call('DELETE', `/monitors/${hourly.body.monitorId}`, as())).status, 204);

      const bob = await api.account();
      const change = { currentPassword: bob.password, newPassword: 'a whole new password' };
      t.equal((await call('POST', '/me/password', { token: bob.token, body: change })).status, 204);
      const again = await call('POST', '/me/password', {
        token: alice.token,
        body: { ...change, currentPassword: 'no' },
      });
      t.equal(again.status, 403);
      t.equal((await call('DELETE', '/auth/session', { token: alice.token })).status, 204);

      const unseen = apiRoutes.map(({ name }) => name).filter((name) => !checker.succeeded.has(name));
      t.same(unseen, [], 'every route was seen succeeding, and its answer checked');
    });

    t.test('the check fails a body with a field its schema lacks, or without one it requires', async (t) => {
      const monitor = checker.samples.get('GET /monitors/{monitorId} 200') as Record<string, unknown>;
      const run = checker.samples.get('GET /monitors/{monitorId}/runs/{runId} 200') as Record<string, unknown>;
      t.ok(monitor && run, 'real answers to change');
      const reply = (body: unknown) => ({ status: 200, headers: new Headers(), body, text: JSON.stringify(body) });
      const problems = (path: string, body: unknown) => checker.problems('GET', path, reply(body));
      t.same(problems('/monitors/m', monitor), [], 'the real answer passes');
      t.not(problems('/monitors/m', { ...monitor, extra: 1 }).length, 0, 'an extra field fails');
      const { status: _status, ...withoutStatus } = monitor;
      t.not(problems('/monitors/m', withoutStatus).length, 0, 'a missing field fails');
      t.not(problems('/monitors/m', { ...monitor, lastRun: { ...(monitor.lastRun as object), x: 1 } }).length, 0);
      const matched = (run.matchedRules as object[]).map((rule) => ({ ...rule, extra: true }));
      t.not(problems('/monitors/m/runs/r', { ...run, matchedRules: matched }).length, 0, 'deep inside too');
      t.not(problems('/monitors/m/runs/r', { ...run, startedAt: 'yesterday' }).length, 0, 'times are ISO 8601');
      const error = { success: false, statusCode: 404, error: 'Not Found', code: 'not_found', message: 'No.' };
      const notFound = { status: 404, headers: new Headers(), body: { ...error, hint: 1 }, text: '' };
      t.not(checker.problems('GET', '/monitors/m', notFound).length, 0, 'errors are closed too');
    });
  });
}
