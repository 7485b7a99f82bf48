import type { ReactNode } from 'react';
import { Component, useEffect, useRef, useState } from 'react';
import type { MeResponse } from '@pingmon/sdk/wire';
import type { ApiError } from './api.js';
import { api, onSignedOut } from './api.js';
import { TabStatus } from './components/tab-status.js';
import { AccountPage } from './pages/account.js';
import { AcceptInvite } from './pages/accept-invite.js';
import { AlertsPage } from './pages/alerts.js';
import { AuditPage } from './pages/audit.js';
import { ChannelsPage } from './pages/channels.js';
import { KeysPage } from './pages/keys.js';
import { StatusPageSettings } from './pages/status-page.js';
import { EditMonitorPage, NewMonitorPage } from './pages/monitor-form.js';
import { MonitorPage } from './pages/monitor.js';
import { MonitorsPage } from './pages/monitors.js';
import { RunPage } from './pages/run.js';
import { SignIn } from './pages/sign-in.js';
import { CliSignIn } from './pages/cli-sign-in.js';
import { UsersPage } from './pages/users.js';
import type { Route } from './router.js';
import { Link, useRoute } from './router.js';
import { setDownCount, useTitle } from './title.js';
import { REFRESH_MS } from './use-poll.js';

const EXPIRED = 'Your session has expired. Sign in again.';

type Session =
  | { state: 'checking' }
  | { state: 'signed-out'; notice?: string }
  | { state: 'unreachable'; message: string }
  | { state: 'signed-in'; me: Pick<MeResponse, 'user' | 'account'> };

/**
 * Signed in or not, decided by asking the server (the session cookie cannot be read by script). While that is
 * asked, the page already reads its data: one round trip less before a page is usable, and a page that finds no
 * session goes to sign-in the same way. Signing in keeps the address, so a deep link lands where it points.
 */
export function App() {
  const [session, setSession] = useState<Session>({ state: 'checking' });
  const [signOutError, setSignOutError] = useState<string>();
  const route = useRoute();
  // The monitors page's search and filter are in its address too, yet typing them does not start the page over.
  const pageKey = route.page === 'monitors' ? route.page : JSON.stringify(route);

  const check = () => {
    api<MeResponse>('GET', 'me').then(
      (me) => setSession({ state: 'signed-in', me }),
      (err: ApiError) => {
        if (err.status === 0) setSession({ state: 'unreachable', message: err.message });
        // A 401 has signed out already (onSignedOut); anything else (a 503) is asked again.
        else if (err.status !== 401) setTimeout(check, REFRESH_MS);
      },
    );
  };
  useEffect(() => {
    // No cookie at all needs no message on a first visit; after being signed in, it means the cookie expired
    // (the browser drops it when the token expires). A refused session says why.
    onSignedOut((message, code) =>
      // Several reads of the page may find it out: the first one says why.
      setSession((old) =>
        old.state === 'signed-out'
          ? old
          : {
              state: 'signed-out',
              notice: code !== 'missing_token' ? message : old.state === 'signed-in' ? EXPIRED : undefined,
            },
      ),
    );
    check();
  }, []);
  // After following a link, the new page starts at its top, with the focus on it (for the keyboard and screen readers).
  const first = useRef(true);
  useEffect(() => {
    if (first.current) return void (first.current = false);
    window.scrollTo(0, 0);
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pageKey]);
  useEffect(() => {
    if (session.state === 'signed-out') setDownCount(undefined);
  }, [session.state]);

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
  // An invite link is for someone without a user yet: it is shown whoever is signed in.
  if (route.page === 'invite') return <AcceptInvite onSignedIn={(me) => setSession({ state: 'signed-in', me })} />;
  if (session.state === 'signed-out')
    return <SignIn notice={session.notice} onSignedIn={(me) => setSession({ state: 'signed-in', me })} />;

  // The cookie is httpOnly: only the server can end it, so "Signed out" is said only when it did.
  const signOut = async () => {
    try {
      await api('DELETE', 'auth/session');
      setSession({ state: 'signed-out', notice: 'Signed out.' });
    } catch (err) {
      setSignOutError(`Not signed out: ${(err as Error).message}`);
    }
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
          <Link to="/audit">Audit</Link>
          <Link to="/status-page">Status page</Link>
          <Link to="/account">Account</Link>
          {session.state === 'signed-in' && ['owner', 'admin'].includes(session.me.user.role) && (
            <Link to="/users">Users</Link>
          )}
        </nav>
        <span className="who muted">{session.state === 'signed-in' ? session.me.user.email : ''}</span>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
        {signOutError && (
          <span className="error" role="alert">
            {signOutError}
          </span>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {route.page !== 'monitors' && <TabStatus />}
        <Crash key={pageKey}>
          <Page route={route} me={session.state === 'signed-in' ? session.me : undefined} />
        </Crash>
      </main>
    </>
  );
}

function Page({ route, me }: { route: Route; me: Pick<MeResponse, 'user' | 'account'> | undefined }) {
  switch (route.page) {
    case 'monitors':
      return <MonitorsPage find={route.find} />;
    case 'new-monitor':
      return <NewMonitorPage />;
    case 'edit-monitor':
      return <EditMonitorPage key={route.monitorId} monitorId={route.monitorId} />;
    case 'monitor':
      return (
        <MonitorPage
          key={route.monitorId}
          monitorId={route.monitorId}
          failedOnly={route.failedOnly}
          fingerprint={route.fingerprint}
        />
      );
    case 'run':
      return <RunPage key={`${route.monitorId} ${route.runId}`} monitorId={route.monitorId} runId={route.runId} />;
    case 'alerts':
      return <AlertsPage />;
    case 'channels':
      return <ChannelsPage />;
    case 'keys':
      return <KeysPage />;
    case 'audit':
      return <AuditPage filter={route.filter} />;
    case 'status-page':
      return <StatusPageSettings />;
    case 'account':
      return <AccountPage />;
    case 'users':
      return me ? <UsersPage me={me.user} /> : null;
    case 'cli-sign-in':
      return me ? <CliSignIn request={route.request} me={me.user} /> : null;
    case 'invite':
    case 'not-found':
      return <NotFound />;
  }
}

function NotFound() {
  useTitle('Not found');
  return (
    <>
      <h1>Not found</h1>
      <p>
        No page here. <Link to="/">Go to the monitors.</Link>
      </p>
    </>
  );
}

/** A page that fails to draw (an answer it did not expect) says so, instead of leaving a blank window. */
class Crash extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <p className="error" role="alert">
        This page could not be shown: {this.state.error.message}. Reload the page, or go to{' '}
        <Link to="/">the monitors</Link>.
      </p>
    );
  }
}
