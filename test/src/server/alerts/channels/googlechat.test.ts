import t from 'tap';
import { googlechat } from '@pingmon/server/internal';
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
import { checkGooglechat } from '../../../helpers/vendors/googlechat.js';

const URL = 'https://chat.googleapis.com/v1/spaces/AAAAx1y2z3w/messages?key=AIzaSyDdI0hCZtE6vySjMm&token=tK9f3-Xq';
const target = { url: URL, secret: null, options: {} };

function send(content: AlertContent) {
  const request = requestOf(googlechat, target, content);
  return { ...request, text: (JSON.parse(request.body) as { text: string }).text };
}

/** The message's monospace blocks, zero-width spaces aside. */
const blocks = (text: string) => [...text.matchAll(/```\n([^]*?)\n```/g)].map((m) => m[1]!.replace(/\u200b/g, ''));

t.test('every alert is one POST of {text} to the space, as its webhook takes it', async (t) => {
  for (const [name, alert] of Object.entries(EVENTS)) {
    const request = send(alert);
    t.equal(request.method, 'POST', name);
    t.equal(request.url, URL, 'the key and token stay in the URL');
    t.match(request.headers, { 'content-type': 'application/json', 'user-agent': /^pingmon\/\d+\.\d+\.\d+$/ });
    t.same(checkGooglechat(request), [], `${name}: Google Chat would take it`);
    t.same(Object.keys(JSON.parse(request.body) as object), ['text']);
  }
});

t.test("what each alert says, in Google Chat's format: the name in bold, the log in monospace blocks", async (t) => {
  const fail = send(EVENTS.fail!).text;
  t.match(fail, /^🔴 \*nightly backup\* failed\nexit code 2: tar: Exiting with failure status/);
  t.same(blocks(fail), [EVENTS.fail!.logSnippet!.trimEnd(), EVENTS.fail!.logTail]);
  t.match(fail, '\n```\n…end of the log:\n```\n');
  t.match(
    fail,
    '\n`run 01a2192e-b89b-7145-a681-76bfb7b73ac7 · monitor mon_0mwrksujegHscDsv5wx · 2026-11-26T03:00:41.067Z`\n',
  );
  t.match(fail, new RegExp(`\n<${LINKS.run}\\|Open the run> · <${LINKS.monitor}\\|Open the monitor>$`));
  t.match(send(EVENTS.timed_out!).text, /^🔴 \*orders export\* timed out\nno result within maxRuntime \(2h\)/);
  t.match(send(EVENTS.missed!).text, /^🔴 \*nightly backup\* did not start on time\nNo run started by/);
  t.match(
    send(EVENTS.missed_group!).text,
    /^🔴 3 monitors did not start on time, all last run on \*web-1\*\n• sitemap: No run[^]*\n• mail queue: /,
  );
  t.match(send(EVENTS.still_down!).text, /^🔴 \*nightly backup\* is still down\nStill down: 2 missed runs/);
  t.match(
    send(EVENTS.silent_failure!).text,
    /^⚠️ \*orders export\* succeeded, but its meta matched 2 alert rules \(silent failure\)\n• rowsProcessed <\u200b 1/,
  );
  t.match(send(EVENTS.recovered!).text, /^🟢 \*nightly backup\* is up again\nUp again: 1 missed run/);
  t.match(send(EVENTS.test!).text, /^✅ pingmon test message\nTest message for the pingmon channel "ops"/);
  t.notMatch(send(EVENTS.missed!).text, '<http', 'no links when the server has no public URL');
});

t.test('names and messages cannot format, mention or link: a zero-width space beside each marker', async (t) => {
  const request = send({ ...hostileAlert(), monitorName: 'db *bold* _it_ <users/all>' });
  t.same(checkGooglechat(request), []);
  const [headline, details] = request.text.split('\n');
  t.equal(headline, '🔴 *db \u200b*\u200bbold\u200b*\u200b \u200b_\u200bit\u200b_\u200b <\u200busers/all>* failed');
  t.equal(details!.replace(/\u200b/g, ''), HOSTILE.split('\n')[0], 'reads as written');
  t.notMatch(details, /(?<!\u200b)[*_~`]|[*_~`](?!\u200b)/, 'every *, _, ~ and backtick between zero-width spaces');
  t.notMatch(request.text, /<(?!\u200b|https:\/\/pingmon\.example\.com)/, 'no <users/all>, no <url|text> of theirs');
  t.same(blocks(request.text), [HOSTILE, `end ${HOSTILE}`], 'the log as it is');
  t.equal(request.text.match(/```/g)!.length, 4, 'two blocks, each closed');
});

t.test('within 4,096 characters, never half a character, the snippet first to go', async (t) => {
  const fail = send(hugeFail());
  t.same(checkGooglechat(fail), []);
  t.equal(blocks(fail.text)[0], hugeFail().logSnippet!.trimEnd(), 'a fail alert at every limit fits whole');
  const group = send(hugeGroup());
  t.same(checkGooglechat(group), []);
  t.ok(group.text.length <= 4_096 && group.text.length > 4_000, `${group.text.length} characters`);
  t.notOk(brokenCharacter(group.text));
  t.match(group.text, /…\n`monitors mon_0{19}, /, 'the monitors cut with "…", the footer kept');
  const cut = send({ ...hugeGroup(), logSnippet: 'x'.repeat(500), logTail: 'y'.repeat(500) });
  t.notMatch(cut.text, /```/, 'the snippet and the end of the log go before the details');
});

t.test('no options and no secret: the webhook URL (its key and token) is the credential', async (t) => {
  t.equal(googlechat.secret.need, 'none');
  t.equal(googlechat.options, undefined);
  t.equal(googlechat.url.default, undefined);
});
