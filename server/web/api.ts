import { LOGIN_ERROR_CODES } from '@pingmon/sdk/wire';

/** A refused or failed request: `status` 0 when the server could not be reached. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let signedOut: (message: string, code: string) => void = () => {};

/** Called when a request finds no session, or finds it gone (expired, signed out elsewhere, user deleted). */
export function onSignedOut(listener: (message: string, code: string) => void): void {
  signedOut = listener;
}

/**
 * One call of the JSON API. The session is the httpOnly cookie the browser sends by itself; the header is what the
 * server asks of every request signed in by it (docs/dashboard.md).
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'x-pingmon-request': '1' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`/api/v1/${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'unreachable', 'The pingmon server cannot be reached. Is it running?');
  }
  if (response.status === 204) return undefined as T;
  const data = (await response.json().catch(() => null)) as { code?: string; message?: string } | null;
  if (response.ok) return data as T;
  const code = data?.code ?? 'error';
  const message = data?.message ?? `The server answered ${response.status} ${response.statusText}.`;
  if (response.status === 401 && LOGIN_ERROR_CODES.has(code)) signedOut(message, code);
  throw new ApiError(response.status, code, message);
}

/** "a=1&b=x" of the defined values, with a leading "?", or "". */
export function query(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const id = encodeURIComponent;
