import t from 'tap';
import { msteams } from '@pingmon/server/internal';
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
import { checkMsteams } from '../../../helpers/vendors/msteams.js';

const URL =
  'https://prod-42.westeurope.logic.azure.com:443/workflows/0f6c1d2e3a4b/triggers/manual/paths/invoke?api-version=2016-06-01&sig=k3y';
const target = { url: URL, secret: null, options: {} };

interface Element {
  type: string;
  text?: string;
  inlines?: Element[];
  items?: Element[];
  facts?: Array<{ title: string; value: string }>;
  [key: string]: unknown;
}
interface Card {
  version: string;
  body: Element[];
  actions?: Array<{ type: string; title: string; url: string }>;
}

function send(content: AlertContent) {
  const request = requestOf(msteams, target, content);
  const message = JSON.parse(request.body) as { attachments: Array<{ content: Card }> };
  return { ...request, card: message.attachments[0]!.content };
}

/** The card's text, element by element: a RichTextBlock's runs, a TextBlock's text, a code block's run. */
function texts(card: Card): string[] {
  const of = (element: Element): string[] => {
    if (element.type === 'RichTextBlock') return [element.inlines!.map((run) => run.text).join('')];
    if (element.type === 'TextBlock') return [element.text!];
    if (element.type === 'Container') return element.items!.flatMap(of);
    return [];
  };
  return card.body.flatMap(of);
}

const run = (card: Card, i: number) => {
  const element = card.body[i]!;
  return element.type === 'Container' ? element.items![0]!.inlines![0]! : element.inlines![0]!;
};

t.test(
  'every alert is one POST of an Adaptive Card the adaptivecards library parses without a complaint',
  async (t) => {
    for (const [name, alert] of Object.entries(EVENTS)) {
      const request = send(alert);
      t.equal(request.method, 'POST', name);
      t.equal(request.url, URL);
      t.match(request.headers, { 'content-type': 'application/json', 'user-agent': /^pingmon\/\d+\.\d+\.\d+$/ });
      t.same(checkMsteams(request), [], `${name}: parsed and validated as Teams would`);
      t.match(JSON.parse(request.body), {
        type: 'message',
        attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null }],
      });
      t.equal(request.card.version, '1.4');
    }
  },
);

t.test('what each card says: a coloured headline, the log in monospace, facts, links as buttons', async (t) => {
  const fail = send(EVENTS.fail!).card;
  t.match(run(fail, 0), { text: '🔴 nightly backup failed', weight: 'Bolder', color: 'Attention' });
  t.equal(texts(fail)[1], 'exit code 2: tar: Exiting with failure status due to previous errors');
  t.match(run(fail, 2), { text: EVENTS.fail!.logSnippet!.trimEnd(), fontType: 'Monospace' });
  t.match(fail.body[2], { type: 'Container', style: 'emphasis' });
  t.match(fail.body[3], { type: 'TextBlock', text: '…end of the log:' });
  t.match(run(fail, 4), { text: EVENTS.fail!.logTail, fontType: 'Monospace' });
  t.same(fail.body[5], {
    type: 'FactSet',
    facts: [
      { title: 'Monitor', value: 'mon\\_0mwrksujegHscDsv5wx' },
      { title: 'Run', value: '01a2192e-b89b-7145-a681-76bfb7b73ac7' },
      { title: 'Time', value: '2026-11-26T03:00:41.067Z' },
    ],
  });
  t.same(fail.actions, [
    { type: 'Action.OpenUrl', title: 'Open the run', url: LINKS.run },
    { type: 'Action.OpenUrl', title: 'Open the monitor', url: LINKS.monitor },
  ]);
  const missed = send(EVENTS.missed!).card;
  t.match(run(missed, 0), { text: '🔴 nightly backup did not start on time', color: 'Attention' });
  t.match(missed.body.at(-1), {
    facts: [
      { title: 'Monitor' },
      { title: 'Expected at', value: '2027-03-28T01:00:00.000Z' },
      { title: 'Host', value: 'db-1' },
      { title: 'Last run', value: '2027-03-27T02:00:00.000Z, success' },
      { title: 'Time' },
    ],
  });
  t.equal(missed.actions, undefined, 'no buttons when the server has no public URL');
  const group = texts(send(EVENTS.missed_group!).card);
  t.equal(group[0], '🔴 3 monitors did not start on time, all last run on web-1');
  t.match(group[1], /^• sitemap: No run[^]*\n• cache warmup: [^]*\n• mail queue: /);
  t.match(run(send(EVENTS.timed_out!).card, 0), { text: '🔴 orders export timed out', color: 'Attention' });
  t.match(run(send(EVENTS.still_down!).card, 0), { text: '🔴 nightly backup is still down', color: 'Attention' });
  const silent = send(EVENTS.silent_failure!).card;
  t.match(run(silent, 0), { text: /^⚠️ orders export succeeded, but its meta matched 2/, color: 'Warning' });
  t.equal(texts(silent)[1], '• rowsProcessed < 1 (was 0)\n• durationSeconds > 3600 (was 4210)');
  t.match(run(send(EVENTS.recovered!).card, 0), { text: '🟢 nightly backup is up again', color: 'Good' });
  t.match(run(send(EVENTS.test!).card, 0), { text: '✅ pingmon test message', color: 'Good' });
});

t.test('names, messages and logs are TextRuns, which Teams shows as written (no Markdown)', async (t) => {
  const alert = { ...hostileAlert(), host: 'db_1 *x* [l](https://evil.example)', runId: null };
  const request = send(alert);
  t.same(checkMsteams(request), []);
  const literal = (text: string) => text.replace(/\{\{/g, '{\u200b{');
  const shown = texts(request.card);
  t.equal(shown[0], `🔴 ${literal(alert.monitorName!)} failed`);
  t.equal(shown[1], literal(HOSTILE), 'the message as it is, but {{DATE(…)}} kept from being replaced');
  t.equal(shown[2], literal(HOSTILE), 'the snippet');
  const textBlocks = JSON.stringify(request.card.body.filter((element) => element.type === 'TextBlock'));
  t.notMatch(textBlocks, /evil|bold/, 'no TextBlock (Markdown) holds their text');
  const facts = request.card.body.at(-1)!.facts!;
  t.same(
    facts.find((fact) => fact.title === 'Host'),
    { title: 'Host', value: 'db\\_1 \\*x\\* \\[l\\](https://evil.example)' },
  );
});

t.test("within Teams' 28 KB, never half a character, the snippet first to go", async (t) => {
  const fail = send(hugeFail());
  t.same(checkMsteams(fail), []);
  t.equal(run(fail.card, 2).text, hugeFail().logSnippet!.trimEnd(), 'a fail alert at every limit fits whole');
  const group = send(hugeGroup());
  t.same(checkMsteams(group), []);
  const bytes = Buffer.byteLength(group.body);
  t.ok(bytes <= 28_000 && bytes > 27_500, `${bytes} bytes`);
  t.notOk(brokenCharacter(group.body) || brokenCharacter(texts(group.card).join('')));
  t.match(texts(group.card)[1], /^• job 0 [^]*…$/, 'the monitors cut with "…"');
  const cut = send({ ...hugeGroup(), logSnippet: 'x'.repeat(500), logTail: 'y'.repeat(500) });
  t.equal(cut.card.body.filter((element) => element.type === 'Container').length, 0, 'the log gives way first');
});

t.test('no options and no secret: the workflow URL is the credential', async (t) => {
  t.equal(msteams.secret.need, 'none');
  t.equal(msteams.options, undefined);
  t.equal(msteams.url.default, undefined);
});
