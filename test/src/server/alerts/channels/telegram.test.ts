import t from 'tap';
import { telegram } from '@pingmon/server/internal';
import type { AlertContent } from '@pingmon/server/internal';
import type { Target } from '../../../helpers/channel-alerts.js';
import {
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
import { checkTelegram } from '../../../helpers/vendors/telegram.js';

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const target: Target = { url: 'https://api.telegram.org', secret: TOKEN, options: { chatId: -1001234567890 } };

function send(content: AlertContent, over: Partial<typeof target> = {}) {
  const request = requestOf(telegram, { ...target, ...over }, content);
  return { ...request, json: JSON.parse(request.body) as { chat_id: unknown; text: string; [key: string]: unknown } };
}

t.test('every alert is one sendMessage to the chat, HTML, link previews off, as the Bot API takes it', async (t) => {
  for (const [name, alert] of Object.entries(EVENTS)) {
    const request = send(alert);
    t.equal(request.method, 'POST', name);
    t.equal(request.url, `https://api.telegram.org/bot${TOKEN}/sendMessage`);
    t.match(request.headers, { 'content-type': 'application/json', 'user-agent': /^pingmon\/\d+\.\d+\.\d+$/ });
    t.same(checkTelegram(request), [], `${name}: the Bot API would take it`);
    t.equal(request.json.chat_id, -1001234567890);
    t.equal(request.json.parse_mode, 'HTML');
    t.same(request.json.link_preview_options, { is_disabled: true });
  }
});

t.test(
  'what each alert says: the headline in bold, the snippet and the end of the log in <pre>, the links',
  async (t) => {
    const fail = send(EVENTS.fail!).json.text;
    t.match(fail, /^🔴 <b>nightly backup<\/b> failed\nexit code 2: tar: Exiting with failure status/);
    t.match(fail, '<pre>=== nightly backup 2.4.1 on db1 ===\n+ pg_dump --format=custom shop &gt; /backup/shop.dump');
    t.match(fail, '\n…end of the log:\n<pre>pg_dump: dumping contents of table "public.t24"');
    t.match(fail, '<code>run 01a2192e-b89b-7145-a681-76bfb7b73ac7 · monitor mon_0mwrksujegHscDsv5wx · ');
    t.match(fail, `<a href="${LINKS.run}">Open the run</a> · <a href="${LINKS.monitor}">Open the monitor</a>`);
    t.match(
      send(EVENTS.timed_out!).json.text,
      /^🔴 <b>orders export<\/b> timed out\nno result within maxRuntime \(2h\)/,
    );
    t.match(send(EVENTS.missed!).json.text, /^🔴 <b>nightly backup<\/b> did not start on time\nNo run started by/);
    const group = send(EVENTS.missed_group!).json.text;
    t.match(group, /^🔴 3 monitors did not start on time, all last run on <b>web-1<\/b>\n• sitemap: No run/);
    t.match(group, '\n• cache warmup: No run');
    t.match(group, '\n• mail queue: No run');
    t.match(send(EVENTS.still_down!).json.text, /^🔴 <b>nightly backup<\/b> is still down\nStill down: 2 missed runs/);
    t.match(
      send(EVENTS.silent_failure!).json.text,
      /^⚠️ <b>orders export<\/b> succeeded, but its meta matched 2 alert/,
    );
    t.match(send(EVENTS.silent_failure!).json.text, '\n• rowsProcessed &lt; 1 (was 0)\n• durationSeconds &gt; 3600');
    t.match(send(EVENTS.recovered!).json.text, /^🟢 <b>nightly backup<\/b> is up again\nUp again: 1 missed run/);
    t.match(send(EVENTS.test!).json.text, /^✅ pingmon test message\nTest message for the pingmon channel "ops"/);
    t.notMatch(send(EVENTS.missed!).json.text, '<a ', 'no links when the server has no public URL');
  },
);

t.test('names, messages and logs show as written: HTML escaped, and no @mention notifies', async (t) => {
  const request = send(hostileAlert());
  t.same(checkTelegram(request), []);
  const shown = shownText(request.json.text);
  const quiet = (text: string) => text.replace(/@(?=\w)/g, '@\u200b');
  t.match(shown, `🔴 ${quiet(`db ${HOSTILE}`.slice(0, 200))} failed\n${quiet(HOSTILE)}\n`, 'headline and message');
  t.match(shown, `\n${HOSTILE}\n…end of the log:\nend ${HOSTILE}\n`, 'the log as it is, in <pre>');
  t.notMatch(request.json.text, /<b>x<\/b>|<users|<https/, 'no markup of theirs reaches Telegram');
  const outsidePre = shownText(request.json.text.replace(/<pre>[^]*?<\/pre>/g, ''));
  t.notMatch(outsidePre, /@(all|here|channel|room)/, 'outside <pre>, where Telegram reads mentions');
});

t.test(
  'at most 4,096 characters as Telegram counts them, never half a character, the snippet first to go',
  async (t) => {
    const fail = send(hugeFail());
    t.same(checkTelegram(fail), []);
    t.match(shownText(fail.json.text), hugeFail().logSnippet!, 'a fail alert at every limit fits whole');
    const group = send(hugeGroup());
    t.same(checkTelegram(group), []);
    const shown = shownText(group.json.text);
    t.ok(shown.length <= 4_096 && shown.length > 4_000, `${shown.length} characters: cut near the limit`);
    t.notOk(brokenCharacter(group.json.text), 'no half of a surrogate pair');
    t.match(shown, /job 0 /, 'the first monitors are kept');
    t.notMatch(shown, /job 299 /, 'the last ones are cut');
    t.match(shown, /…\nmonitors mon_0{19}, /, 'cut with "…", the footer kept');
    const long: AlertContent = { ...hugeFail(), logSnippet: '&'.repeat(500), logTail: '<'.repeat(500) };
    t.same(checkTelegram(send(long)), [], 'entities count as one character each');
  },
);

t.test('options: a chat id or a channel @username, refused with what to give', async (t) => {
  const schema = telegram.options!;
  for (const chatId of [-1001234567890, 42, '-1001234567890', '@pingmon_alerts']) {
    t.error(schema.validate({ chatId }).error, JSON.stringify(chatId));
  }
  for (const chatId of [undefined, 'pingmon_alerts', '@abc', 1.5, 'https://t.me/pingmon', '']) {
    const error = schema.validate({ chatId }).error;
    t.match(error?.message, /^chatId: the chat's numeric id .* @username; add the bot/, JSON.stringify(chatId));
  }
  t.equal(send(EVENTS.fail!, { options: { chatId: '@pingmon_alerts' } }).json.chat_id, '@pingmon_alerts');
});

t.test('the bot token is checked, and sent only in the path the Bot API wants it in', async (t) => {
  const check = (secret: string | null) =>
    telegram.check!({ channelId: 'ch_1', type: 'telegram', url: '', secret, options: {} });
  t.equal(check(TOKEN), null);
  for (const bad of [
    `bot${TOKEN}`,
    '123456789',
    'AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw',
    `${TOKEN}/../getMe`,
    `${TOKEN}?x=1`,
  ]) {
    t.match(check(bad), /^secret: the bot token @BotFather gave/, bad);
  }
  const request = send(EVENTS.fail!);
  t.notMatch(request.body, TOKEN);
  t.notMatch(JSON.stringify(request.headers), TOKEN);
  t.equal(telegram.secret.need, 'required');
  const own = send(EVENTS.fail!, { url: 'http://127.0.0.1:8081/' });
  t.equal(own.url, `http://127.0.0.1:8081/bot${TOKEN}/sendMessage`, 'a Bot API server of your own, or a test receiver');
});
