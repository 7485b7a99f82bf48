import { parse } from '@rocket.chat/message-parser';
import t from 'tap';
import { rocketchat } from '@pingmon/server/internal';
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
import { checkRocketchat } from '../../../helpers/vendors/rocketchat.js';

const URL = 'https://chat.example.com/hooks/6KFXgoPHdB3d7Qs5K/Zn8s2dXkqQv9t4wRbJ7yLmE3cAh5NpUx';
const target = { url: URL, secret: null, options: {} };

function send(content: AlertContent) {
  const request = requestOf(rocketchat, target, content);
  return { ...request, text: (JSON.parse(request.body) as { text: string }).text };
}

interface Node {
  type: string;
  value?: unknown;
  unicode?: string;
}

/** What Rocket.Chat shows of a message, as its own parser reads it: text, and the formatting it found. */
function read(text: string) {
  const found: string[] = [];
  const links: string[] = [];
  const code: string[] = [];
  const walk = (node: unknown): string => {
    if (Array.isArray(node)) return node.map(walk).join('');
    const n = node as Node;
    if (n.type === 'PLAIN_TEXT') return n.value as string;
    if (n.type === 'EMOJI' && n.unicode) return n.unicode;
    if (n.type === 'LINE_BREAK') return '\n';
    if (n.type === 'PARAGRAPH') return `${walk(n.value)}\n`;
    if (n.type === 'CODE') {
      code.push((n.value as Array<{ value: { value: string } }>).map((line) => line.value.value).join('\n'));
      return '';
    }
    if (n.type === 'LINK') {
      const { src, label } = n.value as { src: { value: string }; label: unknown };
      links.push(src.value);
      return walk(label);
    }
    found.push(n.type);
    return walk(n.value ?? []);
  };
  // Blank lines and zero-width spaces aside.
  const shown = walk(parse(text))
    .replace(/\u200b/g, '')
    .replace(/\n+/g, '\n');
  return { shown, found, links, code: code.map((block) => block.replace(/\u200b/g, '')) };
}

t.test('every alert is one POST of {text} to the incoming webhook', async (t) => {
  for (const [name, alert] of Object.entries(EVENTS)) {
    const request = send(alert);
    t.equal(request.method, 'POST', name);
    t.equal(request.url, URL);
    t.match(request.headers, { 'content-type': 'application/json', 'user-agent': /^pingmon\/\d+\.\d+\.\d+$/ });
    t.same(checkRocketchat(request), [], `${name}: Rocket.Chat would take it`);
    t.same(Object.keys(JSON.parse(request.body) as object), ['text']);
  }
});

t.test('what each alert says, as Rocket.Chat reads it: the headline, the log in code blocks, the links', async (t) => {
  const fail = read(send(EVENTS.fail!).text);
  t.match(fail.shown, /^🔴 nightly backup failed\nexit code 2: tar: Exiting with failure status/);
  t.equal(fail.code[0], EVENTS.fail!.logSnippet!.trimEnd(), 'the snippet, as it is');
  t.equal(fail.code[1], EVENTS.fail!.logTail, 'the end of the log');
  t.match(fail.shown, '…end of the log:\nrun 01a2192e-b89b-7145-a681-76bfb7b73ac7 · monitor mon_0mwrksujegHscDsv5wx');
  t.same(fail.links, [LINKS.run, LINKS.monitor]);
  t.match(fail.shown, /Open the run · Open the monitor\n$/);
  t.same(fail.found, [], 'nothing else formats');
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
    const message = read(send(EVENTS[name]!).text);
    t.match(message.shown, pattern, name);
    t.same(message.found, [], `${name}: nothing formats but what pingmon means to`);
  }
});

t.test('names, messages and logs show as written, and no @mention or #channel notifies', async (t) => {
  const request = send(hostileAlert());
  t.same(checkRocketchat(request), []);
  const message = read(request.text);
  t.same(message.found, [], 'no bold, italics, lists, quotes, headings, spoilers, links or mentions of theirs');
  t.same(message.links, [LINKS.run, LINKS.monitor]);
  const shown = message.shown;
  const name = `db ${HOSTILE}`.slice(0, 200);
  t.match(shown, `🔴 ${name} failed\n${HOSTILE}\n`, 'every character shows as written, no backslash left');
  t.equal(message.code[0], HOSTILE, 'the snippet too');
  t.notMatch(request.text.replace(/```[^]*?```/g, ''), /@(all|here|channel)/, 'no mention outside code');
  t.notMatch(request.text, /@(all|here|channel)/, 'nor inside: its server may read mentions there');
});

t.test("within Rocket.Chat's 5,000 characters, never half a character, the snippet first to go", async (t) => {
  const fail = send(hugeFail());
  t.same(checkRocketchat(fail), []);
  t.equal(read(fail.text).code[0], hugeFail().logSnippet!.trimEnd(), 'it fits whole');
  const group = send(hugeGroup());
  t.same(checkRocketchat(group), []);
  t.ok(group.text.length <= 5_000 && group.text.length > 4_900, `${group.text.length} characters`);
  t.notOk(brokenCharacter(group.text));
  t.match(group.text, /…\nmonitors mon\\_0{19}, /, 'the monitors cut with "…", the footer kept');
});

t.test('no options and no secret: the webhook URL is the credential', async (t) => {
  t.equal(rocketchat.secret.need, 'none');
  t.equal(rocketchat.options, undefined);
  t.equal(rocketchat.url.default, undefined);
});
