import t from 'tap';
import { createClient } from '@pingmon/sdk';
import type { ChannelKindInfo } from '@pingmon/sdk';
import { CHANNEL_TYPES, kindOf } from '@pingmon/server/internal';
import { request } from '../helpers/http.js';
import { DocumentChecker } from '../helpers/openapi.js';
import type { OpenApiDocument } from '../helpers/openapi.js';
import { TestServer } from '../helpers/server.js';

// GET /channel-kinds: what each kind of channel needs, read from the kinds themselves. The route reads nothing from
// the database but the caller's credentials, so SQLite alone.

/** A URL and a secret each kind with examples takes (a URL left out where the kind has its vendor's). */
const GIVEN: Record<string, { url?: string; secret?: string }> = {
  telegram: { secret: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw' },
  template: { url: 'http://127.0.0.1:9/hook' },
  alertmanager: { url: 'http://127.0.0.1:9' },
  pushover: { secret: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi' },
  matrix: { url: 'http://127.0.0.1:9', secret: 'syt_bot_token_0123' },
};

t.test('the channel kinds', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const alice = await api.account();
  const client = createClient({ baseUrl: api.url, token: alice.token, maxRetries: 0 });
  const { kinds } = await client.listChannelKinds();
  const byType = new Map<string, ChannelKindInfo>(kinds.map((kind) => [kind.type, kind]));

  t.test('every kind, in order, as the kind itself says', async (t) => {
    t.same(
      kinds.map((kind) => kind.type),
      CHANNEL_TYPES,
    );
    for (const kind of kinds) {
      const own = kindOf(kind.type);
      t.equal(kind.label, own.label, kind.type);
      t.same(kind.url, { default: own.url.default ?? null, describe: own.url.describe }, `${kind.type} url`);
      t.same(kind.secret, { need: own.secret.need, describe: own.secret.describe ?? null }, `${kind.type} secret`);
      const keys = Object.keys((own.options?.describe() as { keys?: object } | undefined)?.keys ?? {});
      t.same(
        kind.options.map((option) => option.name),
        keys,
        `${kind.type} options`,
      );
      for (const option of kind.options) {
        t.match(option.describe, /^\S.{15,}/, `${kind.type} ${option.name} says what to give`);
        if (option.required) t.not(option.example, undefined, `${kind.type} ${option.name} has an example`);
      }
    }
  });

  t.test('options as a form needs them: type, required, values, default, length, example', async (t) => {
    t.match(byType.get('telegram'), {
      label: 'Telegram',
      url: { default: 'https://api.telegram.org' },
      secret: { need: 'required' },
      options: [{ name: 'chatId', type: 'string', required: true, values: null, example: '-1001234567890' }],
      repeatEvery: null,
      incidents: false,
    });
    t.match(byType.get('telegram')?.options[0]?.describe, /getUpdates/);
    const template = byType.get('template')!;
    t.same(
      template.options.map(({ name, type, required, values, maxLength }) => ({
        name,
        type,
        required,
        values,
        maxLength,
      })),
      [
        { name: 'body', type: 'string', required: true, values: null, maxLength: 16_384 },
        { name: 'contentType', type: 'string', required: false, values: ['json', 'form', 'text'], maxLength: null },
        { name: 'method', type: 'string', required: false, values: ['POST', 'PUT'], maxLength: null },
        { name: 'headers', type: 'object', required: false, values: null, maxLength: null },
      ],
    );
    t.equal(template.options[1]?.default, 'json');
    t.equal(template.options[0]?.default, undefined, 'no default where the kind has none');
    t.match(byType.get('pushover')?.options, [{ name: 'userKey' }, { name: 'priority', type: 'integer' }]);
    t.match(byType.get('pagerduty'), { url: { default: 'https://events.pagerduty.com/v2/enqueue' }, incidents: true });
    t.match(byType.get('alertmanager'), { repeatEvery: 60, incidents: true, secret: { need: 'optional' } });
    t.match(byType.get('slack'), { url: { default: null }, secret: { need: 'none', describe: null }, options: [] });
  });

  t.test('a channel made of the examples is accepted', async (t) => {
    for (const [type, given] of Object.entries(GIVEN)) {
      const kind = byType.get(type)!;
      const options = Object.fromEntries(
        kind.options.filter((option) => option.example !== undefined).map((option) => [option.name, option.example]),
      );
      t.not(Object.keys(options).length, 0, `${type} gives examples`);
      const reply = await api.request('/channels', { token: alice.token, body: { type, ...given, options } });
      t.equal(reply.status, 201, reply.status === 201 ? type : `${type}: ${reply.text}`);
    }
  });

  t.test('answered as documented; a user token needed, as for GET /channels', async (t) => {
    const checker = new DocumentChecker((await request(`${api.url}/openapi.json`)).body as OpenApiDocument);
    const reply = await api.request('/channel-kinds', { token: alice.token });
    t.equal(reply.status, 200);
    t.same(checker.problems('GET', '/channel-kinds', reply), []);
    const anonymous = await api.request('/channel-kinds');
    t.equal(anonymous.status, 401);
    t.equal(anonymous.body.code, 'missing_token');
    t.same(checker.problems('GET', '/channel-kinds', anonymous), []);
    const withKey = await api.request('/channel-kinds', { apiKey: alice.apiKey });
    const channelsWithKey = await api.request('/channels', { apiKey: alice.apiKey });
    t.equal(withKey.status, channelsWithKey.status, 'a ping key: as GET /channels answers it');
    t.equal(withKey.body.code, channelsWithKey.body.code);
  });

  t.test("an empty url goes back to the vendor's API; refused where the kind has none", async (t) => {
    const body = {
      type: 'pagerduty',
      url: 'https://events.eu.pagerduty.com/v2/enqueue',
      secret: 'R0123456789abcdef0123456789abcde',
    };
    const created = await request(`${api.url}/channels`, { token: alice.token, body });
    t.equal(created.status, 201, created.text);
    t.equal(created.body.url, 'https://events.eu.pagerduty.com/…');
    const path = `${api.url}/channels/${created.body.channelId}`;
    const reset = await request(path, { token: alice.token, method: 'PATCH', body: { url: '' } });
    t.equal(reset.status, 200, reset.text);
    t.equal(reset.body.url, 'https://events.pagerduty.com/…');
    const hook = await request(`${api.url}/channels`, {
      token: alice.token,
      body: { type: 'webhook', url: 'http://127.0.0.1:9/hook' },
    });
    const refused = await request(`${api.url}/channels/${hook.body.channelId}`, {
      token: alice.token,
      method: 'PATCH',
      body: { url: '' },
    });
    t.equal(refused.status, 400);
    t.match(refused.body.message, /^A Webhook channel needs "url": /);
  });
});
