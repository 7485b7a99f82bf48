export * from './types.js';
export * from './limits.js';
export * from './slugs.js';
export * from './status-page.js';
export { SETTINGS_REFUSALS } from './ping-settings.js';
export { PingmonError, isAccessRefusal } from './errors.js';
export { ACCESS_ERROR_CODES, KEY_SCOPES, ROLES } from './vocabulary.js';
export { createPinger } from './pinger.js';
export type { PingerOptions, Pinger, SuccessOptions, FailOptions } from './pinger.js';
export { createClient } from './client.js';
export type { Client, ClientOptions } from './client.js';
export { newRunId } from './ids.js';
export {
  DURATION_FORMS,
  LONGEST_TIMER_MS,
  formatDuration,
  notADuration,
  parseDuration,
  parseDurationMs,
} from './durations.js';
export { Spool, defaultSpoolDir, SPOOL_MAX_AGE_MS, SPOOL_MAX_BYTES, SPOOL_MAX_PINGS } from './spool.js';
export type { SpooledPing, FlushReport, FlushOptions, Dropped } from './spool.js';
export {
  SpoolRetry,
  flushWithBackoff,
  spoolRetryWaitMs,
  SPOOL_RETRY_FOR_MS,
  SPOOL_RETRY_WAIT_MAX_MS,
} from './spool-retry.js';
export type { BackoffOptions } from './spool-retry.js';
export {
  DEFAULT_REDACT_PATTERN,
  REDACTED,
  REDACT_MIN_CHARS,
  Redactor,
  RedactingStream,
  redactPattern,
} from './redact.js';
export type { RedactOptions } from './redact.js';
