import type { Test } from 'tap';
import type { DatabaseKind } from '../helpers/databases.js';
import { knexOf } from '../helpers/databases.js';
import { startReceiver } from '../helpers/receiver.js';
import { waitFor } from '../helpers/wait.js';
import { seeded } from './fuzz.js';
import { JobHost } from './job-host.js';
import { api } from './load.js';
import type { FaultKind, FaultLengths, FaultRecord } from './restarts.js';
import { fault, faultOrder } from './restarts.js';
import type { Setup } from './scenarios.js';
import { withServer } from './scenarios.js';
import { countLine, dueBy, falseAlerts } from './verdict.js';
import type { Alert } from './verdict.js';

// The false-alert scenario of the standing fault suite (issue 25): scheduled monitors fed by real `pingmon run`
// processes on two job hosts, the server restarted (and its database taken away) at seeded random moments around
// the slots, a local webhook receiving every alert. No alert may fire for a slot whose job ran, and the one job
// this scenario stops must still be reported within its grace, or the fresh grace after a gap (docs/schedules.md).

export interface FalseAlertOptions extends FaultLengths {
  monitors: number;
  everySeconds: number;
  startGraceSeconds: number;
  maxRuntimeSeconds: number;
  /** PINGMON_SWEEP_INTERVAL. */
  sweepSeconds: number;
  faults: number;
  /** Stop the first monitor's job around one of the faults (its alert then waits for a fresh grace), or after. */
  stopJob: 'among-faults' | 'after-faults';
  seed: number;
}

export interface FalseAlertResult {
  slots: number;
  runs: number;
  /** Runs that kept a ping in their host's spool; every run stored in the end. */
  spooledRuns: number;
  storedRuns: number;
  /** Runs whose `pingmon run` did not exit 0 (the jobs all do). */
  failedRuns: number;
  faults: FaultRecord[];
  alerts: Alert[];
  falseAlerts: Alert[];
  /** The stopped job's `missed` alert, the run it was for, and by when the contract says it must come. */
  stopped: { alert: Alert | undefined; expectedAt: number; dueBy: number };
  seconds: number;
}

/** Alert delivery and the sweeps around a deadline: slack on top of the documented bound. */
const slackMs = (sweepSeconds: number) => 2 * sweepSeconds * 1000 + 5_000;

export function falseAlertScenario(kind: DatabaseKind, options: FalseAlertOptions): Promise<FalseAlertResult> {
  const env = { PINGMON_SWEEP_INTERVAL: String(options.sweepSeconds), PINGMON_ALERT_RETRY_BASE: '1' };
  return withServer(kind, options.monitors, (setup) => scheduledLoad(setup, options), { withOutage: true, env });
}

async function scheduledLoad(setup: Setup, options: FalseAlertOptions): Promise<FalseAlertResult> {
  const began = performance.now();
  const { server, account } = setup;
  const { alerts, hosts } = await scheduledMonitors(setup, options);
  const load = new SlotLoad(hosts, account.monitorIds, options);
  const faults = await faultsAroundSlots(setup, load, options);
  const [stoppedId] = account.monitorIds as [string];
  const lastStarts = () => new Map(account.monitorIds.map((id) => [id, hostLastStart(hosts, id)]));
  // Its alert, not a false one about a slot it ran.
  const stopped = () =>
    alerts.find(
      (a) =>
        a.event === 'missed' && a.monitorId === stoppedId && !falseAlerts([a], lastStarts(), options.everySeconds)[0],
    );
  // Bounded by the longest the contract allows: the job's slot, then a fresh grace after the last fault.
  const stoppedWaitMs = (options.everySeconds + Math.max(options.startGraceSeconds, 120)) * 1000;
  const stoppedWait = { timeoutMs: stoppedWaitMs + slackMs(options.sweepSeconds), what: 'the missed alert' };
  await waitFor(stopped, stoppedWait).catch(() => undefined);
  const spooled = () => hosts.every((host) => host.spooled() === 0);
  await waitFor(spooled, { timeoutMs: 60_000, what: 'the spools to be empty' });
  const results = (await load.end()).flat();
  await waitFor(spooled, { timeoutMs: 60_000, what: 'the spools to be empty' });
  await allDelivered(server.url, account.token, alerts);

  const alert = stopped();
  // The stopped job's next run was expected a slot after its last opening, as the server recorded it.
  const last = (await api(server.url, 'GET', `/monitors/${stoppedId}/runs?limit=1`, account.token)) as {
    runs: Array<{ startedAt: string }>;
  };
  const expectedAt = Date.parse(last.runs[0]!.startedAt) + options.everySeconds * 1000;
  return {
    ...{ slots: load.slots, runs: results.length, faults, alerts },
    spooledRuns: results.filter((r) => /kept in the spool/.test(r.stderr)).length,
    storedRuns: await storedRuns(setup),
    failedRuns: results.filter((r) => r.code !== 0).length,
    falseAlerts: falseAlerts(alerts, lastStarts(), options.everySeconds),
    stopped: { alert, expectedAt, dueBy: dueBy(expectedAt, faults, options) + slackMs(options.sweepSeconds) },
    seconds: (performance.now() - began) / 1000,
  };
}

/** The monitors scheduled, a webhook channel to a local receiver, and the two job hosts. */
async function scheduledMonitors({ server, account, cleanup }: Setup, options: FalseAlertOptions) {
  const alerts: Alert[] = [];
  const receiver = await startReceiver(cleanup, (req, _n, res) => {
    alerts.push({ ...(JSON.parse(req.body) as Omit<Alert, 'receivedAt'>), receivedAt: Date.now() });
    res.end();
  });
  const channel = { type: 'webhook', name: 'false alerts', url: `${receiver.url}/hook` };
  await api(server.url, 'POST', '/channels', account.token, channel);
  const schedule = { every: options.everySeconds };
  const settings = { schedule, startGrace: options.startGraceSeconds, maxRuntime: options.maxRuntimeSeconds };
  for (const id of account.monitorIds) await api(server.url, 'PATCH', `/monitors/${id}`, account.token, settings);
  const hosts = [0, 1].map(() => new JobHost(server.url, account.apiKey));
  for (const host of hosts) cleanup.teardown(() => host.close());
  return { alerts, hosts };
}

function hostLastStart(hosts: JobHost[], monitorId: string): number {
  return Math.max(...hosts.flatMap((host) => host.startedAt.get(monitorId) ?? []));
}

/** crontab's part: every monitor's job started at each slot, on its host, the stopped one up to its last. */
class SlotLoad {
  readonly t0 = Date.now() + 1_000;
  slots = 0;
  stopFrom = Number.POSITIVE_INFINITY;
  private ended = false;
  private readonly loop: Promise<void>;
  private readonly random: () => number;

  constructor(
    private readonly hosts: JobHost[],
    private readonly monitorIds: string[],
    private readonly options: FalseAlertOptions,
  ) {
    this.random = seeded(options.seed + 1);
    this.loop = this.run();
  }

  slotAt(slot: number): number {
    return this.t0 + slot * this.options.everySeconds * 1000;
  }

  /** The first slot at or after `at`. */
  slotFrom(at: number): number {
    return Math.max(0, Math.ceil((at - this.t0) / (this.options.everySeconds * 1000)));
  }

  async end(): Promise<Array<Awaited<ReturnType<JobHost['finished']>>>> {
    this.ended = true;
    await this.loop;
    return Promise.all(this.hosts.map((host) => host.finished()));
  }

  private async run(): Promise<void> {
    for (let slot = 0; ; slot++) {
      await untilTime(this.slotAt(slot));
      if (this.ended) return;
      this.slots++;
      this.monitorIds.forEach((monitorId, i) => {
        // Jobs of 0.1 to 1.5 s: results as well as starts meet the faults.
        const seconds = 0.1 + this.random() * 1.4;
        if (i > 0 || slot < this.stopFrom) this.hosts[i % this.hosts.length]!.run(monitorId, seconds);
      });
    }
  }
}

/** The faults, one after the other, each begun up to 1.5 s before or after a slot one or two slots ahead. */
async function faultsAroundSlots(setup: Setup, load: SlotLoad, options: FalseAlertOptions): Promise<FaultRecord[]> {
  const random = seeded(options.seed);
  const kinds: FaultKind[] = faultOrder(options.faults, random);
  const stopAt = options.stopJob === 'among-faults' ? Math.floor(random() * kinds.length) : kinds.length;
  const records: FaultRecord[] = [];
  for (const [i, kind] of kinds.entries()) {
    const slot = load.slotFrom(Date.now()) + 1 + Math.floor(random() * 2);
    const offsetMs = (random() * 2 - 1) * Math.min(1_500, (options.everySeconds * 1000) / 2);
    if (i === stopAt) load.stopFrom = slot;
    await untilTime(load.slotAt(slot) + offsetMs);
    records.push(await fault(kind, options, setup.server, setup.database, setup.outage!));
  }
  if (stopAt === kinds.length) load.stopFrom = load.slotFrom(Date.now()) + 1;
  return records;
}

/** Pacing: the scheduled load waits for its next moment. */
function untilTime(at: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
}

/** Waits until the receiver has every alert the server lists (the outbox drained). */
async function allDelivered(url: string, token: string, alerts: Alert[]): Promise<void> {
  await waitFor(
    async () => {
      const listed = (await api(url, 'GET', '/alerts?limit=200', token)) as { alerts: Array<{ alertId: string }> };
      const received = new Set(alerts.map((a) => a.alertId));
      return listed.alerts.every((a) => received.has(a.alertId));
    },
    { timeoutMs: 30_000, intervalMs: 200, what: 'every alert delivered to the webhook' },
  );
}

async function storedRuns({ database }: Setup): Promise<number> {
  const knex = knexOf(database);
  try {
    const [row] = (await knex('runs').count({ n: '*' })) as Array<{ n: number | string }>;
    return Number(row!.n);
  } finally {
    await knex.destroy();
  }
}

/** The scenario's figures, as npm run soak prints them. */
export function falseAlertFigures(result: FalseAlertResult, seed: number): string[] {
  const { alert, expectedAt, dueBy } = result.stopped;
  const at = (ms: number) => new Date(ms).toISOString().slice(11, 23);
  const fault = (f: FaultRecord) => `${f.kind} ${at(f.beganAt)}+${((f.endedAt - f.beganAt) / 1000).toFixed(1)}s`;
  const stopped = alert
    ? `reported ${((alert.receivedAt - expectedAt) / 1000).toFixed(1)} s after its expected run ` +
      `(bound ${((dueBy - expectedAt) / 1000).toFixed(1)} s${alert.serverGap ? ', naming a gap' : ''})`
    : `NOT reported by ${at(dueBy)}`;
  return [
    `seed ${seed}: ${result.slots} slots, ${result.runs} runs (${result.spooledRuns} spooled a ping), ` +
      `${result.storedRuns} stored, ${result.failedRuns} failed; ${result.seconds.toFixed(0)} s`,
    `faults: ${countLine(result.faults.map((f) => f.kind))}: ${result.faults.map(fault).join(', ')}`,
    `alerts: ${countLine(result.alerts.map((a) => a.event))}; false: ${result.falseAlerts.length}`,
    ...result.alerts.map(
      (a) =>
        `  ${result.falseAlerts.includes(a) ? 'FALSE ' : ''}${a.event} ${a.monitorId} ` +
        `${a.expectedAt ? `expected ${at(Date.parse(a.expectedAt))}` : (a.runId ?? '')} received ${at(a.receivedAt)}`,
    ),
    `stopped job: ${stopped}`,
  ];
}

/**
 * The scenario as the suite runs it, small: a minute of 3 s slots, five faults (each kind once), the stopped job
 * stopped after them. One file per database (false-alerts-*.test.ts): its slots are real time, about 75 s, and
 * under a loaded run several times that, so each database has a file's budget of its own.
 */
export async function falseAlertTest(t: Test, kind: DatabaseKind): Promise<void> {
  const seed = Number(process.env.SOAK_SEED ?? Date.now() % 2 ** 31);
  const result = await falseAlertScenario(kind, {
    ...{ monitors: 4, everySeconds: 3, startGraceSeconds: 5, maxRuntimeSeconds: 20, sweepSeconds: 0.5 },
    ...{ faults: 5, shortGapMs: 2_000, longGapMs: 6_000, outageMs: 6_000, stopJob: 'after-faults', seed },
  });
  for (const line of falseAlertFigures(result, seed)) t.comment(line);
  t.equal(result.faults.length, 5, 'every fault happened');
  t.ok(result.spooledRuns > 0, 'some runs kept their pings in the spool');
  t.equal(result.failedRuns, 0, 'every job exited 0');
  t.equal(result.storedRuns, result.runs, 'every run stored in the end');
  t.same(result.falseAlerts, [], 'no false fail, missed or timed_out alert');
  const { alert, dueBy } = result.stopped;
  t.ok(alert, 'the job that stopped is reported missed');
  t.ok(alert && alert.receivedAt <= dueBy, 'within its grace (or a fresh grace after a fault) and the sweep');
}
