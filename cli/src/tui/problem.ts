import { LOGIN_ERROR_CODES } from '@pingmon/sdk/wire';
import { NotLoggedInError } from '../client.js';

/** Why the open view could not be loaded, in words that say what to do. */
export interface Problem {
  kind: 'unreachable' | 'login' | 'gone' | 'other';
  message: string;
}

export function problemOf(err: unknown, url: string): Problem {
  const { status, code, message } = (err ?? {}) as { status?: unknown; code?: unknown; message?: unknown };
  const text = typeof message === 'string' && message !== '' ? message : String(err);
  if (status === 0) {
    const timeout = code === 'timeout';
    return {
      kind: 'unreachable',
      message: `Cannot reach the pingmon server at ${url}${timeout ? ' (no answer in time)' : ''}.`,
    };
  }
  if (code === 'token_expired')
    return { kind: 'login', message: 'Your login has expired: run `pingmon login`, then press r.' };
  if (status === 401 || (typeof code === 'string' && LOGIN_ERROR_CODES.has(code))) {
    return { kind: 'login', message: 'The server did not accept your login: run `pingmon login`, then press r.' };
  }
  // The stored login is gone (pingmon logout in another terminal).
  if (err instanceof NotLoggedInError) return { kind: 'login', message: `${capitalise(text)}.` };
  if (status === 404) return { kind: 'gone', message: text };
  return { kind: 'other', message: text };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
