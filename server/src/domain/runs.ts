import type { MatchedRule, PingKind, RunStatus } from '@pingmon/sdk/wire';
import { fingerprint } from './fingerprint.js';
import type { PingInput } from './ping-body.js';

/** A run as the server holds it; times are epoch milliseconds. */
export interface RunRecord {
  runId: string;
  monitorId: string;
  accountId: string;
  status: RunStatus;
  startedAt: number;
  finishedAt: number | null;
  durationMs: number | null;
  meta: Record<string, number>;
  errorMessage: string | null;
  hasLog: boolean;
  /** The alert rules a success matched (a silent failure); null when none did. */
  matchedRules: MatchedRule[] | null;
  /** The host of the ping that opened the run, if it named one. */
  host: string | null;
  /** A failed run's fingerprint (domain/fingerprint.ts); null for any other. */
  fingerprint: string | null;
  /** How many secrets the client redacted from what it sent of the run (docs/cli.md#secrets-stay-on-the-host). */
  redactions: number;
}

export function statusOf(kind: PingKind): RunStatus {
  return kind === 'start' ? 'running' : kind === 'success' ? 'success' : 'failed';
}

// newRun and finishedRun build their records field by field, on purpose: object spreads here
// deoptimised the ping path (it ran a quarter slower, measured with npm run bench).

/** A run opened by a ping at `now`: running for a start, already finished (no duration) for a result. */
export function newRun(
  ids: { accountId: string; monitorId: string; runId: string },
  kind: PingKind,
  input: PingInput,
  now: number,
): RunRecord {
  const finished = kind !== 'start';
  const failed = kind === 'fail';
  return {
    runId: ids.runId,
    monitorId: ids.monitorId,
    accountId: ids.accountId,
    status: statusOf(kind),
    startedAt: now,
    finishedAt: finished ? now : null,
    durationMs: null,
    meta: (finished && input.meta) || {},
    errorMessage: failed ? (input.errorMessage ?? null) : null,
    hasLog: failed && Boolean(input.logOutput),
    matchedRules: null,
    host: input.host ?? null,
    fingerprint: failed ? fingerprint(input.errorMessage ?? null, input.logOutput ?? null) : null,
    redactions: finished ? (input.redactions ?? 0) : 0,
  };
}

/** `run` finished by a success or fail ping at `now`. */
export function finishedRun(run: RunRecord, kind: PingKind, input: PingInput, now: number): RunRecord {
  const failed = kind === 'fail';
  return {
    runId: run.runId,
    monitorId: run.monitorId,
    accountId: run.accountId,
    status: statusOf(kind),
    startedAt: run.startedAt,
    // A late result's time comes from the job host's clock, and its start's may not: never before the start.
    finishedAt: Math.max(now, run.startedAt),
    durationMs: Math.max(0, now - run.startedAt),
    meta: input.meta ?? run.meta,
    errorMessage: failed ? (input.errorMessage ?? null) : null,
    hasLog: failed && Boolean(input.logOutput),
    matchedRules: null,
    host: run.host,
    fingerprint: failed ? fingerprint(input.errorMessage ?? null, input.logOutput ?? null) : null,
    redactions: input.redactions ?? 0,
  };
}
