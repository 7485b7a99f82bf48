import t from 'tap';
import { pushover } from '@pingmon/server/internal';
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
import { checkPushover } from '../../../helpers/vendors/pushover.js';

const TOKEN = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
const USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';
const target: Target = { url: 'https://api.pushover.net/1/messages.json', secret: TOKEN, options: { userKey: USER } };

interface Message {
  token: string;
  user: string;
  title: string;
  message: string;
  html: number;
  priority: number;
  timestamp: number;
  url?: string;
  url_title?: string;
  [key: string]: unknown;
}

function send(content: AlertContent, over: Partial<Target> = {}) {
  const request = requestOf(pushover, { ...target, ...over }, content);
  return { ...request, json: JSON.parse(request.body) as Message };
}

t.test('every alert is one POST to messages.json with the token, the user key and an HTML message', async (t) => {
  for (const [name, alert] of Object.entries(EVENTS)) {
    const request = send(alert);
    t.equal(request.method, 'POST', name);
    t.equal(request.url, 'https://api.pushover.net/1/messages.json');
    t.match(request.headers, { 'content-type': 'application/json', 'user-agent': /^pingmon\/\d+\.\d+\.\d+$/ });
    t.same(checkPushover(request), [], `${name}: Pushover would take it`);
    t.match(request.json, { token: TOKEN, user: USER, html: 1, timestamp: Math.floor(alert.createdAt / 1000) });
  }
});

t.test('title, priority and link by event; the message escaped HTML', async (t) => {
  const fail = send(EVENTS.fail!).json;
  t.match(fail, {
    title: '🔴 nightly backup failed',
    priority: 1,
    url: LINKS.run,
    url_title: 'Open the run in pingmon',
  });
  t.match(fail.message, /^exit code 2: tar: Exiting with failure status due to previous errors\n\n=== nightly backup/);
  t.match(fail.message, '+ pg_dump --format=custom shop &gt; /backup/shop.dump');
  t.match(fail.message, /\n\n<font color="#888888">run 01a2192e-b89b-7145-a681-76bfb7b73ac7 · monitor mon_0mwrksu/);
  const expected: Record<string, Partial<Message>> = {
    timed_out: { title: '🔴 orders export timed out', priority: 1 },
    missed: { title: '🔴 nightly backup did not start on time', priority: 1 },
    missed_group: { title: '🔴 3 monitors did not start on time, all last run on web-1', priority: 1 },
    still_down: { title: '🔴 nightly backup is still down', priority: 1 },
    silent_failure: { priority: 0 },
    recovered: { title: '🟢 nightly backup is up again', priority: 0, url: LINKS.run },
    test: { title: '✅ pingmon test message', priority: 0 },
  };
  for (const [name, fields] of Object.entries(expected)) t.match(send(EVENTS[name]!).json, fields, name);
  t.notOk('url' in send(EVENTS.missed!).json, 'no link when the server has no public URL');
  const monitorOnly = send({ ...EVENTS.missed!, links: { monitor: LINKS.monitor, run: null } }).json;
  t.match(monitorOnly, { url: LINKS.monitor, url_title: 'Open the monitor in pingmon' });
  const tooLong = send({ ...EVENTS.fail!, links: { monitor: LINKS.monitor, run: `${LINKS.run}?${'x'.repeat(500)}` } });
  t.notOk('url' in tooLong.json, 'a link over 512 characters is left out, not cut');
  t.match(send(EVENTS.silent_failure!).json.message, /^• rowsProcessed &lt; 1 \(was 0\)\n• durationSeconds &gt; 3600/);
});

t.test('options: the user key, a priority for problems, a sound, devices', async (t) => {
  const schema = pushover.options!;
  t.error(schema.validate({ userKey: USER, priority: -2, sound: 'siren', device: 'phone,tablet_2' }).error);
  const refused: Array<[object, RegExp]> = [
    [{}, /^userKey: the user or group key from Pushover's dashboard/],
    [{ userKey: 'ops@example.com' }, /^userKey: the user or group key/],
    [{ userKey: USER, priority: 3 }, /^priority: -2 \(no notification\) to 2 \(emergency/],
    [{ userKey: USER, priority: 'high' }, /^priority: -2/],
    [{ userKey: USER, sound: 'a sound' }, /^sound: the name of a Pushover sound/],
    [{ userKey: USER, device: 'phone, tablet' }, /^device: a device's name, or several separated by commas/],
  ];
  for (const [options, message] of refused) t.match(schema.validate(options).error?.message, message);
  const at = (priority: number, alert: AlertContent) =>
    send(alert, { options: { userKey: USER, priority, sound: 'siren', device: 'phone' } }).json;
  t.match(at(-1, EVENTS.fail!), { priority: -1, sound: 'siren', device: 'phone' });
  t.equal(at(1, EVENTS.silent_failure!).priority, 1);
  t.equal(at(2, EVENTS.recovered!).priority, 0, 'good news at normal priority whatever the option');
  const emergency = send(EVENTS.fail!, { options: { userKey: USER, priority: 2 } });
  t.match(emergency.json, { priority: 2, retry: 60, expire: 3_600 }, 'an emergency repeats every minute for an hour');
  t.same(checkPushover(emergency), []);
});

t.test('names, messages and logs show as written: HTML escaped', async (t) => {
  const request = send(hostileAlert());
  t.same(checkPushover(request), []);
  t.equal(request.json.title, `🔴 ${hostileAlert().monitorName} failed`);
  t.match(shownText(request.json.message), `${HOSTILE}\n\n${HOSTILE}\n\n…end of the log:\nend ${HOSTILE}`);
});

t.test("within Pushover's 1,024 characters, never half a character, the snippet first to go", async (t) => {
  const fail = send(hugeFail());
  t.same(checkPushover(fail), []);
  t.ok(fail.json.message.length <= 1_024 && fail.json.message.length > 1_000, `${fail.json.message.length} characters`);
  t.notOk(brokenCharacter(fail.json.message) || brokenCharacter(fail.json.title));
  t.match(shownText(fail.json.message), hugeFail().errorMessage!, 'the error message kept whole');
  t.ok(fail.json.title.length <= 250, 'the title within 250');
  const alert = {
    ...EVENTS.fail!,
    errorMessage: 'e'.repeat(300),
    logSnippet: 's'.repeat(500),
    logTail: 't'.repeat(500),
  };
  const [details, snippet, end] = shownText(send(alert).json.message).split('\n\n');
  t.equal(details, alert.errorMessage, 'the error message kept');
  t.match(snippet, /^s{20,}…$/, `the snippet gave way: ${snippet!.length} characters`);
  t.equal(end, `…end of the log:\n${alert.logTail}`, 'the end of the log kept');
  const group = send(hugeGroup());
  t.same(checkPushover(group), []);
  t.match(shownText(group.json.message), /^• job 0 [^]*…\n\nmonitors mon_0{19}, /);
});

t.test('the token is checked, and sent only in the body as Pushover wants it', async (t) => {
  const check = (secret: string) =>
    pushover.check!({ channelId: 'ch_1', type: 'pushover', url: '', secret, options: {} });
  t.equal(check(TOKEN), null);
  t.match(check('short'), /^secret: the application's API token \(30 letters and digits\)/);
  const request = send(EVENTS.fail!);
  t.notMatch(JSON.stringify(request.headers), TOKEN);
  t.notMatch(request.url, TOKEN);
  t.equal(pushover.secret.need, 'required');
});
