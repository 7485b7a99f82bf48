import type { FormEvent } from 'react';
import { useEffect, useState } from 'react';
import type { InviteInfo, SessionResponse } from '@pingmon/sdk/wire';
import { api, ApiError } from '../api.js';
import { navigate } from '../router.js';
import { useTitle } from '../title.js';
import { ProviderButton, useSignInMethods } from './sign-in.js';

/**
 * An invite link (`/invite#<token>`): the address and role it is for, and a password to set. Accepting makes the
 * user; signing in with the new password then opens the dashboard's session. Where passwords are turned off, the
 * identity provider's sign-in honours the invite. The token stays after the #: it never reaches a server's log.
 */
export function AcceptInvite({ onSignedIn }: { onSignedIn: (s: SessionResponse) => void }) {
  useTitle('Accept the invite');
  const token = window.location.hash.slice(1);
  const [invite, setInvite] = useState<InviteInfo>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const methods = useSignInMethods();
  useEffect(() => {
    api<InviteInfo>('POST', 'auth/invites/lookup', { token }).then(setInvite, (err: ApiError) => setError(err.message));
  }, [token]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    setBusy(true);
    setError(undefined);
    try {
      await api('POST', 'auth/invites/accept', { token, password });
      const session = await api<SessionResponse>('POST', 'auth/session', { email: invite!.email, password });
      onSignedIn(session);
      navigate('/', true);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
      setBusy(false);
    }
  };

  return (
    <main className="sign-in" id="main">
      <h1>pingmon</h1>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {invite && methods && !methods.password && methods.provider && (
        <div className="provider">
          <p>
            You are invited as <strong>{invite.role}</strong>. Sign in through {methods.provider.name} as{' '}
            <strong>{invite.email}</strong> to join.
          </p>
          <ProviderButton provider={methods.provider} next="/" />
        </div>
      )}
      {invite && methods?.password && (
        <form onSubmit={(e) => void submit(e)} aria-label="Accept the invite">
          <p>
            You are invited as <strong>{invite.role}</strong>. Set the password you will sign in with as{' '}
            <strong>{invite.email}</strong>.
          </p>
          <label>
            Password (8 characters or more)
            <input name="password" type="password" autoComplete="new-password" minLength={8} required autoFocus />
          </label>
          <button type="submit" disabled={busy}>
            {busy ? 'Joining…' : 'Join'}
          </button>
        </form>
      )}
    </main>
  );
}
