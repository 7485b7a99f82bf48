import { Parser } from '@mattermost/commonmark';
import t from 'tap';
import { mattermost } from '@pingmon/server/internal';
import type { AlertContent } from '@pingmon/server/internal';
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
import { checkMattermost } from '../../../helpers/vendors/mattermost.js';

const URL = 'https://mattermost.example.com/hooks/xq7bpu3shjrz8k1wd9nyf5m6ca';
const target = { url: URL, secret: null, options: {} };

function send(content: AlertContent) {
  const request = requestOf(mattermost, target, content);
  return { ...request, text: (JSON.parse(request.body) as { text: string }).text };
}

/** Node types that only show text (or the markup pingmon means: the bold name, the code blocks, its links). */
const TEXT_NODES = new Set(['document', 'paragraph', 'text', 'softbreak', 'linebreak', 'strong', 'code_block', 'link']);

/** What Mattermost shows of a message, read by its own CommonMark parser (its mobile app's). */
function read(text: string) {
  const found: string[] = [];
  const links: Array<{ url: string; text: string }> = [];
  const code: string[] = [];
  const bold: string[] = [];
  let shown = '';
  let inBold = 0;
  const walker = new Parser().parse(text).walker();
  for (let step = walker.next(); step !== null; step = walker.next()) {
    const { node, entering } = step;
    if (!TEXT_NODES.has(node.type)) found.push(node.type);
    if (node.type === 'link' && entering) links.push({ url: node.destination!, text: '' });
    if (node.type === 'strong') inBold += entering ? 1 : -1;
    if (node.type === 'strong' && entering) bold.push('');
    if (node.type === 'text') {
      shown += node.literal;
      if (node.parent?.type === 'link') links.at(-1)!.text += node.literal;
      if (inBold > 0) bold[bold.length - 1] += node.literal!;
    }
    if (node.type === 'softbreak' || (node.type === 'paragraph' && !entering)) shown += '\n';
    // Zero-width spaces aside (between backticks, so that no fence closes a block early).
    if (node.type === 'code_block') code.push(node.literal!.replace(/\n$/, '').replace(/\u200b/g, ''));
  }
  return { shown, found, links, code, bold };
}

t.test('every alert is one POST of {text} to the incoming webhook', async (t) => {
  for (const [name, alert] of Object.entries(EVENTS)) {
    const request = send(alert);
    t.equal(request.method, 'POST', name);
    t.equal(request.url, URL);
    t.match(request.headers, { 'content-type': 'application/json', 'user-agent': /^pingmon\/\d+\.\d+\.\d+$/ });
    t.same(checkMattermost(request), [], `${name}: Mattermost would take it`);
    t.same(Object.keys(JSON.parse(request.body) as object), ['text']);
  }
});

t.test(
  'what each alert says, as Mattermost reads it: the name in bold, the log in code blocks, the links',
  async (t) => {
    const fail = read(send(EVENTS.fail!).text);
    t.match(fail.shown, /^🔴 nightly backup failed\nexit code 2: tar: Exiting with failure status/);
    t.same(fail.bold, ['nightly backup']);
    t.equal(fail.code[0], EVENTS.fail!.logSnippet!.trimEnd(), 'the snippet, as it is');
    t.equal(fail.code[1], EVENTS.fail!.logTail, 'the end of the log');
    t.match(fail.shown, '…end of the log:\nrun 01a2192e-b89b-7145-a681-76bfb7b73ac7 · monitor mon_0mwrksujegHscDsv5wx');
    t.same(fail.links, [
      { url: LINKS.run, text: 'Open the run' },
      { url: LINKS.monitor, text: 'Open the monitor' },
    ]);
    t.same(fail.found, [], 'nothing else formats');
    const says: Record<string, RegExp> = {
      timed_out: /^🔴 orders export timed out\nno result within maxRuntime \(2h\)/,
      missed: /^🔴 nightly backup did not start on time\nNo run started by/,
      missed_group:
        /^🔴 3 monitors did not start on time, all last run on web-1\n• sitemap: No run[^]*\n• mail queue: /,
      still_down: /^🔴 nightly backup is still down\nStill down: 2 missed runs/,
      silent_failure:
        /^⚠️ orders export succeeded, but its meta matched 2 alert rules[^]*\n• rowsProcessed < 1 \(was 0\)/,
      recovered: /^🟢 nightly backup is up again\nUp again: 1 missed run/,
      test: /^✅ pingmon test message\nTest message for the pingmon channel "ops"/,
    };
    for (const [name, pattern] of Object.entries(says)) {
      const message = read(send(EVENTS[name]!).text);
      t.match(message.shown, pattern, name);
      t.same(message.found, [], `${name}: nothing formats but what pingmon means to`);
    }
  },
);

t.test('names, messages and logs show as written, and no @mention notifies', async (t) => {
  const name = 'db *bold* _it_ <b>x</b> [l](https://evil.example) @all `c` 🔥';
  const request = send({ ...hostileAlert(), monitorName: name });
  t.same(checkMattermost(request), []);
  const message = read(request.text);
  t.same(message.found, [], 'no emphasis, lists, quotes, headings, HTML or mentions of theirs');
  t.same(message.bold, [name.replace('@', '@\u200b')], 'the name, bold as a whole');
  const theirs = message.links.filter((link) => !Object.values(LINKS).includes(link.url));
  t.ok(
    theirs.every((link) => link.text.startsWith('https://evil.example')),
    'their links are bare URLs, shown as they are',
  );
  // A bare URL right before an escaped character takes the backslash into its link: the one thing not as written.
  const unescaped = (text: string) => text.replace(/\\/g, '');
  t.match(unescaped(message.shown), `\n${unescaped(HOSTILE.replace(/@/g, '@\u200b'))}\n`, 'the message as written');
  t.equal(message.code[0], HOSTILE, 'the snippet too');
  t.notMatch(request.text.replace(/```[^]*?```/g, ''), /@(all|here|channel)/, 'no mention outside code');
});

t.test("within Mattermost's 16,383 characters, never half a character, the snippet first to go", async (t) => {
  const fail = send(hugeFail());
  t.same(checkMattermost(fail), []);
  t.equal(read(fail.text).code[0], hugeFail().logSnippet!.trimEnd(), 'a fail alert at every limit fits whole');
  const group = send(hugeGroup());
  t.same(checkMattermost(group), []);
  t.ok(group.text.length <= 16_383 && group.text.length > 16_283, `${group.text.length} characters`);
  t.notOk(brokenCharacter(group.text));
  t.match(group.text, /…\nmonitors mon\\_0{19}, /, 'the monitors cut with "…", the footer kept');
  const cut = send({ ...hugeGroup(), logSnippet: 'x'.repeat(500), logTail: 'y'.repeat(500) });
  t.notMatch(cut.text, /```/, 'the snippet and the end of the log go before the details');
});

t.test('no options and no secret: the webhook URL is the credential', async (t) => {
  t.equal(mattermost.secret.need, 'none');
  t.equal(mattermost.options, undefined);
  t.equal(mattermost.url.default, undefined);
});
