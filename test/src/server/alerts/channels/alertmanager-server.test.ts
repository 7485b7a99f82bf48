import t from 'tap';
import { alertmanager } from '@pingmon/server/internal';
import type { AlertContent, ChannelTarget, SendContext } from '@pingmon/server/internal';
import { startAlertmanager } from '../../../helpers/alertmanager.js';
import { TestServer } from '../../../helpers/server.js';
import { INCIDENT_FIXTURES } from '../../../helpers/incident-fixtures.js';
import { requireTools } from '../../../helpers/system-tools.js';
import { waitFor } from '../../../helpers/wait.js';

// The alertmanager kind's requests, posted to a real Alertmanager (Debian's prometheus-alertmanager) and read back
// from its API: what it accepts, shows while the incident is open, and resolves on recovery.

interface ListedAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  generatorURL?: string;
  status: { state: string };
}

/** `content` raised just now: Alertmanager holds an alert that starts in the future, or ended, differently. */
function now(content: AlertContent): AlertContent {
  return { ...content, createdAt: Date.now() };
}

async function post(target: ChannelTarget, content: AlertContent, context: SendContext) {
  const req = alertmanager.request(target, content, context);
  const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body });
  return { status: res.status, text: await res.text() };
}

/** The alerts Alertmanager holds active (a resolved alert is not listed at all). */
async function active(url: string): Promise<ListedAlert[]> {
  const res = await fetch(`${url}/api/v2/alerts?active=true&silenced=true&inhibited=true&unprocessed=true`);
  if (res.status !== 200) throw new Error(`GET /api/v2/alerts: ${res.status} ${await res.text()}`);
  return (await res.json()) as ListedAlert[];
}

/** Once Alertmanager lists alerts that `ready` accepts. */
function activeOnce(url: string, ready: (list: ListedAlert[]) => boolean): Promise<ListedAlert[]> {
  let last: ListedAlert[] = [];
  return waitFor(
    async () => {
      last = await active(url);
      return ready(last) ? last : undefined;
    },
    { what: 'the alerts expected in Alertmanager', show: () => `it listed ${JSON.stringify(last).slice(0, 1000)}` },
  );
}

const context = (): SendContext => ({
  nowSeconds: Math.floor(Date.now() / 1000),
  messageKey: 'msg_0mwrkt2Gf7Lq1Xc9Vb4',
});

t.test('Alertmanager shows the alert while the incident is open, and resolves it on recovery', async (t) => {
  if (!requireTools(t, 'alertmanager')) return;
  const am = await startAlertmanager(t);
  t.comment(`Alertmanager was ready ${am.startMs} ms after its start`);
  const target: ChannelTarget = {
    channelId: 'ch_0mwrm8k2vJd0SxQ5Tb1',
    type: 'alertmanager',
    url: am.url,
    secret: null,
    options: { labels: { team: 'data' } },
  };
  const fail = now(INCIDENT_FIXTURES.long_log);
  t.strictSame(await post(target, fail, context()), { status: 200, text: '' }, 'accepted');
  const [alert, ...others] = await activeOnce(am.url, (list) => list.length > 0);
  t.strictSame(others, [], 'one alert');
  t.strictSame(alert!.labels, {
    alertname: 'PingmonIncident',
    cause: 'fail',
    host: 'db-1',
    incident: 'inc_0mwxq3v2Hd8kPz5Rn4c',
    monitor: 'nightly backup',
    monitor_id: 'mon_0mwrksujegHscDsv5wx',
    severity: 'critical',
    slug: 'nightly-backup',
    team: 'data',
  });
  t.strictSame(alert!.annotations, {
    summary: 'nightly backup failed',
    description: fail.errorMessage,
    error_message: fail.errorMessage,
    log_snippet: fail.logSnippet,
    log_tail: fail.logTail,
    monitor_url: fail.links!.monitor,
    run_url: fail.links!.run,
  });
  t.equal(alert!.status.state, 'active');
  t.equal(Date.parse(alert!.startsAt), fail.createdAt);
  t.equal(alert!.generatorURL, 'https://pingmon.example.com/monitors/nightly-backup');

  const reminder = now({ ...fail, event: 'still_down', runId: null, errorMessage: 'Still down: 2 failed runs.' });
  t.equal((await post(target, reminder, context())).status, 200);
  const [merged, ...more] = await activeOnce(
    am.url,
    (list) => list[0]?.annotations.summary === 'nightly backup is still down',
  );
  t.strictSame(more, [], 'a reminder updates the same alert');
  t.equal(merged!.startsAt, alert!.startsAt, 'which still started with the incident');

  const recovered = now({
    ...fail,
    event: 'recovered',
    status: 'up',
    errorMessage: 'Up again: 1 failed run, down 2m.',
  });
  t.strictSame(await post(target, { ...recovered, logSnippet: null, logTail: null }, context()), {
    status: 200,
    text: '',
  });
  t.strictSame(
    await waitFor(() => active(am.url).then((list) => list.length === 0 && list)),
    [],
    'resolved: no alert is active',
  );
});

t.test('Alertmanager accepts every kind of alert as pingmon sends it, hostile and huge ones too', async (t) => {
  if (!requireTools(t, 'alertmanager')) return;
  const am = await startAlertmanager(t);
  const target: ChannelTarget = { channelId: 'ch_1', type: 'alertmanager', url: am.url, secret: null, options: {} };
  const monitors = Array.from({ length: 100 }, (_, i) => ({
    monitorId: `mon_${i}`,
    monitorName: `${'🔥'.repeat(100)}${i}`,
    expectedAt: null,
    errorMessage: `${'x'.repeat(498)}🔥`,
  }));
  const hostile = {
    ...INCIDENT_FIXTURES.fail,
    incidentKey: 'inc_hostile',
    monitorName: '<script>alert(1)</script> {{ .Labels }} "quoted" 🔥',
    errorMessage: '</x> ```\n\u0007 bell, <!channel>',
  };
  const sent = [
    INCIDENT_FIXTURES.fail,
    INCIDENT_FIXTURES.silent_failure,
    INCIDENT_FIXTURES.timed_out,
    INCIDENT_FIXTURES.missed,
    { ...INCIDENT_FIXTURES.missed_group, monitors },
    INCIDENT_FIXTURES.test,
    hostile,
  ].map(now);
  for (const content of sent) t.equal((await post(target, content, context())).status, 200, content.event);
  const list = await activeOnce(am.url, (all) => all.length === sent.length);
  const names = list.map((a) => a.labels.alertname).sort();
  t.strictSame(names, [
    'PingmonIncident',
    'PingmonIncident',
    'PingmonIncident',
    'PingmonIncident',
    'PingmonIncident',
    'PingmonSilentFailure',
    'PingmonTest',
  ]);
  const shown = list.find((a) => a.labels.incident === 'inc_hostile')!;
  t.equal(shown.labels.monitor, hostile.monitorName, 'a hostile name, as written');
  t.equal(shown.annotations.error_message, hostile.errorMessage);
  const group = list.find((a) => a.labels.incident === INCIDENT_FIXTURES.missed_group.incidentKey)!;
  t.equal(group.annotations.description.split('\n').length, 100, 'a grouped alert of 100 monitors, whole');
});

t.test(
  'through a pingmon server: a monitor that fails shows in Alertmanager, and its recovery resolves it',
  async (t) => {
    if (!requireTools(t, 'alertmanager')) return;
    const am = await startAlertmanager(t);
    // Real time: Alertmanager reads startsAt and endsAt against its own clock.
    const api = await TestServer.start(t, 'sqlite', { alertPollMs: 50, publicUrl: 'https://pingmon.example.com' });
    const account = await api.account();
    const channel = await api.request('/channels', {
      token: account.token,
      body: { type: 'alertmanager', name: 'alertmanager', url: am.url },
    });
    t.equal(channel.status, 201, channel.text);
    t.match(channel.body, { repeatEvery: null, hasSecret: false });
    const monitor = await api.request<{ monitorId: string }>('/monitors', {
      token: account.token,
      body: { name: 'nightly backup' },
    });
    const { monitorId } = monitor.body;
    await api.ping(account, monitorId, 'fail', { errorMessage: 'pg_dump: connection refused', host: 'db-1' });
    const [alert, ...others] = await activeOnce(am.url, (list) => list.length > 0);
    t.strictSame(others, [], 'one alert');
    t.match(alert, {
      labels: { alertname: 'PingmonIncident', monitor: 'nightly backup', slug: 'nightly-backup', cause: 'fail' },
      annotations: { error_message: 'pg_dump: connection refused' },
      generatorURL: 'https://pingmon.example.com/monitors/nightly-backup',
      status: { state: 'active' },
    });
    t.match(alert!.labels.incident, new RegExp(`^${monitorId}:\\d+$`), 'the incident names the monitor');
    await api.ping(account, monitorId, 'success', {});
    await activeOnce(am.url, (list) => list.length === 0);
    t.pass('resolved on recovery');
  },
);
