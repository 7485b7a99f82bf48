import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { flushWithBackoff, formatDuration } from '@pingmon/sdk';
import type { FlushReport, Spool } from '@pingmon/sdk';

/** Where a background flush says what it did: it has no terminal, and cron must not mail it. */
export const FLUSH_LOG = 'flush.log';

/**
 * What `pingmon run` calls each time a ping went to the spool: starts `pingmon flush --background`, detached
 * (a session of its own, no stdin, stdout or stderr of the job's), so that neither the job's exit nor cron's mail
 * waits for it. One per run while it lives; one started while another holds the spool ends at once.
 */
export function backgroundFlusher(cli: string, forMs: number, warn: (message: string) => void): () => void {
  let child: ChildProcess | undefined;
  return () => {
    if (child && child.exitCode === null && child.signalCode === null) return;
    child = spawn(process.execPath, [cli, 'flush', '--background', `${forMs}ms`], { detached: true, stdio: 'ignore' });
    child.on('error', (err) =>
      warn(`cannot start a background flush (${err.message}); the next \`pingmon run\` or \`pingmon flush\` will`),
    );
    child.unref();
  };
}

/**
 * The background flush itself: tries the spool with backoff for `forMs`, holding its lock, and writes one line per
 * change to `flush.log` in the spool (begun anew by each flush that gets the lock, so it stays a few lines long).
 * SIGTERM, SIGINT or SIGHUP stop it, the lock given back.
 */
export async function flushInBackground(spool: Spool, forMs: number): Promise<FlushReport> {
  const log = spoolLog(spool.dir);
  const stop = new AbortController();
  const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
  const abort = () => stop.abort();
  for (const signal of signals) process.on(signal, abort);
  let lastError: string | undefined;
  const startedAt = Date.now();
  try {
    const report = await flushWithBackoff(spool, {
      forMs,
      signal: stop.signal,
      onTry: (tried) => {
        const error = tried.error?.message;
        if (tried.delivered === 0 && tried.dropped.length === 0 && error === lastError) return;
        lastError = error;
        log(`delivered ${tried.delivered}, dropped ${tried.dropped.length}, left ${tried.left}`, error);
        for (const { file, reason } of tried.dropped) log(`dropped ${file}: ${reason}`);
        for (const { file, reason } of tried.withoutSettings) log(`${file}: ${reason}`);
      },
      onWindow: () => log(`pings were kept meanwhile: trying for ${formatDuration(forMs / 1000)} more`),
    });
    if (report.busy) return report;
    if (report.left === 0) log('the spool is empty');
    else if (stop.signal.aborted) log(`stopped by a signal; ${report.left} pings left`);
    else {
      const tried = formatDuration((Date.now() - startedAt) / 1000);
      log(`stopped trying after ${tried}; ${report.left} pings left for the next \`pingmon run\` or \`pingmon flush\``);
    }
    return report;
  } catch (err) {
    log(`failed: ${(err as Error).message}`);
    throw err;
  } finally {
    for (const signal of signals) process.off(signal, abort);
  }
}

/** A log of the spool's background flush; the first line written replaces the last flush's log. */
function spoolLog(dir: string): (line: string, error?: string) => void {
  let begun = false;
  return (line, error) => {
    const text = `${new Date().toISOString()} ${line}${error ? ` (${error})` : ''}\n`;
    try {
      if (begun) appendFileSync(join(dir, FLUSH_LOG), text);
      else writeFileSync(join(dir, FLUSH_LOG), text, { mode: 0o600 });
      begun = true;
    } catch {
      // Nowhere else to say it: the flush goes on without its log.
    }
  };
}
