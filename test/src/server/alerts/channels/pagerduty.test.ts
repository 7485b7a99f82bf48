import t from 'tap';
import { pagerduty } from '@pingmon/server/internal';
import type { AlertContent, ChannelTarget, SendContext } from '@pingmon/server/internal';
import { CONTEXT, INCIDENT_FIXTURES, docsExamples } from '../../../helpers/incident-fixtures.js';
import { checkPagerduty } from '../../../helpers/vendors/pagerduty.js';

const FIXTURES: Record<string, AlertContent> = INCIDENT_FIXTURES;
const ROUTING_KEY = 'e93facc04764012d7bfb002500d5d1a6';

function channel(over: Partial<ChannelTarget> = {}): ChannelTarget {
  return {
    channelId: 'ch_0mwrm8k2vJd0SxQ5Tb1',
    type: 'pagerduty',
    url: pagerduty.url.default!,
    secret: ROUTING_KEY,
    options: {},
    ...over,
  };
}

interface PagerdutyEvent {
  routing_key: string;
  event_action: string;
  dedup_key: string;
  payload?: {
    summary: string;
    source: string;
    severity: string;
    timestamp: string;
    component: string;
    class: string;
    custom_details: Record<string, unknown>;
  };
  client?: string;
  client_url?: string;
  links?: Array<{ href: string; text: string }>;
}

function send(content: AlertContent, target = channel(), context: SendContext = CONTEXT) {
  const req = pagerduty.request(target, content, context);
  return { req, event: JSON.parse(req.body) as PagerdutyEvent, problems: checkPagerduty(req) };
}

t.test('a fail alert triggers an incident keyed by its pingmon incident, with the error and the log', async (t) => {
  const { req, event, problems } = send(INCIDENT_FIXTURES.fail);
  t.strictSame(problems, []);
  t.equal(req.method, 'POST');
  t.equal(req.url, 'https://events.pagerduty.com/v2/enqueue');
  t.strictSame(req.headers, { 'content-type': 'application/json', 'user-agent': 'pingmon/0.1.0' });
  const run = 'https://pingmon.example.com/monitors/nightly-backup/runs/01a20144-8f00-7a41-9d7a-2f4f3c1e9b10';
  t.strictSame(event, {
    routing_key: ROUTING_KEY,
    dedup_key: 'inc_0mwrksum9Qz4Lc7Vb2x',
    event_action: 'trigger',
    payload: {
      summary: 'nightly backup failed: backup.sh exited with code 2',
      source: 'db-1',
      severity: 'critical',
      timestamp: '2026-11-22T08:29:29.942Z',
      component: 'nightly-backup',
      class: 'fail',
      custom_details: {
        monitor: 'nightly backup',
        monitor_id: 'mon_0mwrksujegHscDsv5wx',
        slug: 'nightly-backup',
        run_id: '01a20144-8f00-7a41-9d7a-2f4f3c1e9b10',
        host: 'db-1',
        cause: 'fail',
        error_message: 'backup.sh exited with code 2',
        log_snippet: INCIDENT_FIXTURES.fail.logSnippet,
        meta: { exitCode: 2 },
      },
    },
    client: 'pingmon',
    client_url: 'https://pingmon.example.com/monitors/nightly-backup',
    links: [
      { href: 'https://pingmon.example.com/monitors/nightly-backup', text: 'Monitor in pingmon' },
      { href: run, text: 'Run in pingmon' },
    ],
  });
});

t.test('recovered resolves that incident: the same dedup_key, no payload', async (t) => {
  const { event, problems } = send(INCIDENT_FIXTURES.recovered);
  t.strictSame(problems, []);
  t.strictSame(event, { routing_key: ROUTING_KEY, dedup_key: 'inc_0mwrksum9Qz4Lc7Vb2x', event_action: 'resolve' });
  t.equal(send(INCIDENT_FIXTURES.missed).event.dedup_key, send(INCIDENT_FIXTURES.still_down).event.dedup_key);
});

t.test('every kind of alert is a valid event', async (t) => {
  const expected: Record<string, [action: string, severity: string | undefined]> = {
    fail: ['trigger', 'critical'],
    recovered: ['resolve', undefined],
    silent_failure: ['trigger', 'warning'],
    long_log: ['trigger', 'critical'],
    timed_out: ['trigger', 'critical'],
    missed: ['trigger', 'critical'],
    still_down: ['trigger', 'critical'],
    missed_group: ['trigger', 'critical'],
    test: ['trigger', 'critical'],
  };
  t.strictSame(Object.keys(expected).sort(), Object.keys(FIXTURES).sort(), 'every fixture is here');
  for (const [name, content] of Object.entries(FIXTURES)) {
    const { event, problems } = send(content);
    t.strictSame(problems, [], name);
    t.strictSame([event.event_action, event.payload?.severity], expected[name], name);
  }
  const longLog = send(INCIDENT_FIXTURES.long_log).event.payload!.custom_details;
  t.equal(longLog.log_snippet, INCIDENT_FIXTURES.long_log.logSnippet);
  t.equal(longLog.log_tail, INCIDENT_FIXTURES.long_log.logTail, 'the end of the log the snippet does not show');

  const silent = send(INCIDENT_FIXTURES.silent_failure).event;
  t.equal(silent.dedup_key, INCIDENT_FIXTURES.silent_failure.alertId, 'outside an incident: an incident of its own');
  t.strictSame(silent.payload!.custom_details.matched_rules, [
    'rowsProcessed < 1 (was 0)',
    'durationSeconds > 3600 (was 4210)',
  ]);
  t.equal(
    silent.payload!.summary,
    'orders export succeeded, but its meta matched 2 alert rules (silent failure): rowsProcessed < 1 (was 0)',
  );
  const lone = send({ ...INCIDENT_FIXTURES.fail, incidentKey: null, cause: null }).event;
  t.equal(lone.payload!.severity, 'warning', 'a failed run below the failure threshold');
  t.equal(lone.dedup_key, INCIDENT_FIXTURES.fail.alertId);

  const group = send(INCIDENT_FIXTURES.missed_group).event.payload!;
  t.match(group.summary, /^3 monitors did not start on time, all last run on web-1: sitemap: No run started/);
  t.equal((group.custom_details.monitors as string[]).length, 3);
  t.equal(group.source, 'web-1');
  t.equal(group.custom_details.expected_at, '2027-03-28T10:00:00.000Z');

  const test = send(INCIDENT_FIXTURES.test).event;
  t.equal(test.dedup_key, 'pingmon-test-msg_0mwrkt2Gf7Lq1Xc9Vb4', 'each test message opens an incident of its own');
  t.equal(test.payload!.source, 'pingmon', 'no host');
  t.notOk('links' in test, 'no dashboard, no links');
});

t.test('options: one severity for every alert; the routing key is checked', async (t) => {
  const { event } = send(INCIDENT_FIXTURES.silent_failure, channel({ options: { severity: 'error' } }));
  t.equal(event.payload!.severity, 'error');
  const schema = pagerduty.options!;
  for (const severity of ['critical', 'error', 'warning', 'info'])
    t.equal(schema.validate({ severity }).error, undefined);
  t.equal(
    schema.validate({ severity: 'high' }).error?.message,
    `"severity" must be one of PagerDuty's severities: critical, error, warning, info`,
  );
  t.equal(
    schema.validate({ urgency: 'high' }).error?.message,
    '"urgency" is not an option of a PagerDuty channel: it takes severity',
  );
  t.equal(pagerduty.secret.need, 'required');
  t.equal(pagerduty.check!(channel()), null);
  t.equal(pagerduty.check!(channel({ secret: 'R0123456789ABCDEFabcdef012345678' })), null, 'a ruleset key');
  for (const secret of ['e93facc04764012d7bfb002500d5d1a', 'https://events.pagerduty.com/x', `${ROUTING_KEY}0`]) {
    t.match(pagerduty.check!(channel({ secret })), /secret must be the 32-character Integration Key/, secret);
  }
});

t.test('the routing key goes in routing_key only, and the EU endpoint or a receiver may replace the URL', async (t) => {
  const url = 'https://events.eu.pagerduty.com/v2/enqueue';
  for (const content of Object.values(FIXTURES)) {
    const { req, event, problems } = send(content, channel({ url }));
    t.strictSame(problems, []);
    t.equal(req.url, url);
    t.equal(event.routing_key, ROUTING_KEY);
    t.equal(req.body.split(ROUTING_KEY).length, 2, 'once in the body');
    t.notMatch(JSON.stringify(req.headers), ROUTING_KEY);
  }
});

t.test('hostile names and messages are data: carried as written, in JSON strings', async (t) => {
  const name = '<img src=x onerror=alert(1)> @here *x* [link](https://evil.example)';
  const error = '</script>\n"},"event_action":"resolve';
  const { event, problems } = send({
    ...INCIDENT_FIXTURES.fail,
    monitorName: name,
    monitorSlug: null,
    errorMessage: error,
  });
  t.strictSame(problems, []);
  t.equal(event.event_action, 'trigger');
  t.equal(event.payload!.summary, `${name} failed: ${error}`);
  t.equal(event.payload!.component, name, 'the name when the monitor has no slug');
  t.equal(event.payload!.custom_details.error_message, error);
});

t.test('a huge alert keeps the summary within 1,024 characters without breaking a character', async (t) => {
  const name = `${'n'.repeat(199)}🔥`;
  const monitors = Array.from({ length: 50 }, (_, i) => ({
    monitorId: `mon_${i}`,
    monitorName: name,
    expectedAt: null,
    errorMessage: 'x'.repeat(499) + '🔥',
  }));
  // More than pingmon lets an error message be: the summary is cut wherever the emoji falls.
  for (let cut = 1000; cut < 1030; cut++) {
    const errorMessage = `${'e'.repeat(cut - 'nightly backup failed: '.length)}🔥🔥`;
    const { event, problems } = send({ ...INCIDENT_FIXTURES.fail, errorMessage });
    t.strictSame(problems, [], `cut near ${cut}`);
    const summary = event.payload!.summary;
    const whole = `nightly backup failed: ${errorMessage}`;
    if (whole.length <= 1024) t.equal(summary, whole, `${cut}: whole`);
    else t.ok(summary.length <= 1024 && summary.endsWith('…') && whole.startsWith(summary.slice(0, -1)), `${cut}: cut`);
  }
  const host = `${'h'.repeat(254)}🔥`;
  const { event, problems } = send({ ...INCIDENT_FIXTURES.missed_group, host, monitorName: name, monitors });
  t.strictSame(problems, [], 'the longest names a grouped alert can have');
  t.ok(event.payload!.summary.length <= 1024);
  t.equal((event.payload!.custom_details.monitors as string[]).length, 50, 'every monitor in the details');
});

t.test('the examples in docs/alerts.md are what pingmon sends', async (t) => {
  const examples = docsExamples('pagerduty');
  t.strictSame(
    examples.map(([name]) => name),
    ['fail', 'silent_failure', 'recovered'],
  );
  for (const [name, json] of examples) t.strictSame(json, JSON.parse(send(FIXTURES[name]!).req.body), name);
});

t.test('the checker finds what PagerDuty would refuse', async (t) => {
  const { req, event } = send(INCIDENT_FIXTURES.fail);
  const payload = event.payload!;
  const withEvent = (changed: object) => ({ ...req, body: JSON.stringify({ ...event, ...changed }) });
  t.match(checkPagerduty(withEvent({ routing_key: 'short' })), [/routing_key is not a 32-character/]);
  t.match(checkPagerduty(withEvent({ event_action: 'close' })), [/event_action is "close"/]);
  t.match(checkPagerduty(withEvent({ payload: { ...payload, severity: 'high' } })), [/severity is "high"/]);
  t.match(checkPagerduty(withEvent({ payload: { ...payload, summary: 's'.repeat(1025) } })), [/1025 characters/]);
  t.match(checkPagerduty(withEvent({ payload: { ...payload, source: undefined } })), [/payload.source is missing/]);
  t.match(checkPagerduty(withEvent({ payload: undefined })), [/payload is missing/]);
  t.match(checkPagerduty(withEvent({ dedup_key: 'k'.repeat(256) })), [/dedup_key has 256 characters/]);
  t.match(checkPagerduty(withEvent({ links: [{ text: 'no href' }] })), [/links\[0\] has no href/]);
  t.match(checkPagerduty({ ...req, url: 'https://events.pagerduty.com/v2/change/enqueue' }), [/is not \/v2\/enqueue/]);
  t.match(checkPagerduty({ ...req, headers: { ...req.headers, authorization: 'Token x' } }), [/Authorization header/]);
});
