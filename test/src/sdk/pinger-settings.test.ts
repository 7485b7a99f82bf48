import t from 'tap';
import { createPinger, Spool } from '@pingmon/sdk';
import type { PingMonitorSettings, PingmonError } from '@pingmon/sdk';
import { TestServer } from '../helpers/server.js';
import { json, startReceiver } from '../helpers/receiver.js';

process.env.XDG_STATE_HOME = t.testdir();

t.test('createPinger({ monitor, settings }) makes and keeps the monitor as its settings say', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const baseUrl = api.url.replace('/api/v1', '');
  const show = (ref: string) => api.request(`/monitors/${ref}`, { token: account.token });
  const pinger = (monitor: string, settings: PingMonitorSettings | undefined, errors: PingmonError[] = []) =>
    createPinger({ monitor, settings, apiKey: account.apiKey, baseUrl, spool: false, onError: (e) => errors.push(e) });

  t.test('the first start creates the monitor; its result finds it', async (t) => {
    const settings = { name: 'Nightly backup', schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' } };
    const mon = pinger('nightly-backup', settings);
    const started = await mon.start();
    const { body: monitor } = await show('nightly-backup');
    t.match(monitor, { ...settings, slug: 'nightly-backup' });
    t.equal(started.monitorId, monitor.monitorId);
    t.equal((await mon.success()).status, 'success');
    t.equal((await pinger('nightly-backup', { ...settings, startGrace: 900 }).start()).status, 'running');
    t.equal((await show('nightly-backup')).body.startGrace, 900, 'a later pinger updates what differs');
  });

  t.test('a result alone carries the settings: the job that only reports its end', async (t) => {
    const ack = await pinger('end-only', { schedule: { every: 3600 } }).success({ meta: { rows: 1 } });
    t.equal(ack.status, 'success');
    t.match((await show('end-only')).body, { name: 'end-only', schedule: { every: 3600 } });
  });

  t.test('refused settings are reported once, and the pings go without them', async (t) => {
    const errors: PingmonError[] = [];
    await api.monitor(account, 'known job');
    const mon = pinger('known-job', { startGrace: -5 }, errors);
    t.equal((await mon.start()).status, 'running');
    t.equal((await mon.success()).status, 'success');
    t.equal((await mon.start()).status, 'running');
    t.equal(errors.length, 1);
    t.equal(errors[0]!.code, 'invalid_settings');
    t.match(errors[0]!.message, /startGrace must be a whole number .*The ping is sent without the settings\.$/);
    t.equal((await show('known-job')).body.startGrace, 300, 'unchanged');
  });

  t.test('a spooled ping whose settings are refused is delivered without them', async (t) => {
    await api.monitor(account, 'spooled job');
    const spool = new Spool(t.testdir());
    const timestamp = new Date().toISOString();
    const body = { runId: 'spooled-run-1', timestamp, monitor: { maxRuntime: 0 } };
    await spool.add({ url: baseUrl, apiKey: account.apiKey, monitorId: 'spooled-job', kind: 'start', body });
    const report = await spool.flush();
    t.match(report, { delivered: 1, dropped: [] });
    const runs = await api.request('/monitors/spooled-job/runs', { token: account.token });
    t.equal(runs.body.runs[0].runId, 'spooled-run-1');
    t.equal((await show('spooled-job')).body.maxRuntime, null);
  });

  t.test('monitorId is still accepted, and one of the two is needed', async (t) => {
    const monitorId = await api.monitor(account, 'by id');
    const mon = createPinger({ monitorId, apiKey: account.apiKey, baseUrl, spool: false });
    t.equal((await mon.start()).monitorId, monitorId);
    t.throws(() => createPinger({ apiKey: account.apiKey, baseUrl }), /needs a monitor: its slug .* or its id/);
  });
});

t.test('settings go with each start and with a result whose run the pinger did not start', async (t) => {
  const receiver = await startReceiver(t, (_req, _n, res) =>
    json(res, 200, { success: true, data: { received: true, monitorId: 'mon_x', runId: 'r', status: 'running' } }),
  );
  const settings = { schedule: { every: 60 } };
  const mon = createPinger({ monitor: 'job', settings, apiKey: 'pm_x', baseUrl: receiver.url, spool: false });
  await mon.start();
  await mon.success();
  await mon.fail({ message: 'no start' });
  t.same(
    receiver.received.map((r) => [r.url, (JSON.parse(r.body) as { monitor?: unknown }).monitor]),
    [
      ['/api/v1/ping/job/start', settings],
      ['/api/v1/ping/job/success', undefined],
      ['/api/v1/ping/job/fail', settings],
    ],
  );
});

t.test('a result asked for at once, while its start is on its way, carries no settings', async (t) => {
  const receiver = await startReceiver(t, (_req, _n, res) =>
    json(res, 200, { success: true, data: { received: true, monitorId: 'mon_x', runId: 'r', status: 'running' } }),
  );
  const settings = { schedule: { every: 60 } };
  const mon = createPinger({ monitor: 'job', settings, apiKey: 'pm_x', baseUrl: receiver.url, spool: false });
  // A job over at once: `pingmon run -- true` asks for its result before the start has left.
  await Promise.all([mon.start(), mon.success()]);
  t.same(
    receiver.received.map((r) => [r.url, (JSON.parse(r.body) as { monitor?: unknown }).monitor]),
    [
      ['/api/v1/ping/job/start', settings],
      ['/api/v1/ping/job/success', undefined],
    ],
  );
});
