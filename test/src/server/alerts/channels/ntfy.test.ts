import t from 'tap';
import { ntfy } from '@pingmon/server/internal';
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
import { checkNtfy } from '../../../helpers/vendors/ntfy.js';

const TOKEN = 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2';
const target: Target = { url: 'https://ntfy.sh/pingmon-alerts-7f3k', secret: TOKEN, options: {} };

interface Published {
  topic: string;
  title: string;
  message: string;
  priority: number;
  tags: string[];
  click?: string;
}

function send(content: AlertContent, over: Partial<Target> = {}) {
  const request = requestOf(ntfy, { ...target, ...over }, content);
  return { ...request, json: JSON.parse(request.body) as Published };
}

t.test(
  "every alert is one JSON publish to the server's root, the topic in the body, the token as Bearer",
  async (t) => {
    for (const [name, alert] of Object.entries(EVENTS)) {
      const request = send(alert);
      t.equal(request.method, 'POST', name);
      t.equal(request.url, 'https://ntfy.sh/');
      t.match(request.headers, {
        'content-type': 'application/json',
        'user-agent': /^pingmon\/\d+\.\d+\.\d+$/,
        authorization: `Bearer ${TOKEN}`,
      });
      t.same(checkNtfy(request), [], `${name}: ntfy would take it`);
      t.equal(request.json.topic, 'pingmon-alerts-7f3k');
    }
    const selfHosted = send(EVENTS.fail!, { url: 'https://push.example.com/ntfy/backups/', secret: null });
    t.equal(selfHosted.url, 'https://push.example.com/ntfy/', 'a server under a path keeps it');
    t.equal(selfHosted.json.topic, 'backups');
    t.equal(selfHosted.headers.authorization, undefined, 'no secret, no Authorization');
  },
);

t.test('title, priority, tags and click by event; the message is plain text', async (t) => {
  const fail = send(EVENTS.fail!).json;
  t.match(fail, { title: 'nightly backup failed', priority: 5, tags: ['rotating_light'], click: LINKS.run });
  t.match(fail.message, /^exit code 2: tar: Exiting with failure status due to previous errors\n\n=== nightly backup/);
  t.match(fail.message, `\n\n…end of the log:\npg_dump: dumping contents of table "public.t24"`);
  t.match(fail.message, /\n\nrun 01a2192e-b89b-7145-a681-76bfb7b73ac7 · monitor mon_0mwrksujegHscDsv5wx · [^\n]+$/);
  const expected: Record<string, Partial<Published>> = {
    timed_out: { title: 'orders export timed out', priority: 5, tags: ['rotating_light'] },
    missed: { title: 'nightly backup did not start on time', priority: 5, tags: ['rotating_light'] },
    missed_group: { title: '3 monitors did not start on time, all last run on web-1', priority: 5 },
    still_down: { title: 'nightly backup is still down', priority: 5, tags: ['rotating_light'] },
    silent_failure: { priority: 4, tags: ['warning'] },
    recovered: { title: 'nightly backup is up again', priority: 3, tags: ['white_check_mark'], click: LINKS.run },
    test: { title: 'pingmon test message', priority: 3, tags: ['white_check_mark'] },
  };
  for (const [name, fields] of Object.entries(expected)) t.match(send(EVENTS[name]!).json, fields, name);
  t.equal(send(EVENTS.missed!).json.click, undefined, 'no click when the server has no public URL');
  const monitorOnly = send({ ...EVENTS.missed!, links: { monitor: LINKS.monitor, run: null } }).json;
  t.equal(monitorOnly.click, LINKS.monitor, "a missed run has no run: the monitor's page");
  t.match(send(EVENTS.missed_group!).json.message, /^• sitemap: No run[^]*\n• mail queue: /);
});

t.test('the priority option sets the priority of problems; good news stays at 3', async (t) => {
  const at = (priority: number, alert: AlertContent) => send(alert, { options: { priority } }).json.priority;
  t.equal(at(2, EVENTS.fail!), 2);
  t.equal(at(4, EVENTS.missed!), 4);
  t.equal(at(5, EVENTS.silent_failure!), 5);
  t.equal(at(1, EVENTS.recovered!), 3);
  t.equal(at(5, EVENTS.test!), 3);
  for (const priority of [0, 6, 2.5, 'high']) {
    t.match(ntfy.options!.validate({ priority }).error?.message, /^priority: 1 \(min\) to 5 \(max\)/, String(priority));
  }
  t.error(ntfy.options!.validate({}).error, 'no options at all');
});

t.test('names, messages and logs go as they are: JSON carries them, nothing reads markup', async (t) => {
  const request = send(hostileAlert());
  t.same(checkNtfy(request), []);
  t.equal(request.json.title, `db ${HOSTILE}`.slice(0, 200) + ' failed');
  t.match(request.json.message, `${HOSTILE}\n\n${HOSTILE}\n\n…end of the log:\nend ${HOSTILE}\n\n`);
  t.notOk('markdown' in request.json, 'sent as plain text');
});

t.test("within ntfy's 4,096 bytes, never half a character, the snippet first to go", async (t) => {
  const fail = send(hugeFail());
  t.same(checkNtfy(fail), []);
  t.match(fail.json.message, hugeFail().logSnippet!.trimEnd(), 'a fail alert at every limit fits whole');
  const group = send(hugeGroup());
  t.same(checkNtfy(group), []);
  const bytes = Buffer.byteLength(group.json.message);
  t.ok(bytes <= 4_096 && bytes > 4_000, `${bytes} bytes`);
  t.notOk(brokenCharacter(group.json.message));
  t.match(group.json.message, /…\n\nmonitors mon_0{19}, /, 'the monitors cut with "…", the footer kept');
  const cut = send({ ...hugeGroup(), logSnippet: 'x'.repeat(500), logTail: 'y'.repeat(500) }).json.message;
  t.notMatch(cut, /xxx|yyy/, 'the snippet and the end of the log go before the details');
  t.ok(send({ ...hugeFail(), monitorName: '😀'.repeat(100) }).json.title.length <= 250, 'a title of 250 at most');
});

t.test('the URL must name a topic; the secret is a token (Bearer) or user:password (Basic)', async (t) => {
  const check = (url: string) => ntfy.check!({ channelId: 'ch_1', type: 'ntfy', url, secret: null, options: {} });
  t.equal(check('https://ntfy.sh/mytopic'), null);
  t.equal(check('http://127.0.0.1:8080/my_topic-2'), null);
  for (const url of ['https://ntfy.sh', 'https://ntfy.sh/', 'https://ntfy.sh/a/b c', 'https://ntfy.sh/t?x=1', 'x']) {
    t.match(check(url), /^url: the server and a topic/, url);
  }
  const basic = send(EVENTS.fail!, { secret: 'phil:s3cr:et' });
  t.equal(basic.headers.authorization, `Basic ${Buffer.from('phil:s3cr:et').toString('base64')}`);
  for (const request of [send(EVENTS.fail!), basic]) t.notMatch(request.body, /tk_|s3cr/, 'never in the body');
  t.equal(ntfy.secret.need, 'optional');
});
