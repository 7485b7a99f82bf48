import knexFactory from 'knex';

/**
 * The database cannot be reached or used at the moment (stopped, restarting, unreachable, locked by another
 * process, its disk failing). Retrying later can succeed; the API answers it with 503.
 */
export class DatabaseUnavailableError extends Error {}

/** The error as DatabaseUnavailableError when it means an outage; any other error unchanged. */
export type AsOutage = (err: unknown) => unknown;

/** Node's codes for a connection that could not be made or was lost. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATEs of a PostgreSQL server that is stopping, starting or full; class 08 (connection exceptions) too. */
const POSTGRES_STATES: Readonly<Record<string, string>> = {
  '57P01': 'admin_shutdown',
  '57P02': 'crash_shutdown',
  '57P03': 'cannot_connect_now',
  '53300': 'too_many_connections',
};

/**
 * SQLite: busy or locked once the wait for another process's lock is over; the file cannot be opened, read
 * or written (I/O error, disk full, moved or made read-only under the server). Corruption is not an outage.
 */
const SQLITE_CODES = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY)(_|$)/;

/**
 * Why `err` means the database is unavailable, in a few words for the log; undefined when it means something
 * else (a bug, a constraint). Decided by the driver's code, never by the message, which knex rewrites.
 */
export function outageCause(err: unknown): string | undefined {
  if (err instanceof knexFactory.KnexTimeoutError) return 'no connection to the database came free in time';
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== 'string') return undefined;
  if (NETWORK_CODES.has(code)) return typeof message === 'string' ? message : code;
  const state = POSTGRES_STATES[code] ?? (/^08[0-9A-Z]{3}$/.test(code) ? 'connection_exception' : undefined);
  if (state) return `PostgreSQL error ${code} (${state})`;
  if (!SQLITE_CODES.test(code)) return undefined;
  const holder = code.startsWith('SQLITE_BUSY') ? ' (another process holds the write lock)' : '';
  return `${code}: ${String(message)}${holder}`;
}

/**
 * Turns driver errors that mean an outage into DatabaseUnavailableError, naming the database. `lost` holds
 * what the driver said of connections it lost or could not make: those errors have no code, and are known
 * by where they came from (the connection's error event, a failed connection attempt) instead.
 */
export function outageClassifier(location: string, lost?: WeakMap<object, string>): AsOutage {
  return (err) => {
    if (err instanceof DatabaseUnavailableError) return err;
    const cause = (typeof err === 'object' && err !== null ? lost?.get(err) : undefined) ?? outageCause(err);
    return cause === undefined ? err : unavailable(location, cause, err);
  };
}

export function unavailable(location: string, reason: string, cause: unknown): DatabaseUnavailableError {
  return new DatabaseUnavailableError(`cannot use the database at ${location}: ${reason}`, { cause });
}
