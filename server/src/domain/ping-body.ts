import type { Meta } from '@pingmon/sdk/wire';
import type { PingSettings } from './monitor-settings.js';

/** What a ping sends besides its kind: its body after validation and truncation (DESIGN §5). */
export interface PingInput {
  runId?: string;
  /** The host the job runs on, as the wrapper or the SDK named it. */
  host?: string;
  /** The ping's own time (epoch ms), as sent: a late ping's (DESIGN §14); see pingTime. */
  timestamp?: number;
  meta?: Meta;
  errorMessage?: string;
  logOutput?: string;
  /** How many secrets the client replaced with [redacted] before sending (a result's). */
  redactions?: number;
  /** The monitor's settings, to create or update it with (docs/api.md#monitor-settings-in-a-ping). */
  monitor?: PingSettings;
}

export interface BodyError {
  code:
    | 'invalid_json'
    | 'invalid_body'
    | 'invalid_meta'
    | 'invalid_run_id'
    | 'invalid_timestamp'
    | 'invalid_host'
    | 'invalid_settings';
  message: string;
}

/** A ping body read: what it sends, or why it is refused. */
export type ParsedBody = { ok: true; input: PingInput } | { ok: false; error: BodyError };

/** How late a ping may arrive with its own timestamp (a job host's spool, DESIGN §14). */
export const LATE_PING_MAX_MS = 7 * 24 * 3600 * 1000;

/**
 * The time a ping stands for: its own timestamp if it sent one, else `now`, its arrival. A timestamp ahead
 * of the server's clock (a job host's clock running fast) is taken as `now`: nothing is recorded in the
 * future. One older than LATE_PING_MAX_MS is refused.
 */
export function pingTime(input: PingInput, now: number): { ok: true; at: number } | { ok: false; error: BodyError } {
  if (input.timestamp === undefined) return { ok: true, at: now };
  if (now - input.timestamp > LATE_PING_MAX_MS) {
    return refuse(
      'invalid_timestamp',
      `timestamp ${new Date(input.timestamp).toISOString()} is more than 7 days old: ` +
        'a ping is accepted up to 7 days after its time, and this one is not recorded.',
    );
  }
  return { ok: true, at: Math.min(input.timestamp, now) };
}

export function refuse(code: BodyError['code'], message: string): { ok: false; error: BodyError } {
  return { ok: false, error: { code, message } };
}
