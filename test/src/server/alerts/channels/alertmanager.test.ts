import t from 'tap';
import { alertmanager } from '@pingmon/server/internal';
import type { AlertContent, ChannelTarget, SendContext } from '@pingmon/server/internal';
import { CONTEXT, INCIDENT_FIXTURES, docsExamples } from '../../../helpers/incident-fixtures.js';
import { checkAlertmanager } from '../../../helpers/vendors/alertmanager.js';

const FIXTURES: Record<string, AlertContent> = INCIDENT_FIXTURES;
const FIVE_MINUTES_MS = 5 * 60_000;

function channel(over: Partial<ChannelTarget> = {}): ChannelTarget {
  return {
    channelId: 'ch_0mwrm8k2vJd0SxQ5Tb1',
    type: 'alertmanager',
    url: 'http://alertmanager:9093',
    secret: null,
    options: {},
    ...over,
  };
}

interface PostedAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  generatorURL?: string;
}

/** The request for `content`, its one alert, and what Alertmanager's API would object to. */
function send(content: AlertContent, target = channel(), context: SendContext = CONTEXT) {
  const req = alertmanager.request(target, content, context);
  const alerts = JSON.parse(req.body) as PostedAlert[];
  return { req, alerts, alert: alerts[0]!, problems: checkAlertmanager(req) };
}

t.test(
  'a fail alert fires PingmonIncident: the monitor in its labels, the error and the log in its annotations',
  async (t) => {
    const { req, alerts, problems } = send(INCIDENT_FIXTURES.fail);
    t.strictSame(problems, []);
    t.equal(req.method, 'POST');
    t.equal(req.url, 'http://alertmanager:9093/api/v2/alerts');
    t.strictSame(req.headers, { 'content-type': 'application/json', 'user-agent': 'pingmon/0.1.0' });
    t.strictSame(alerts, [
      {
        labels: {
          alertname: 'PingmonIncident',
          monitor: 'nightly backup',
          monitor_id: 'mon_0mwrksujegHscDsv5wx',
          slug: 'nightly-backup',
          host: 'db-1',
          cause: 'fail',
          incident: 'inc_0mwrksum9Qz4Lc7Vb2x',
          severity: 'critical',
        },
        annotations: {
          summary: 'nightly backup failed',
          description: 'backup.sh exited with code 2',
          error_message: 'backup.sh exited with code 2',
          log_snippet: INCIDENT_FIXTURES.fail.logSnippet,
          monitor_url: 'https://pingmon.example.com/monitors/nightly-backup',
          run_url: 'https://pingmon.example.com/monitors/nightly-backup/runs/01a20144-8f00-7a41-9d7a-2f4f3c1e9b10',
        },
        startsAt: '2026-11-22T08:29:29.942Z',
        endsAt: '2026-11-22T08:34:30.000Z',
        generatorURL: 'https://pingmon.example.com/monitors/nightly-backup',
      },
    ]);
  },
);

t.test('every kind of alert is a valid postable alert, named for what it is', async (t) => {
  const names: Record<string, string> = {
    fail: 'PingmonIncident',
    recovered: 'PingmonIncident',
    silent_failure: 'PingmonSilentFailure',
    long_log: 'PingmonIncident',
    timed_out: 'PingmonIncident',
    missed: 'PingmonIncident',
    still_down: 'PingmonIncident',
    missed_group: 'PingmonIncident',
    test: 'PingmonTest',
  };
  t.strictSame(Object.keys(names).sort(), Object.keys(FIXTURES).sort(), 'every fixture is named');
  for (const [name, content] of Object.entries(FIXTURES)) {
    const { alerts, alert, problems } = send(content);
    t.strictSame(problems, [], name);
    t.equal(alerts.length, 1, `${name}: one alert`);
    t.equal(alert.labels.alertname, names[name], name);
    t.equal(alert.annotations.summary.length > 0, true, `${name} has a summary`);
  }
  const longLog = send(INCIDENT_FIXTURES.long_log).alert.annotations;
  t.equal(longLog.log_snippet, INCIDENT_FIXTURES.long_log.logSnippet, 'the first 500 characters of the log');
  t.equal(longLog.log_tail, INCIDENT_FIXTURES.long_log.logTail, 'and its end, which the snippet does not show');
  t.notOk('log_tail' in send(INCIDENT_FIXTURES.fail).alert.annotations, 'a short log is shown once');

  const group = send(INCIDENT_FIXTURES.missed_group).alert;
  t.equal(group.annotations.summary, '3 monitors did not start on time, all last run on web-1');
  t.match(group.annotations.description, /^• sitemap: No run started[^\n]*\n• cache warmup: [^\n]*\n• mail queue: /);
  t.equal(group.labels.host, 'web-1');
  t.equal(group.labels.cause, 'missed');
  t.notOk('run_url' in group.annotations, 'no run, no run link');

  const silent = send(INCIDENT_FIXTURES.silent_failure).alert;
  t.equal(silent.labels.severity, 'warning', 'a silent failure is a warning');
  t.equal(silent.labels.incident, INCIDENT_FIXTURES.silent_failure.alertId, 'outside an incident, keyed by its alert');
  t.notOk('cause' in silent.labels, 'no incident, no cause');
  t.equal(silent.annotations.description, '• rowsProcessed < 1 (was 0)\n• durationSeconds > 3600 (was 4210)');

  const lone = send({ ...INCIDENT_FIXTURES.fail, incidentKey: null, cause: null }).alert;
  t.equal(lone.labels.alertname, 'PingmonAlert', 'a failed run below the failure threshold');
  t.equal(lone.labels.severity, 'warning');
  t.equal(lone.labels.incident, INCIDENT_FIXTURES.fail.alertId);

  const test = send(INCIDENT_FIXTURES.test).alert;
  t.strictSame(test.labels, {
    alertname: 'PingmonTest',
    incident: 'pingmon-test-msg_0mwrkt2Gf7Lq1Xc9Vb4',
    severity: 'critical',
  });
  t.equal(test.annotations.summary, 'pingmon test message');
  t.equal(
    Date.parse(test.endsAt) - Date.parse(test.startsAt),
    FIVE_MINUTES_MS,
    'a test resolves by itself 5 minutes on',
  );
});

t.test(
  'every alert of one incident has the same labels, and recovered resolves the alert the others fired',
  async (t) => {
    const fired = send(INCIDENT_FIXTURES.fail).alert;
    const resolved = send(INCIDENT_FIXTURES.recovered).alert;
    t.strictSame(resolved.labels, fired.labels, 'the same alert to Alertmanager');
    t.equal(resolved.endsAt, '2026-11-23T03:01:12.514Z', 'ends when the monitor recovered');
    t.equal(resolved.startsAt <= resolved.endsAt, true, 'and does not end before it starts');
    t.equal(resolved.annotations.summary, 'nightly backup is up again');

    const missed = send(INCIDENT_FIXTURES.missed).alert;
    const stillDown = send(INCIDENT_FIXTURES.still_down).alert;
    t.strictSame(stillDown.labels, missed.labels, 'a reminder is the same alert');
    const movedHost = send({ ...INCIDENT_FIXTURES.still_down, host: 'db-2' }).alert;
    const { host: _host, ...rest } = movedHost.labels;
    const { host: _old, ...missedRest } = missed.labels;
    t.strictSame(rest, missedRest, 'only the host label may change');
  },
);

t.test(
  'a firing alert stays firing 5 minutes past each send, so that the minutely re-sends keep it open',
  async (t) => {
    t.equal(alertmanager.incidents, true);
    t.equal(alertmanager.repeatEverySeconds, 60);
    const later = { ...CONTEXT, nowSeconds: CONTEXT.nowSeconds + 3_600 };
    const resent = send(INCIDENT_FIXTURES.fail, channel(), later).alert;
    t.equal(resent.startsAt, '2026-11-22T08:29:29.942Z', 'still started when the alert was raised');
    t.equal(resent.endsAt, new Date((later.nowSeconds + 300) * 1000).toISOString(), 'ends 5 minutes after this send');
    t.strictSame(resent.labels, send(INCIDENT_FIXTURES.fail).alert.labels);
  },
);

t.test('options: a severity for every alert, and labels of the user’s own', async (t) => {
  const target = channel({ options: { severity: 'page', labels: { team: 'data', env: 'prod' } } });
  for (const content of [INCIDENT_FIXTURES.fail, INCIDENT_FIXTURES.silent_failure, INCIDENT_FIXTURES.recovered]) {
    const { alert, problems } = send(content, target);
    t.strictSame(problems, []);
    t.equal(alert.labels.severity, 'page');
    t.equal(alert.labels.team, 'data');
    t.equal(alert.labels.env, 'prod');
  }
  const schema = alertmanager.options!;
  t.equal(schema.validate({ severity: 'page', labels: { team: 'data', _x: 'y' } }).error, undefined);
  t.equal(schema.validate({}).error, undefined, 'none needed');
  const refused = (options: unknown) => schema.validate(options).error?.message ?? '';
  t.match(
    refused({ labels: { 'bad-name': 'x' } }),
    /"labels.bad-name" is not a label name pingmon can add: names are letters/,
  );
  t.match(refused({ labels: { '1st': 'x' } }), /not starting with a digit/);
  t.match(refused({ labels: { __reserved: 'x' } }), /is not a label name pingmon can add/);
  t.match(refused({ labels: { monitor: 'x' } }), /not one pingmon sets \(alertname, monitor,/);
  t.match(refused({ labels: { severity: 'x' } }), /give "severity" as options.severity/);
  t.match(refused({ labels: { team: 5 } }), /"labels.team" must be a label value: text of 1 to 1000 characters/);
  t.match(refused({ labels: { team: '' } }), /"labels.team" must be a label value/);
  t.match(
    refused({ labels: 'team=data' }),
    /"labels" must be an object of label names to values \(team: data, env: prod\)/,
  );
  const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`l${i}`, 'v']));
  t.match(refused({ labels: many }), /"labels" can add at most 20 labels/);
  t.match(refused({ severity: '' }), /"severity" must be the severity label of every alert, 1 to 100 characters/);
  t.match(refused({ route: 'x' }), /"route" is not an option of an Alertmanager channel: it takes severity and labels/);
});

t.test('the secret is sent only as a bearer token', async (t) => {
  const secret = 'am-proxy-token-3f9c2e71';
  const target = channel({ secret, url: 'https://proxy.example.com/alertmanager/' });
  for (const content of Object.values(FIXTURES)) {
    const { req, problems } = send(content, target);
    t.strictSame(problems, []);
    t.equal(req.headers.authorization, `Bearer ${secret}`);
    t.equal(req.url, 'https://proxy.example.com/alertmanager/api/v2/alerts', 'under the path given, without "//"');
    t.notMatch(req.body, secret);
  }
  t.notOk('authorization' in send(INCIDENT_FIXTURES.fail).req.headers, 'no secret, no Authorization');
});

t.test(
  'hostile names and messages are carried as written: Alertmanager takes data, its templates escape',
  async (t) => {
    const name = '<script>alert(1)</script> *@here* `x` {{ .Labels }} 🔥';
    const error = '<!channel> ```\n]]></x> &amp; \u200b \u0007';
    const { alert, problems } = send({ ...INCIDENT_FIXTURES.fail, monitorName: name, errorMessage: error });
    t.strictSame(problems, []);
    t.equal(alert.labels.monitor, name);
    t.equal(alert.annotations.summary, `${name} failed`);
    t.equal(alert.annotations.error_message, error);
  },
);

t.test('a huge alert stays valid: nothing is cut, no character broken', async (t) => {
  const emoji = '🔥'.repeat(100);
  const monitors = Array.from({ length: 100 }, (_, i) => ({
    monitorId: `mon_${i}`,
    monitorName: `${emoji}${i}`,
    expectedAt: null,
    errorMessage: 'x'.repeat(499) + '🔥',
  }));
  const huge = {
    ...INCIDENT_FIXTURES.missed_group,
    monitorName: emoji,
    monitors,
    errorMessage: 'e'.repeat(499) + '🔥',
  };
  const { alert, problems } = send(huge);
  t.strictSame(problems, []);
  t.equal(alert.annotations.description.split('\n').length, 100, 'every monitor');
  t.equal(alert.labels.monitor, emoji);
  const log = '🔥'.repeat(250);
  const logged = send({ ...INCIDENT_FIXTURES.long_log, logSnippet: log, logTail: `${'y'.repeat(9)}${log}` });
  t.strictSame(logged.problems, []);
  t.equal(logged.alert.annotations.log_snippet, log);
});

t.test('the examples in docs/alerts.md are what pingmon sends', async (t) => {
  const examples = docsExamples('alertmanager');
  t.strictSame(
    examples.map(([name]) => name),
    ['fail', 'silent_failure', 'recovered'],
  );
  for (const [name, json] of examples) t.strictSame(json, JSON.parse(send(FIXTURES[name]!).req.body), name);
});

t.test('the checker finds what Alertmanager would refuse', async (t) => {
  const { req, alert } = send(INCIDENT_FIXTURES.fail);
  const withAlert = (changed: object) => ({ ...req, body: JSON.stringify([{ ...alert, ...changed }]) });
  t.match(checkAlertmanager(withAlert({ labels: { ...alert.labels, 'bad-name': 'x' } })), [
    /"bad-name" is not a label name/,
  ]);
  t.match(checkAlertmanager(withAlert({ labels: {} })), [/labels is empty/]);
  t.match(checkAlertmanager(withAlert({ endsAt: '2026-11-22T08:00:00.000Z' })), [/ends before it starts/]);
  t.match(checkAlertmanager(withAlert({ startsAt: 'yesterday' })), [/startsAt is not a date-time/]);
  t.match(checkAlertmanager(withAlert({ annotations: { summary: 'x\ud83d' } })), [/half a surrogate pair/]);
  t.match(checkAlertmanager({ ...req, body: JSON.stringify(alert) }), [/not an array/]);
  t.match(checkAlertmanager({ ...req, url: 'http://alertmanager:9093/api/v1/alerts' }), [/is not …\/api\/v2\/alerts/]);
  t.match(checkAlertmanager({ ...req, headers: {} }), [/content-type is ""/]);
});
