import { useState } from 'react';
import type { CliCode, User } from '@pingmon/sdk/wire';
import { api, ApiError } from '../api.js';
import type { CliRequest } from '../router.js';
import { useTitle } from '../title.js';

const PKCE = /^[A-Za-z0-9_~.-]{43,128}$/;

/** Whether the address is one `pingmon login --browser` made: a port of this computer, its challenge and state. */
function wellFormed(request: CliRequest): request is { [K in keyof CliRequest]: string } & { device: string | null } {
  const port = Number(request.port);
  return (
    Number.isInteger(port) &&
    port >= 1024 &&
    port <= 65535 &&
    PKCE.test(request.challenge ?? '') &&
    /^[A-Za-z0-9_-]{16,128}$/.test(request.state ?? '')
  );
}

/**
 * `pingmon login --browser` has the user open this page (signed in however the server allows): **Allow** gets a
 * code bound to the CLI's challenge and hands it to the CLI listening on this computer, which trades it for a
 * session of its own.
 */
export function CliSignIn({ request, me }: { request: CliRequest; me: User }) {
  useTitle('Sign in the CLI');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (!wellFormed(request))
    return (
      <>
        <h1>Sign in the CLI</h1>
        <p className="error" role="alert">
          This address is not one that <code>pingmon login --browser</code> made, or it was cut short. Run the command
          again and open the address it prints.
        </p>
      </>
    );

  const allow = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const { code } = await api<CliCode>('POST', 'auth/cli/code', { challenge: request.challenge });
      const back = new URL(`http://127.0.0.1:${request.port}/callback`);
      back.search = new URLSearchParams({ code, state: request.state }).toString();
      window.location.assign(back.href);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
      setBusy(false);
    }
  };
  return (
    <>
      <h1>Sign in the CLI</h1>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <p>
        <strong>{request.device || 'The pingmon CLI'}</strong> asks to sign in as <strong>{me.email}</strong>. It gets a
        session of its own, listed on your <a href="/account">account page</a>, where you can revoke it.
      </p>
      <p>
        Allow it only if you have just run <code>pingmon login --browser</code> on this computer.
      </p>
      <p className="buttons">
        <button type="button" className="primary" disabled={busy} onClick={() => void allow()}>
          {busy ? 'Signing in…' : 'Allow'}
        </button>{' '}
        <a href="/">Cancel</a>
      </p>
    </>
  );
}
