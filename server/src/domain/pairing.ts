import type { PingKind } from '@pingmon/sdk/wire';
import type { RunRecord } from './runs.js';

/** What a ping does to its monitor's runs (DESIGN §5). */
export type Pairing =
  | { action: 'open' }
  | { action: 'finish'; run: RunRecord }
  /** Changes nothing: answered with the run as it is. */
  | { action: 'replay'; run: RunRecord }
  | { action: 'rate_limited'; retryAfterSeconds: number };

/** What pairing looks at, read in the ping's transaction. */
export interface PairingState {
  /** The run the ping names by runId, if the monitor has it. */
  existing: RunRecord | undefined;
  /** The monitor's most recently started running run (only looked up for a result without runId). */
  open: RunRecord | undefined;
  /** When the monitor last opened a run. */
  lastOpenedAt: number | null;
  /** The plan's minimum time between two run openings of the monitor; 0 for none. */
  intervalMs: number;
  /** Whether the ping carries its own time (a late ping, sent again from a spool): `now` is that time. */
  late: boolean;
}

/**
 * Run pairing: a ping naming a run that exists finishes it if it is a result and the run is running, and
 * is a replay otherwise; a result without runId finishes the open run; anything else opens a run, unless
 * the monitor opened one within the rate limit. Finishing and replays are never rate limited.
 */
export function pairPing(kind: PingKind, runIdGiven: boolean, state: PairingState, now: number): Pairing {
  const { existing } = state;
  if (existing) {
    const replay = kind === 'start' || existing.status !== 'running';
    return replay ? { action: 'replay', run: existing } : { action: 'finish', run: existing };
  }
  if (!runIdGiven && kind !== 'start' && state.open) return { action: 'finish', run: state.open };
  // A late ping older than the monitor's last opening: limited by the runs around its time, when it opens.
  // (A ping on time older than it, from another server a moment earlier, meets the rate limit as any other.)
  if (state.late && state.lastOpenedAt !== null && now < state.lastOpenedAt) return { action: 'open' };
  const rate = rateDecision(state.lastOpenedAt, state.intervalMs, now);
  return rate.allowed ? { action: 'open' } : { action: 'rate_limited', retryAfterSeconds: rate.retryAfterSeconds };
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * The gap actually enforced between two run openings: the plan's interval less a tolerance of 10%
 * (at most 5 s), so that a job scheduled exactly once per interval is never refused for cron's jitter.
 */
export function enforcedIntervalMs(intervalMs: number): number {
  return intervalMs - Math.min(5_000, Math.floor(intervalMs / 10));
}

/** Whether a monitor whose last run opened at `lastOpenedAt` may open another at `now`. */
export function rateDecision(lastOpenedAt: number | null, intervalMs: number, now: number): RateDecision {
  const gap = enforcedIntervalMs(intervalMs);
  if (gap <= 0 || lastOpenedAt === null || now - lastOpenedAt >= gap) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((lastOpenedAt + gap - now) / 1000)) };
}
