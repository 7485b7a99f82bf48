import t from 'tap';
import { matrix } from '@pingmon/server/internal';
import type { AlertContent } from '@pingmon/server/internal';
import type { Target } from '../../../helpers/channel-alerts.js';
import {
  CONTEXT,
  EVENTS,
  HOSTILE,
  LINKS,
  brokenCharacter,
  hostileAlert,
  hugeFail,
  hugeGroup,
  requestOf,
} from '../../../helpers/channel-alerts.js';
import { shownText } from '../../../helpers/vendors/common.js';
import { checkMatrix } from '../../../helpers/vendors/matrix.js';

const TOKEN = 'syt_cGluZ21vbg_JNfSbMuTqGQoXVsdEzVH_1ALdVx';
const ROOM = '!OGEhHVWSdvArJzumhm:matrix.example.org';
const target: Target = { url: 'https://matrix.example.org', secret: TOKEN, options: { roomId: ROOM } };

interface Content {
  msgtype: string;
  body: string;
  format: string;
  formatted_body: string;
  'm.mentions': object;
}

function send(content: AlertContent, over: Partial<Target> = {}) {
  const request = requestOf(matrix, { ...target, ...over }, content);
  return { ...request, json: JSON.parse(request.body) as Content };
}

t.test('every alert is one PUT of an m.room.message to the room, its transaction id the message key', async (t) => {
  const room = '!OGEhHVWSdvArJzumhm%3Amatrix.example.org';
  const path = `/_matrix/client/v3/rooms/${room}/send/m.room.message/${CONTEXT.messageKey}`;
  for (const [name, alert] of Object.entries(EVENTS)) {
    const request = send(alert);
    t.equal(request.method, 'PUT', name);
    t.equal(request.url, `https://matrix.example.org${path}`);
    t.match(request.headers, {
      'content-type': 'application/json',
      'user-agent': /^pingmon\/\d+\.\d+\.\d+$/,
      authorization: `Bearer ${TOKEN}`,
    });
    t.same(checkMatrix(request), [], `${name}: a homeserver would take it`);
    t.match(request.json, { msgtype: 'm.text', format: 'org.matrix.custom.html' });
    t.same(request.json['m.mentions'], {}, 'it mentions nobody, whatever its text says');
  }
  const other = send(EVENTS.fail!, {
    url: 'https://example.org/matrix/',
    options: { roomId: ROOM, msgtype: 'm.notice' },
  });
  t.equal(other.url, `https://example.org/matrix${path}`, 'a homeserver under a path keeps it');
  t.equal(other.json.msgtype, 'm.notice');
});

t.test('what each alert says: a plain body, and HTML with the log in <pre><code>', async (t) => {
  const fail = send(EVENTS.fail!).json;
  t.match(fail.formatted_body, /^<p>🔴 <b>nightly backup<\/b> failed<br>exit code 2: tar: Exiting with failure status/);
  t.match(
    fail.formatted_body,
    '<pre><code>=== nightly backup 2.4.1 on db1 ===\n+ pg_dump --format=custom shop &gt; /backup',
  );
  t.match(fail.formatted_body, '<p>…end of the log:</p><pre><code>pg_dump: dumping contents of table "public.t24"');
  t.match(
    fail.formatted_body,
    `<p><a href="${LINKS.run}">Open the run</a> · <a href="${LINKS.monitor}">Open the monitor`,
  );
  t.match(
    fail.body,
    /^🔴 nightly backup failed\nexit code 2: tar: Exiting[^]*\n```\n=== nightly backup 2\.4\.1 on db1 ===\n/,
  );
  t.match(fail.body, `\nOpen the run: ${LINKS.run}\nOpen the monitor: ${LINKS.monitor}`);
  const says: Record<string, RegExp> = {
    timed_out: /^🔴 orders export timed out\nno result within maxRuntime \(2h\)/,
    missed: /^🔴 nightly backup did not start on time\nNo run started by/,
    missed_group: /^🔴 3 monitors did not start on time, all last run on web-1\n• sitemap: No run[^]*\n• mail queue: /,
    still_down: /^🔴 nightly backup is still down\nStill down: 2 missed runs/,
    silent_failure:
      /^⚠️ orders export succeeded, but its meta matched 2 alert rules[^]*\n• rowsProcessed < 1 \(was 0\)/,
    recovered: /^🟢 nightly backup is up again\nUp again: 1 missed run/,
    test: /^✅ pingmon test message\nTest message for the pingmon channel "ops"/,
  };
  for (const [name, pattern] of Object.entries(says)) {
    const content = send(EVENTS[name]!).json;
    t.match(content.body, pattern, `${name}: body`);
    const shown = shownText(content.formatted_body.replace(/<br>|<\/p>/g, '\n'));
    t.match(shown, pattern, `${name}: formatted_body`);
  }
});

t.test('names, messages and logs show as written: HTML escaped, and @room notifies nobody', async (t) => {
  const request = send(hostileAlert());
  t.same(checkMatrix(request), []);
  const html = request.json.formatted_body;
  const shown = shownText(html.replace(/<br>/g, '\n'));
  t.match(shown, `🔴 ${hostileAlert().monitorName} failed\n${HOSTILE}`);
  t.match(shown, `${HOSTILE}…end of the log:end ${HOSTILE}`, 'the log as it is, in <pre><code>');
  t.notMatch(html, /<b>x<\/b>|<users|<https:\/\/evil/, 'none of their markup reaches the room');
  t.match(request.json.body, `\n${HOSTILE}\n`, 'the plain body carries the text as it is');
  t.same(request.json['m.mentions'], {});
});

t.test('within an event of 65,536 bytes, never half a character, the snippet first to go', async (t) => {
  const fail = send(hugeFail());
  t.same(checkMatrix(fail), []);
  t.match(fail.json.body, hugeFail().logSnippet!.trimEnd(), 'a fail alert at every limit fits whole');
  const big = Array.from({ length: 6 }, () => hugeGroup().monitors!).flat();
  const group = send({ ...hugeGroup(), monitors: big, logSnippet: 'x'.repeat(500), logTail: 'y'.repeat(500) });
  t.same(checkMatrix(group), []);
  const bytes = Buffer.byteLength(group.body);
  t.ok(bytes <= 60_000 && bytes > 59_000, `${bytes} bytes, room left for the homeserver's envelope`);
  t.notOk(brokenCharacter(group.json.body) || brokenCharacter(group.json.formatted_body));
  t.notMatch(group.json.body, /xxx|yyy/, 'the snippet and the end of the log went first');
  t.match(group.json.body, /…\nmonitors mon_0{19}, /, 'then the monitors, cut with "…", the footer kept');
});

t.test('options: a room id, not an alias; m.text or m.notice', async (t) => {
  const schema = matrix.options!;
  for (const roomId of [ROOM, '!x:localhost:8448', '!31hneApxJ_1o-63DmFrpeqnkFfWppnzWso1JvH3ogLM']) {
    t.error(schema.validate({ roomId }).error, roomId);
  }
  t.match(
    schema.validate({ roomId: '#ops:example.org' }).error?.message,
    /Internal room ID\), not an alias such as #ops/,
  );
  for (const roomId of [undefined, '', 'ops', '!a b:x', 'https://matrix.to/#/!x:y']) {
    t.match(
      schema.validate({ roomId }).error?.message,
      /^roomId: the room's internal id, !…:example\.org/,
      String(roomId),
    );
  }
  t.match(schema.validate({ roomId: ROOM, msgtype: 'm.emote' }).error?.message, /^msgtype: m\.text .* or m\.notice/);
  t.equal(schema.validate({ roomId: ROOM }).value.msgtype, 'm.text');
});

t.test('the access token goes in the Authorization header only', async (t) => {
  const request = send(EVENTS.fail!);
  t.notMatch(request.body, TOKEN);
  t.notMatch(request.url, TOKEN);
  t.equal(matrix.secret.need, 'required');
});
