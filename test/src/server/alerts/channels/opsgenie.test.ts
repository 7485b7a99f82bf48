import t from 'tap';
import { opsgenie } from '@pingmon/server/internal';
import type { AlertContent, ChannelTarget, SendContext } from '@pingmon/server/internal';
import { CONTEXT, INCIDENT_FIXTURES, docsExamples } from '../../../helpers/incident-fixtures.js';
import { checkOpsgenie } from '../../../helpers/vendors/opsgenie.js';

const FIXTURES: Record<string, AlertContent> = INCIDENT_FIXTURES;
const API_KEY = 'eb243592-faa2-4ba2-a551-1afdf565c889';

function channel(over: Partial<ChannelTarget> = {}): ChannelTarget {
  return {
    channelId: 'ch_0mwrm8k2vJd0SxQ5Tb1',
    type: 'opsgenie',
    url: opsgenie.url.default!,
    secret: API_KEY,
    options: {},
    ...over,
  };
}

interface CreateAlert {
  message: string;
  alias: string;
  description: string;
  details: Record<string, string>;
  entity: string;
  source: string;
  priority: string;
  tags: string[];
}

function send(content: AlertContent, target = channel(), context: SendContext = CONTEXT) {
  const req = opsgenie.request(target, content, context);
  return { req, body: JSON.parse(req.body) as CreateAlert, problems: checkOpsgenie(req) };
}

t.test(
  'a fail alert creates an Opsgenie alert aliased by its pingmon incident, with the error and the log',
  async (t) => {
    const { req, body, problems } = send(INCIDENT_FIXTURES.fail);
    t.strictSame(problems, []);
    t.equal(req.method, 'POST');
    t.equal(req.url, 'https://api.opsgenie.com/v2/alerts');
    t.strictSame(req.headers, {
      'content-type': 'application/json',
      'user-agent': 'pingmon/0.1.0',
      authorization: `GenieKey ${API_KEY}`,
    });
    t.strictSame(body, {
      message: 'nightly backup failed',
      alias: 'inc_0mwrksum9Qz4Lc7Vb2x',
      description:
        'backup.sh exited with code 2\n\nLog (its first 500 characters):\n' +
        'tar: /data/db: Cannot open: Permission denied\ntar: Exiting with failure status due to previous errors\n\n' +
        'run 01a20144-8f00-7a41-9d7a-2f4f3c1e9b10 · monitor mon_0mwrksujegHscDsv5wx · 2026-11-22T08:29:29.942Z',
      details: {
        monitor: 'nightly backup',
        monitor_id: 'mon_0mwrksujegHscDsv5wx',
        slug: 'nightly-backup',
        run_id: '01a20144-8f00-7a41-9d7a-2f4f3c1e9b10',
        host: 'db-1',
        cause: 'fail',
        monitor_url: 'https://pingmon.example.com/monitors/nightly-backup',
        run_url: 'https://pingmon.example.com/monitors/nightly-backup/runs/01a20144-8f00-7a41-9d7a-2f4f3c1e9b10',
        'meta.exitCode': '2',
      },
      entity: 'nightly backup',
      source: 'pingmon',
      priority: 'P1',
      tags: ['pingmon', 'fail', 'cause:fail'],
    });
  },
);

t.test('recovered closes that alert by its alias, with a note of what the incident amounted to', async (t) => {
  const { req, body, problems } = send(INCIDENT_FIXTURES.recovered);
  t.strictSame(problems, []);
  t.equal(req.method, 'POST');
  t.equal(req.url, 'https://api.opsgenie.com/v2/alerts/inc_0mwrksum9Qz4Lc7Vb2x/close?identifierType=alias');
  t.equal(req.headers.authorization, `GenieKey ${API_KEY}`);
  t.strictSame(body, {
    source: 'pingmon',
    note:
      'Up again: 2 failed runs, down 18h31m.\n\n' +
      'run 01a20a6f-3c1d-7e52-8b94-5d2f0e7a1c36 · monitor mon_0mwrksujegHscDsv5wx · 2026-11-23T03:01:12.514Z',
  });
  const odd = { ...INCIDENT_FIXTURES.recovered, incidentKey: 'inc/1 ?#%' };
  t.equal(send(odd).req.url, 'https://api.opsgenie.com/v2/alerts/inc%2F1%20%3F%23%25/close?identifierType=alias');
  t.strictSame(send(odd).problems, []);
  t.equal(send(INCIDENT_FIXTURES.missed).body.alias, send(INCIDENT_FIXTURES.still_down).body.alias);
});

t.test('every kind of alert is a valid request', async (t) => {
  const expected: Record<string, string> = {
    fail: 'P1',
    recovered: 'close',
    silent_failure: 'P3',
    long_log: 'P1',
    timed_out: 'P1',
    missed: 'P1',
    still_down: 'P1',
    missed_group: 'P1',
    test: 'P1',
  };
  t.strictSame(Object.keys(expected).sort(), Object.keys(FIXTURES).sort(), 'every fixture is here');
  for (const [name, content] of Object.entries(FIXTURES)) {
    const { req, body, problems } = send(content);
    t.strictSame(problems, [], name);
    t.equal(req.url.endsWith('/close?identifierType=alias') ? 'close' : body.priority, expected[name], name);
  }
  const { logSnippet, logTail } = INCIDENT_FIXTURES.long_log;
  const longLog = send(INCIDENT_FIXTURES.long_log).body.description;
  t.match(longLog, `Log (its first 500 characters):\n${logSnippet}\n\n…end of the log:\n${logTail}\n\n`);

  const silent = send(INCIDENT_FIXTURES.silent_failure).body;
  t.equal(silent.alias, INCIDENT_FIXTURES.silent_failure.alertId, 'outside an incident: an alert of its own');
  t.equal(silent.details.matched_rules, 'rowsProcessed < 1 (was 0); durationSeconds > 3600 (was 4210)');
  t.strictSame(silent.tags, ['pingmon', 'silent_failure']);
  t.equal(
    send({ ...INCIDENT_FIXTURES.fail, incidentKey: null, cause: null }).body.priority,
    'P3',
    'below the threshold',
  );

  const group = send(INCIDENT_FIXTURES.missed_group).body;
  t.equal(group.message, '3 monitors did not start on time, all last run on web-1');
  t.match(group.description, /^• sitemap: No run started[^\n]*\n• cache warmup: [^\n]*\n• mail queue: /);

  const test = send(INCIDENT_FIXTURES.test).body;
  t.equal(test.alias, 'pingmon-test-msg_0mwrkt2Gf7Lq1Xc9Vb4', 'each test message opens an alert of its own');
  t.equal(test.entity, 'pingmon');
  t.strictSame(test.details, {});
});

t.test('options: one priority for every alert', async (t) => {
  t.equal(send(INCIDENT_FIXTURES.fail, channel({ options: { priority: 'P2' } })).body.priority, 'P2');
  t.equal(send(INCIDENT_FIXTURES.silent_failure, channel({ options: { priority: 'P5' } })).body.priority, 'P5');
  const schema = opsgenie.options!;
  for (const priority of ['P1', 'P2', 'P3', 'P4', 'P5']) t.equal(schema.validate({ priority }).error, undefined);
  for (const priority of ['p1', 'P6', 'high', 1]) {
    t.equal(
      schema.validate({ priority }).error?.message,
      '"priority" must be an Opsgenie priority: P1, P2, P3, P4, P5 (P1 the highest)',
      String(priority),
    );
  }
  t.equal(
    schema.validate({ team: 'x' }).error?.message,
    '"team" is not an option of an Opsgenie channel: it takes priority',
  );
  t.equal(opsgenie.secret.need, 'required');
});

t.test('the API key is only in the Authorization header; the EU or a receiver may replace the URL', async (t) => {
  for (const url of ['https://api.eu.opsgenie.com', 'http://127.0.0.1:8080/opsgenie/']) {
    const base = url.replace(/\/$/, '');
    for (const content of Object.values(FIXTURES)) {
      const { req, problems } = send(content, channel({ url }));
      t.strictSame(problems, []);
      t.ok(req.url.startsWith(`${base}/v2/alerts`), req.url);
      t.notMatch(req.url, API_KEY);
      t.notMatch(req.body, API_KEY);
      t.equal(req.headers.authorization, `GenieKey ${API_KEY}`);
    }
  }
});

t.test('hostile names and messages are carried as written, as text', async (t) => {
  const name = '<b>x</b> @here *y* &amp;';
  const error = '<a href="https://evil.example">click</a>\n"}],"priority":"P5';
  const { body, problems } = send({ ...INCIDENT_FIXTURES.fail, monitorName: name, errorMessage: error });
  t.strictSame(problems, []);
  t.equal(body.message, `${name} failed`);
  t.equal(body.entity, name);
  t.equal(body.priority, 'P1');
  t.ok(body.description.startsWith(`${error}\n\n`));
});

t.test('a huge alert stays within every Opsgenie limit without breaking a character', async (t) => {
  const name = `${'n'.repeat(108)}🔥🔥🔥`; // "… failed" takes the message past 130 characters at the emoji
  for (let pad = 100; pad < 115; pad++) {
    const monitorName = `${'n'.repeat(pad)}🔥🔥🔥`;
    const { body, problems } = send({ ...INCIDENT_FIXTURES.fail, monitorName });
    t.strictSame(problems, [], `name of ${pad + 6}`);
    t.ok(body.message.length <= 130);
    const whole = `${monitorName} failed`;
    if (whole.length > 130) t.ok(body.message.endsWith('…') && whole.startsWith(body.message.slice(0, -1)));
    else t.equal(body.message, whole);
  }
  // A grouped alert of 40 monitors: its details alone pass 15,000 characters.
  const monitors = Array.from({ length: 40 }, (_, i) => ({
    monitorId: `mon_${i}`,
    monitorName: name,
    expectedAt: null,
    errorMessage: `${'x'.repeat(496)}🔥🔥`,
  }));
  const log = `${'🔥'.repeat(249)}!`;
  const group = { ...INCIDENT_FIXTURES.missed_group, monitorName: name, monitors, logSnippet: log, logTail: `z${log}` };
  const { body, problems } = send(group);
  t.strictSame(problems, []);
  t.ok(body.description.length <= 15_000, `${body.description.length} characters`);
  t.notMatch(body.description, 'Log (its first', 'the snippet gave way first');
  t.notMatch(body.description, '…end of the log:', 'then the end of the log');
  t.match(body.description, /…\n\nmonitors mon_0, mon_1, /, 'then the details, cut; the footer stays');

  const meta = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${'k'.repeat(60)}${i}`, 1e15 + i]));
  const many = send({ ...INCIDENT_FIXTURES.fail, meta, monitorName: 'm'.repeat(200), host: 'h'.repeat(255) });
  t.strictSame(many.problems, []);
  const size = Object.entries(many.body.details).reduce((sum, [k, v]) => sum + k.length + v.length, 0);
  t.ok(size <= 8_000, `details: ${size} characters`);
  t.equal(Object.keys(many.body.details).filter((key) => key.startsWith('meta.')).length, 50, 'every meta key fits');
  const bigMeta = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`${'k'.repeat(60)}${i}`, 1e15 + i]));
  const cut = send({ ...INCIDENT_FIXTURES.fail, meta: bigMeta });
  t.strictSame(cut.problems, [], 'more meta than fits: the last keys give way');
  t.equal(cut.body.details.monitor, 'nightly backup', 'the monitor stays');
});

t.test('the examples in docs/alerts.md are what pingmon sends', async (t) => {
  const examples = docsExamples('opsgenie');
  t.strictSame(
    examples.map(([name]) => name),
    ['fail', 'silent_failure', 'recovered'],
  );
  for (const [name, json] of examples) t.strictSame(json, JSON.parse(send(FIXTURES[name]!).req.body), name);
});

t.test('the checker finds what Opsgenie would refuse', async (t) => {
  const { req, body } = send(INCIDENT_FIXTURES.fail);
  const withBody = (changed: object) => ({ ...req, body: JSON.stringify({ ...body, ...changed }) });
  t.match(checkOpsgenie(withBody({ message: 'm'.repeat(131) })), [/message has 131 characters, over 130/]);
  t.match(checkOpsgenie(withBody({ message: undefined })), [/message is missing/]);
  t.match(checkOpsgenie(withBody({ priority: 'P0' })), [/priority is "P0"/]);
  t.match(checkOpsgenie(withBody({ details: { n: 1 } })), [/details.n is not a string/]);
  t.match(checkOpsgenie(withBody({ details: { k: 'v'.repeat(8_000) } })), [/details has 8001 characters/]);
  t.match(checkOpsgenie(withBody({ tags: ['t'.repeat(51)] })), [/not 1 to 50 characters/]);
  t.match(checkOpsgenie(withBody({ responder: 'typo' })), [/body.responder is not a documented field/]);
  t.match(checkOpsgenie({ ...req, headers: { ...req.headers, authorization: 'Bearer x' } }), [/GenieKey/]);
  const close = send(INCIDENT_FIXTURES.recovered).req;
  t.match(checkOpsgenie({ ...close, url: close.url.replace('alias', 'name') }), [/identifierType "name" is unknown/]);
  t.match(checkOpsgenie({ ...close, body: JSON.stringify({ note: 'n', message: 'm' }) }), [/body.message is not/]);
});
