import t from 'tap';
import type { Test } from 'tap';
import {
  googlechat,
  matrix,
  mattermost,
  msteams,
  ntfy,
  pushover,
  rocketchat,
  telegram,
} from '@pingmon/server/internal';
import type { HttpChannelKind } from '@pingmon/server/internal';
import type { Target } from '../../../helpers/channel-alerts.js';
import { EVENTS, requestOf } from '../../../helpers/channel-alerts.js';
import type { Json, VendorRequest } from '../../../helpers/vendors/common.js';
import { checkGooglechat } from '../../../helpers/vendors/googlechat.js';
import { checkMatrix } from '../../../helpers/vendors/matrix.js';
import { checkMattermost } from '../../../helpers/vendors/mattermost.js';
import { checkMsteams } from '../../../helpers/vendors/msteams.js';
import { checkNtfy } from '../../../helpers/vendors/ntfy.js';
import { checkPushover } from '../../../helpers/vendors/pushover.js';
import { checkRocketchat } from '../../../helpers/vendors/rocketchat.js';
import { checkTelegram } from '../../../helpers/vendors/telegram.js';

// The checkers the unit tests and the end-to-end test run requests through must find what each vendor refuses:
// a well-formed request, then one thing wrong at a time.

type Change = Partial<Omit<VendorRequest, 'body'>> & { json?: (body: Json) => Json; raw?: string };

function changed(request: VendorRequest, change: Change): VendorRequest {
  const body =
    change.raw ?? (change.json ? JSON.stringify(change.json(JSON.parse(request.body) as Json)) : request.body);
  return { ...request, ...change, headers: { ...request.headers, ...change.headers }, body };
}

function refuses(
  t: Test,
  check: (request: VendorRequest) => string[],
  request: VendorRequest,
  cases: Array<[Change, RegExp]>,
) {
  t.same(check(request), [], 'the request as pingmon sends it passes');
  for (const [change, problem] of cases) {
    const problems = check(changed(request, change));
    t.ok(
      problems.some((p) => problem.test(p)),
      `${problem.source}: ${problems.join('; ') || 'no problem found'}`,
    );
  }
}

const of = (kind: HttpChannelKind, target: Target) => requestOf(kind, target, EVENTS.fail!);
const set = (field: string, value: unknown) => (body: Json) => ({ ...body, [field]: value });
const teamsCard = (change: (card: Json) => void) => (body: Json) => {
  const card = (body.attachments as Array<{ content: Json }>)[0]!.content;
  change(card);
  return body;
};

t.test('Teams: a message of Adaptive Cards, parsed by the adaptivecards library', async (t) => {
  const request = of(msteams, { url: 'https://x.logic.azure.com/workflows/1', secret: null, options: {} });
  refuses(t, checkMsteams, request, [
    [{ method: 'GET' }, /not POST/],
    [{ raw: '{' }, /not JSON/],
    [{ headers: { 'content-type': 'text/plain' } }, /not application\/json/],
    [{ json: set('type', 'card') }, /not "message"/],
    [{ json: set('attachments', []) }, /no attachments/],
    [{ json: teamsCard((card) => (card.version = '2.0')) }, /version "2.0"/],
    [{ json: teamsCard((card) => (card.body as Json[]).push({ type: 'Carousel2' })) }, /parse: Unknown element type/],
    [
      { json: teamsCard((card) => ((card.body as Array<{ inlines: Json[] }>)[0]!.inlines[0]!.color = 'Purple')) },
      /Invalid value "Purple"/,
    ],
    [
      {
        json: teamsCard(
          (card) => (card.actions = [{ type: 'Action.OpenUrl', title: 'x', url: 'javascript:alert(1)' }]),
        ),
      },
      /no http\(s\) URL/,
    ],
    [
      { json: teamsCard((card) => (card.body as Json[]).push({ type: 'TextBlock', text: 'x'.repeat(29_000) })) },
      /bytes, over Teams' 28672/,
    ],
  ]);
});

t.test('Google Chat: a Message to a space, no unknown field, within its size', async (t) => {
  const url = 'https://chat.googleapis.com/v1/spaces/AAAA/messages?key=k&token=t';
  const request = of(googlechat, { url, secret: null, options: {} });
  refuses(t, checkGooglechat, request, [
    [{ method: 'PUT' }, /not POST/],
    [{ url: '/v1/spaces/AAAA/messages' }, /no key and token/],
    [{ url: '/hooks/x?key=k&token=t' }, /is no space's messages/],
    [{ json: set('blocks', []) }, /unknown field blocks/],
    [{ json: () => ({}) }, /neither text nor cardsV2/],
    [{ json: set('text', 'x'.repeat(4_097)) }, /over 4096/],
    [{ json: set('text', '```\nopen') }, /not closed/],
  ]);
});

t.test('Mattermost and Rocket.Chat: their webhook paths, a text within their lengths', async (t) => {
  const mm = of(mattermost, {
    url: 'https://mm.example.com/hooks/xq7bpu3shjrz8k1wd9nyf5m6ca',
    secret: null,
    options: {},
  });
  refuses(t, checkMattermost, mm, [
    [{ url: '/api/v4/posts' }, /no \/hooks\/KEY/],
    [{ json: set('text', '😀'.repeat(16_384)) }, /16384 runes, over 16383/],
    [{ json: set('text', 42) }, /text is not a string/],
    [{ json: set('attachments', {}) }, /attachments is no array/],
  ]);
  const rc = of(rocketchat, { url: 'https://rc.example.com/hooks/abc/def', secret: null, options: {} });
  refuses(t, checkRocketchat, rc, [
    [{ url: '/hooks/abc' }, /no \/hooks\/INTEGRATION\/TOKEN/],
    [{ json: set('text', 'x'.repeat(5_001)) }, /5001 characters, over 5000/],
    [{ json: set('alias', 1) }, /alias is not a string/],
  ]);
});

t.test("Telegram: sendMessage with the bot's token, a chat, and HTML it can parse", async (t) => {
  const target = { url: 'https://api.telegram.org', secret: '123:AAH-x_y', options: { chatId: -100123 } };
  refuses(t, checkTelegram, of(telegram, target), [
    [{ url: '/sendMessage' }, /no \/bot<token>\/sendMessage/],
    [{ json: set('chat_id', { id: 1 }) }, /no chat id/],
    [{ json: set('chat_id', 'channel') }, /no chat id/],
    [{ json: set('parse_mode', 'html') }, /parse_mode "html" is unknown/],
    [{ json: set('text', '<div>x</div>') }, /not allowed: <div>/],
    [{ json: set('text', '<b>x') }, /unclosed: <b>/],
    [{ json: set('text', '<b>x</i>') }, /<\/i> closes <b>/],
    [{ json: set('text', 'a < b') }, /a bare "<"/],
    [{ json: set('text', 'a &nbsp; b') }, /unknown entity &nbsp;/],
    [{ json: set('text', '<pre><b>x</b></pre>') }, /<b> inside <pre>/],
    [{ json: set('text', '<a href="x" onclick="y">x</a>') }, /attribute onclick/],
    [{ json: set('text', `<b>${'&amp;'.repeat(4_097)}</b>`) }, /4097 characters, over 4096/],
    [{ json: set('text', '<b> </b>') }, /text is empty/],
  ]);
});

t.test("ntfy: JSON to the root, a topic, priorities 1 to 5, a message within the server's limit", async (t) => {
  refuses(t, checkNtfy, of(ntfy, { url: 'https://ntfy.sh/alerts', secret: 'tk_x', options: {} }), [
    [{ url: '/alerts' }, /published to the root URL/],
    [{ json: set('topic', 'a b') }, /is no topic/],
    [{ json: set('priority', 6) }, /not 1 to 5/],
    [{ json: set('tags', 'warning') }, /tags is no array/],
    [{ json: set('message', '😀'.repeat(1_025)) }, /4100 characters, over 4096/],
    [{ json: set('click', 'ftp://x') }, /click is no http/],
    [{ headers: { authorization: 'tk_x' } }, /neither Bearer nor Basic/],
  ]);
});

t.test("Pushover: messages.json, a token and a user key, each field within Pushover's limits", async (t) => {
  const target = {
    url: 'https://api.pushover.net/1/messages.json',
    secret: 'a'.repeat(30),
    options: { userKey: 'u'.repeat(30) },
  };
  refuses(t, checkPushover, of(pushover, target), [
    [{ url: '/1/message.json' }, /not \/1\/messages\.json/],
    [{ json: set('token', 'short') }, /no application token/],
    [{ json: set('user', undefined) }, /no user or group key/],
    [{ json: set('message', 'x'.repeat(1_025)) }, /1025 characters, over 1024/],
    [{ json: set('message', '') }, /no message/],
    [{ json: set('title', 'x'.repeat(251)) }, /title has 251 characters/],
    [{ json: set('url', `https://x/${'x'.repeat(510)}`) }, /url has 520 characters/],
    [{ json: set('message', '<pre>x</pre>') }, /not allowed: <pre>/],
    [{ json: set('monospace', 1) }, /html and monospace together/],
    [{ json: set('priority', 2) }, /an emergency without retry/],
    [{ json: set('priority', 3) }, /priority 3/],
  ]);
});

t.test('Matrix: a PUT to a room id with a transaction id, a token, HTML of the recommended tags', async (t) => {
  const target = { url: 'https://matrix.example.org', secret: 'syt_x', options: { roomId: '!r:example.org' } };
  const request = of(matrix, target);
  refuses(t, checkMatrix, request, [
    [{ method: 'POST' }, /not PUT/],
    [{ url: request.url.replace('!r%3A', '%23r%3A') }, /is no room id/],
    [{ url: request.url.replace(/\/[^/]+$/, '') }, /is no \/_matrix\/client\/v3\/rooms/],
    [{ headers: { authorization: undefined } }, /no Authorization: Bearer/],
    [{ json: set('msgtype', undefined) }, /no msgtype/],
    [{ json: set('format', 'html') }, /format "html"/],
    [{ json: set('formatted_body', '<script>x</script>') }, /not allowed: <script>/],
    [{ json: set('body', 'x'.repeat(65_536)) }, /not below 65536/],
    [{ json: set('m.mentions', []) }, /m.mentions is not an object/],
  ]);
});
