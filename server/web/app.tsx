import { useEffect, useState } from 'react';
import type { MeResponse } from '@pingmon/sdk/wire';
import type { ApiError } from './api.js';
import { api, onSignedOut } from './api.js';
import { AlertsPage } from './pages/alerts.js';
import { ChannelsPage } from './pages/channels.js';
import { KeysPage } from './pages/keys.js';
import { MonitorPage } from './pages/monitor.js';
import { MonitorsPage } from './pages/monitors.js';
import { RunPage } from './pages/run.js';
import { SignIn } from './pages/sign-in.js';
import type { Route } from './router.js';
import { Link, useRoute } from './router.js';

type Session =
  | { state: 'checking' }
  | { state: 'signed-out'; notice?: string }
  | { state: 'unreachable'; message: string }
  | { state: 'signed-in'; me: MeResponse };

/**
 * Signed in or not, decided by asking the server (the session cookie cannot be read by script). While that is
 * asked, the page already reads its data: one round trip less before a page is usable, and a page that finds no
 * session goes to sign-in the same way. Signing in keeps the address, so a deep link lands where it points.
 */
export function App() {
  const [session, setSession] = useState<Session>({ state: 'checking' });
  const route = useRoute();

  const check = () => {
    api<MeResponse>('GET', 'me').then(
      (me) => setSession({ state: 'signed-in', me }),
      (err: ApiError) => err.status === 0 && setSession({ state: 'unreachable', message: err.message }),
    );
  };
  useEffect(() => {
    // Never signed in (no cookie) needs no message; an expired or refused session does.
    onSignedOut((message, code) =>
      setSession({ state: 'signed-out', notice: code === 'missing_token' ? undefined : message }),
    );
    check();
  }, []);

  if (session.state === 'unreachable')
    return (
      <main className="sign-in" id="main">
        <p className="error" role="alert">
          {session.message}
        </p>
        <button type="button" onClick={check}>
          Try again
        </button>
      </main>
    );
  if (session.state === 'signed-out')
    return <SignIn notice={session.notice} onSignedIn={(me) => setSession({ state: 'signed-in', me })} />;

  const signOut = async () => {
    await api('DELETE', 'auth/session').catch(() => undefined);
    setSession({ state: 'signed-out', notice: 'Signed out.' });
  };
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/" className="brand">
          pingmon
        </Link>
        <nav aria-label="Sections">
          <Link to="/">Monitors</Link>
          <Link to="/alerts">Alerts</Link>
          <Link to="/channels">Channels</Link>
          <Link to="/keys">API keys</Link>
        </nav>
        <span className="who muted">{session.state === 'signed-in' ? session.me.user.email : ''}</span>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Page route={route} />
      </main>
    </>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'monitors':
      return <MonitorsPage />;
    case 'monitor':
      return <MonitorPage monitorId={route.monitorId} failedOnly={route.failedOnly} />;
    case 'run':
      return <RunPage key={`${route.monitorId} ${route.runId}`} monitorId={route.monitorId} runId={route.runId} />;
    case 'alerts':
      return <AlertsPage />;
    case 'channels':
      return <ChannelsPage />;
    case 'keys':
      return <KeysPage />;
    case 'not-found':
      return (
        <>
          <h1>Not found</h1>
          <p>
            No page here. <Link to="/">Go to the monitors.</Link>
          </p>
        </>
      );
  }
}
