import type { PingKind, RunStatus } from '@pingmon/sdk/wire';
import { statusOf } from './runs.js';
import type { Health } from './incidents.js';
import { afterOutcome, healthChanged } from './incidents.js';
import type { Scheduling } from './monitor-settings.js';
import { expectedAfterOpening } from './schedule.js';

/** What a ping's writes depend on, besides its monitor and its runs. */
export interface PingFacts {
  kind: PingKind;
  /** The time the ping stands for (a late ping's own). */
  at: number;
  /** When it arrived: health goes by arrival. */
  now: number;
  /** It carries its own time (sent again from a spool). */
  late: boolean;
  /** The plan's minimum time between run openings; 0 for none. */
  intervalMs: number;
}

/** The monitor's row as a ping reads it. */
export interface MonitorFacts extends Scheduling {
  ruleCount: number;
  lastOpenedAt: number | null;
}

/** What recording a run writes to its monitor's row, besides the run; null fields are left as they are. */
export interface MonitorWrites {
  expected: { nextExpectedAt: number; missedAt: number | null } | null;
  health: Health | null;
  /** The alert the health change raises. */
  event: 'fail' | 'recovered' | null;
}

/** How a ping is written: the lock it takes on its monitor's row, and what it can write without that lock. */
export interface PingPlan {
  /**
   * `no key update` where the ping may write the row, whatever its pairing turns out to be (a rate-limited opening
   * claims it); else `key share`, the lock its run's foreign key takes anyway.
   */
  lock: 'no key update' | 'key share';
  /**
   * Written without reading the row locked first: its run only; or its run and the monitor's next expected opening
   * (an opening on time, which only ever moves it later, so a conditional update needs no lock read). Null: the
   * ping needs the transaction (health, a rate limit, a late deadline, a log, rules).
   */
  alone: 'run' | 'run and expected' | null;
}

export function planPing(monitor: MonitorFacts, ping: PingFacts): PingPlan {
  const writes = monitorWrites(monitor, { status: statusOf(ping.kind), startedAt: ping.at }, 'opened', ping);
  const writesMonitor = ping.intervalMs > 0 || writes.expected !== null || writes.health !== null;
  const lock = writesMonitor ? 'no key update' : 'key share';
  // A failure may carry a log, and a success on a monitor with rules may match them (a silent failure's alert).
  if (ping.kind === 'fail' || (ping.kind === 'success' && monitor.ruleCount > 0)) return { lock, alone: null };
  if (!writesMonitor) return { lock, alone: 'run' };
  const onTime = ping.intervalMs === 0 && writes.health === null && !ping.late;
  return { lock, alone: onTime ? 'run and expected' : null };
}

/**
 * Where recording `run` leaves its monitor: an opening sets a scheduled monitor's next expected one (only ever later:
 * a late ping's opening is older than the one that set it), and a finished run its health. A paused monitor is left
 * as it is. A late opening (from a spool) never brings the deadline nearer: the fresh grace a gap gave is for the
 * whole spool, whose later runs are on their way behind it.
 */
export function monitorWrites(
  monitor: Scheduling,
  run: { status: RunStatus; startedAt: number },
  how: 'opened' | 'finished',
  ping: Pick<PingFacts, 'late' | 'now'>,
): MonitorWrites {
  const writes: MonitorWrites = { expected: null, health: null, event: null };
  if (monitor.paused) return writes;
  const next =
    how === 'opened' && monitor.schedule !== null ? expectedAfterOpening(monitor.schedule, run.startedAt) : null;
  if (next !== null && (monitor.nextExpectedAt === null || next > monitor.nextExpectedAt)) {
    const due = next + monitor.startGrace * 1000;
    const missedAt = ping.late && monitor.missedAt !== null ? Math.max(monitor.missedAt, due) : due;
    writes.expected = { nextExpectedAt: next, missedAt };
  }
  if (run.status !== 'running') {
    const after = afterOutcome(
      monitor.health,
      monitor,
      { kind: run.status === 'failed' ? 'fail' : 'success' },
      ping.now,
    );
    if (healthChanged(monitor.health, after.health)) writes.health = after.health;
    writes.event = after.alert as 'fail' | 'recovered' | null;
  }
  return writes;
}
