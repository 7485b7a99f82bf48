import t from 'tap';
import { createClient, PingmonError } from '@pingmon/sdk';
import { CHANNEL_TYPES as SDK_CHANNEL_TYPES } from '@pingmon/sdk/wire';
import { CHANNEL_TYPES } from '@pingmon/server/internal';
import { request } from '../helpers/http.js';
import { DocumentChecker } from '../helpers/openapi.js';
import type { OpenApiDocument } from '../helpers/openapi.js';
import { TestServer } from '../helpers/server.js';

// POST /channels/preview: a template channel's requests rendered for the sample alerts, by the code that sends them.
// It reads and writes no table, so one database is enough.

const JIRA = '{"summary": "[pingmon] {{headline}}", "labels": ["{{event}}"], "exit": {{meta.exitCode}}}';

t.test('POST /channels/preview', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const alice = await api.account();
  const checker = new DocumentChecker((await request(`${api.url}/openapi.json`)).body as OpenApiDocument);
  const preview = async (body: object) => {
    const reply = await api.request('/channels/preview', { method: 'POST', token: alice.token, body });
    t.same(checker.problems('POST', '/channels/preview', reply, body), [], `${reply.status} as documented`);
    return reply;
  };

  t.test('a template renders for a sample alert of every event, as it would be sent', async (t) => {
    const options = { body: JIRA, method: 'PUT', headers: { 'X-Incident': '{{incidentKey}}' } };
    const reply = await preview({ type: 'template', url: 'https://example.com/issues', options });
    t.equal(reply.status, 200, reply.text);
    t.equal(reply.body.problem, null);
    t.same(
      reply.body.previews.map((p: { sample: string; event: string }) => `${p.sample}:${p.event}`),
      [
        'fail:fail',
        'timed_out:timed_out',
        'missed:missed',
        'missed_group:missed',
        'still_down:still_down',
        'silent_failure:silent_failure',
        'recovered:recovered',
        'test:test',
      ],
    );
    const [fail] = reply.body.previews;
    t.match(fail, {
      method: 'PUT',
      headers: { 'x-incident': 'inc_0mx9k2c1q8hz4w7e3n5', 'content-type': 'application/json' },
    });
    t.same(JSON.parse(fail.body), { summary: '[pingmon] nightly backup failed', labels: ['fail'], exit: 2 });
  });

  t.test('a template that cannot render answers its problem, as creating the channel would refuse it', async (t) => {
    const options = { body: '{"name": "{{monitor_name}}"}' };
    const reply = await preview({ type: 'template', options });
    t.equal(reply.status, 200, reply.text);
    t.match(reply.body, {
      problem:
        /^body: unknown placeholder \{\{monitor_name\}\} at line 1, column 11 \(did you mean \{\{monitorName\}\}\?\)/,
      previews: [],
    });
    const created = await api.request('/channels', {
      token: alice.token,
      body: { type: 'template', url: 'https://example.com/issues', options },
    });
    t.equal(created.status, 400);
    t.equal(created.body.message, reply.body.problem);
  });

  t.test("options the template's schema refuses, another kind, a bad url: 400 saying why", async (t) => {
    const create = (body: object) => api.request('/channels', { token: alice.token, body });
    const badHeader = { body: '{}', headers: { Host: 'x' } };
    const [noBody, header, pagerduty, badUrl, noType] = await Promise.all([
      preview({ type: 'template', options: {} }),
      preview({ type: 'template', options: badHeader }),
      preview({ type: 'pagerduty', options: { severity: 'error' } }),
      preview({ type: 'template', url: 'ftp://example.com', options: { body: '{}' } }),
      preview({ options: { body: '{}' } }),
    ]);
    t.match(noBody, { status: 400, body: { code: 'invalid_request' } });
    t.equal(noBody.body.message, "options.body: the request's body, with {{placeholders}} for the alert's fields.");
    t.equal(header.status, 400);
    const created = await create({ type: 'template', url: 'https://example.com', options: badHeader });
    t.equal(header.body.message, created.body.message, 'the message of a create');
    t.match(header.body.message, /^options\.headers: "Host" is set by the HTTP client/);
    t.equal(pagerduty.status, 400);
    t.equal(
      pagerduty.body.message,
      "Previews are for template channels, whose requests you write; a PagerDuty channel's message is pingmon's " +
        'own (docs/alerts.md#payloads): send it one with POST /channels/:channelId/test.',
    );
    t.match(badUrl, { status: 400, body: { message: '"url" must be an http:// or https:// URL.' } });
    t.match(noType, { status: 400, body: { code: 'invalid_request', message: /"type" is required/ } });
  });

  t.test("the SDK's previewChannel, and its list of channel types the server's", async (t) => {
    const client = createClient({ baseUrl: api.url, token: alice.token });
    const answer = await client.previewChannel({
      type: 'template',
      options: { body: 'x={{event}}', contentType: 'form' },
    });
    t.same(
      answer.previews.map((p) => p.body),
      ['fail', 'timed_out', 'missed', 'missed', 'still_down', 'silent_failure', 'recovered', 'test'].map(
        (e) => `x=${e}`,
      ),
    );
    const refused = await client.previewChannel({ type: 'slack', options: {} }).catch((err: unknown) => err);
    t.ok(refused instanceof PingmonError && refused.status === 400, String(refused));
    t.same([...SDK_CHANNEL_TYPES], [...CHANNEL_TYPES]);
  });

  t.test('a user token is needed', async (t) => {
    const reply = await api.request('/channels/preview', { method: 'POST', body: { type: 'template', options: {} } });
    t.equal(reply.status, 401);
  });
});
