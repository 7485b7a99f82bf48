import {
  ERROR_MESSAGE_MAX_CHARS,
  HOST_MAX_CHARS,
  LOG_MAX_CHARS,
  META_KEY_MAX_CHARS,
  META_MAX_KEYS,
  RUN_ID_PATTERN,
  UNSTORABLE_TEXT,
  isStorable,
  storableText,
  truncate,
} from '@pingmon/sdk/wire';
import type { Meta, PingKind } from '@pingmon/sdk/wire';

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
}

export interface BodyError {
  code: 'invalid_json' | 'invalid_body' | 'invalid_meta' | 'invalid_run_id' | 'invalid_timestamp' | 'invalid_host';
  message: string;
}

export type ParsedBody = { ok: true; input: PingInput } | { ok: false; error: BodyError };

/**
 * Reads a raw ping body. JSON is accepted whatever the content type says (curl -d sends form encoding);
 * a fail ping sent as text/plain takes the whole body as its log.
 */
export function parsePingBody(
  kind: PingKind,
  contentType: string | undefined,
  raw: Buffer | string | null,
): ParsedBody {
  const text = raw === null ? '' : raw.toString();
  if (kind === 'fail' && contentType?.toLowerCase().startsWith('text/plain')) {
    return { ok: true, input: text === '' ? {} : { logOutput: storableText(text, LOG_MAX_CHARS) } };
  }
  if (text.trim() === '') return { ok: true, input: {} };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail(
      'invalid_json',
      'The request body is not valid JSON. Send a JSON object with Content-Type: application/json (or no body at all).',
    );
  }
  if (body === null) return { ok: true, input: {} };
  if (typeof body !== 'object' || Array.isArray(body)) {
    return fail('invalid_body', 'The request body must be a JSON object, e.g. {"meta": {"rows": 10}}.');
  }
  return readFields(kind, body as Record<string, unknown>);
}

function readFields(kind: PingKind, body: Record<string, unknown>): ParsedBody {
  const input: PingInput = {};
  if (body.runId !== undefined && body.runId !== null) {
    if (typeof body.runId !== 'string' || !RUN_ID_PATTERN.test(body.runId)) {
      return fail('invalid_run_id', 'runId must be 8 to 64 characters of letters, digits, "_" or "-" (a UUID works).');
    }
    input.runId = body.runId;
  }
  if (body.timestamp !== undefined && body.timestamp !== null) {
    const at = typeof body.timestamp === 'string' && ISO_TIME.test(body.timestamp) ? Date.parse(body.timestamp) : NaN;
    if (!Number.isFinite(at)) {
      return fail(
        'invalid_timestamp',
        'timestamp must be an ISO 8601 date-time with its offset, e.g. "2026-11-22T03:20:00.000Z".',
      );
    }
    input.timestamp = at;
  }
  if (body.host !== undefined && body.host !== null && body.host !== '') {
    const host = body.host;
    if (typeof host !== 'string' || host.length > HOST_MAX_CHARS || CONTROL.test(host) || !isStorable(host)) {
      return fail(
        'invalid_host',
        `host must be the name of the job's host: 1 to ${HOST_MAX_CHARS} characters without control characters ` +
          `(got ${shown(host)}); leave it out if there is none.`,
      );
    }
    input.host = host;
  }
  if (kind === 'start') return { ok: true, input };
  if (body.meta !== undefined && body.meta !== null) {
    const meta = readMeta(body.meta);
    if (!meta.ok) return meta;
    input.meta = meta.meta;
  }
  if (kind === 'success') return { ok: true, input };
  for (const field of ['errorMessage', 'logOutput'] as const) {
    const value = body[field];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string') return fail('invalid_body', `${field} must be a string.`);
    input[field] = storableText(value, field === 'errorMessage' ? ERROR_MESSAGE_MAX_CHARS : LOG_MAX_CHARS);
  }
  return { ok: true, input };
}

/** C0 and C1 control characters: a host name is shown in terminals and alerts as it is. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A timestamp as a ping must send it: an ISO 8601 date-time with its offset. */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

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
    return fail(
      'invalid_timestamp',
      `timestamp ${new Date(input.timestamp).toISOString()} is more than 7 days old: ` +
        'a ping is accepted up to 7 days after its time, and this one is not recorded.',
    );
  }
  return { ok: true, at: Math.min(input.timestamp, now) };
}

type MetaResult = { ok: true; meta: Meta } | { ok: false; error: BodyError };

function readMeta(value: unknown): MetaResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('invalid_meta', 'meta must be an object of numbers, e.g. {"rowsProcessed": 120}.');
  }
  const entries = Object.entries(value);
  if (entries.length > META_MAX_KEYS) {
    return fail('invalid_meta', `meta has ${entries.length} keys; at most ${META_MAX_KEYS} are allowed.`);
  }
  for (const [key, n] of entries) {
    if (key.length === 0 || key.length > META_KEY_MAX_CHARS) {
      return fail(
        'invalid_meta',
        `meta key "${key.slice(0, META_KEY_MAX_CHARS)}" must be 1 to ${META_KEY_MAX_CHARS} characters long.`,
      );
    }
    // A key is a name, matched by rules: refused like any other name the server keeps, never rewritten.
    if (!isStorable(key)) {
      return fail('invalid_meta', `meta key ${JSON.stringify(key)} must not contain ${UNSTORABLE_TEXT}.`);
    }
    if (typeof n !== 'number' || !Number.isFinite(n)) {
      return fail('invalid_meta', `meta.${key} must be a finite number (got ${shown(n)}).`);
    }
  }
  return { ok: true, meta: Object.fromEntries(entries) as Meta };
}

/**
 * A JSON value as a message names it: a number, a boolean or the start of a text as sent, an array or object by its
 * kind alone. Never serialized whole: it may be megabytes long, or nested deeper than JSON.stringify can recurse.
 */
function shown(value: unknown): string {
  if (typeof value === 'string') {
    return JSON.stringify(value.length > SHOWN_CHARS ? `${truncate(value, SHOWN_CHARS)}…` : value);
  }
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  return String(value);
}

const SHOWN_CHARS = 40;

function fail(code: BodyError['code'], message: string): { ok: false; error: BodyError } {
  return { ok: false, error: { code, message } };
}
