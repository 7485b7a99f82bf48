import type { FormEvent } from 'react';
import { useState } from 'react';
import type { SessionResponse } from '@pingmon/sdk/wire';
import { api, ApiError } from '../api.js';
import { useTitle } from '../title.js';

/** Email and password, the same login as the API's; `notice` says why one is here (a session that ended). */
export function SignIn({
  notice,
  onSignedIn,
}: {
  notice: string | undefined;
  onSignedIn: (s: SessionResponse) => void;
}) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
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
        }),
      );
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
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
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
