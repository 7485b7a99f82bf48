import { createPinger } from '@pingmon/sdk';
import type { PingMonitorSettings, PingmonError, RedactOptions } from '@pingmon/sdk';
import { LiveOutput } from './live.js';
import type { Outcome } from './outcome.js';

/** Where and how a run is reported. */
export interface ReportTo {
  monitorId: string;
  apiKey: string;
  url: string;
  /** How long each ping may take, retries included, before it goes to the spool. */
  pingBudgetMs: number;
  /** Called when a ping went to the spool (starts a background flush); none: the next run delivers it. */
  onSpooled: (() => void) | undefined;
  /** The monitor's settings, sent with the start (--cron, --grace…); undefined: none given. */
  settings: PingMonitorSettings | undefined;
  /** Send the output while the job runs (off with --no-live). */
  live: boolean;
  /** Which environment variables hold secrets (--redact-env, --redact-pattern), for the output and the failure. */
  redact: RedactOptions;
}

/** A run being reported: its start is on its way; `finish` sends the result. */
export interface Report {
  /** Takes the job's output while it runs and sends it, once its start is delivered; none with --no-live. */
  live: LiveOutput | undefined;
  /**
   * Resolves once start and result are delivered or given up on; never rejects (failures are warnings).
   * `redactions`: the secrets already redacted from the output, sent with those of the failure.
   */
  finish(outcome: Outcome, log: string, meta: Record<string, number>, redactions: number): Promise<void>;
}

/** Sends `start` at once, without waiting for it: the job does not wait for the server. */
export function startReport(to: ReportTo, warn: (message: string) => void): Report {
  const pinger = createPinger({
    monitorId: to.monitorId,
    apiKey: to.apiKey,
    baseUrl: to.url,
    retryBudgetMs: to.pingBudgetMs,
    timeoutMs: Math.min(10_000, to.pingBudgetMs),
    // Not the pinger's own retry timer: this process ends with the job, a detached flush outlives it.
    retrySpool: to.onSpooled ?? false,
    settings: to.settings,
    redact: to.redact,
    // Settings refused and spooled pings dropped: one [pingmon] line each.
    onError: (err) => warn(err.message),
  });
  let startError: PingmonError | undefined;
  const startPing = pinger.start();
  const live = to.live
    ? new LiveOutput(pinger.runId!, (chunk, signal) => pinger.output(chunk, { signal }), warn)
    : undefined;
  const started = startPing.then(
    () => live?.begin(),
    (err: PingmonError) => {
      startError = err;
      live?.stop();
      warn(err.message);
    },
  );
  return {
    live,
    async finish(outcome, log, meta, redactions) {
      // The last output before the result: a follower then reads the job's last lines.
      await live?.finish();
      // The result waits for a start still on its way, within the same --ping-timeout: pingmon ends at most
      // that long after the job, whatever the server does.
      const kind = outcome.kind === 'success' ? 'success' : 'fail';
      const result =
        outcome.kind === 'success'
          ? pinger.success({ meta, redactions })
          : pinger.fail({ message: outcome.failure, log, meta, redactions });
      const [, resultError] = await Promise.all([
        started,
        result.then(
          () => undefined,
          (err: PingmonError) => err,
        ),
      ]);
      if (resultError) warn(resultWarning(kind, resultError, startError));
    },
  };
}

/**
 * The result's warning. A result refused as its start was says so in a line of its own instead of repeating the
 * server's message: with the start refused, the result opens the run itself, so the same rule refuses it again.
 */
function resultWarning(kind: 'success' | 'fail', err: PingmonError, startError: PingmonError | undefined): string {
  const refusedAlike =
    startError !== undefined &&
    err.code !== 'spooled' &&
    startError.status > 0 &&
    startError.status === err.status &&
    startError.code === err.code;
  if (!refusedAlike) return err.message;
  const why =
    err.code === 'rate_limited'
      ? ' (rate_limited): with its start refused, the result opens the run itself, ' +
        "and the plan's interval had not passed"
      : `, for the same reason as the start (${err.code})`;
  return `the ${kind} was refused too${why}. This run is NOT recorded.`;
}
