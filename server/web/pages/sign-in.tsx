import type { FormEvent } from 'react';
import { useState } from 'react';
import type { SessionResponse } from '@pingmon/sdk/wire';
import { api, ApiError } from '../api.js';
import { useTitle } from '../title.js';

/**
 * Email and password, the same login as the API's; `notice` says why one is here (a session that ended). A user
 * with a second factor is asked for its code when the server says so, in a field of the same form.
 */
export function SignIn({
  notice,
  onSignedIn,
}: {
  notice: string | undefined;
  onSignedIn: (s: SessionResponse) => void;
}) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [needsCode, setNeedsCode] = useState(false);
  useTitle('Sign in');

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(
        await api<SessionResponse>('POST', 'auth/session', {
          email: form.get('email'),
          password: form.get('password'),
          code: needsCode ? form.get('code') : undefined,
        }),
      );
    } catch (err) {
      if (err instanceof ApiError && err.code === 'second_factor_required') setNeedsCode(true);
      else setError(err instanceof ApiError ? err.message : String(err));
      setBusy(false);
    }
  };

  return (
    <main className="sign-in" id="main">
      <h1>pingmon</h1>
      <form onSubmit={(e) => void submit(e)} aria-label="Sign in">
        {notice && !error && <p className="notice">{notice}</p>}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required autoFocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {needsCode && (
          <label>
            Code of your authenticator app, or a recovery code
            <input name="code" autoComplete="one-time-code" required autoFocus />
          </label>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
