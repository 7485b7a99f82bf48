import type { FormEvent } from 'react';
import { useEffect, useState } from 'react';
import type { SessionResponse, SignInMethods } from '@pingmon/sdk/wire';
import { api, ApiError } from '../api.js';
import { useTitle } from '../title.js';

/** How this server signs people in; until it says, a password (and if it cannot say, a password still). */
export function useSignInMethods(): SignInMethods | undefined {
  const [methods, setMethods] = useState<SignInMethods>();
  useEffect(() => {
    api<SignInMethods>('GET', 'auth/methods').then(setMethods, () => setMethods({ password: true, provider: null }));
  }, []);
  return methods;
}

/** The identity provider's button: a plain link, so the browser goes there and comes back to this very page. */
export function ProviderButton({
  provider,
  next = window.location.pathname + window.location.search,
}: {
  provider: NonNullable<SignInMethods['provider']>;
  next?: string;
}) {
  return (
    <a className="button-link primary" href={`${provider.start}?next=${encodeURIComponent(next)}`}>
      Sign in with {provider.name}
    </a>
  );
}

/**
 * Email and password, the same login as the API's, and the identity provider's button when the server has one;
 * `notice` says why one is here (a session that ended). A user with a second factor is asked for its code when the
 * server says so, in a field of the same form.
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
  const methods = useSignInMethods();
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

  const notices = (
    <>
      {notice && !error && <p className="notice">{notice}</p>}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </>
  );
  if (!methods) return <main className="sign-in" id="main" aria-busy="true" />;
  return (
    <main className="sign-in" id="main">
      <h1>pingmon</h1>
      {methods.provider && (
        <div className="provider">
          {!methods.password && notices}
          <ProviderButton provider={methods.provider} />
        </div>
      )}
      {methods.password && (
        <form onSubmit={(e) => void submit(e)} aria-label="Sign in">
          {notices}
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
      )}
    </main>
  );
}
