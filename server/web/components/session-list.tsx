import { useState } from 'react';
import type { EndedSessions, SessionList as Sessions, UserSession } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';
import { when } from '../format.js';
import { usePoll } from '../use-poll.js';
import { useAction } from './action.js';
import { Failure, Problem } from './problem.js';

/** The user's live sessions, each ended by its Revoke at once; and "sign out everywhere else". */
export function SessionList() {
  const { data, error, reload } = usePoll('me/sessions', () => api<Sessions>('GET', 'me/sessions'));
  const action = useAction();
  const [said, setSaid] = useState<string>();
  const revoke = async (session: UserSession) => {
    setSaid(undefined);
    if (await action.run(() => api('DELETE', `me/sessions/${id(session.sessionId)}`))) reload();
  };
  const revokeOthers = async () => {
    let ended = 0;
    const done = await action.run(async () => {
      ended = (await api<EndedSessions>('DELETE', 'me/sessions')).ended;
    });
    if (done) setSaid(`Signed out of ${ended} other session${ended === 1 ? '' : 's'}.`);
    reload();
  };
  const others = data?.sessions.filter((s) => !s.current).length ?? 0;

  return (
    <section aria-labelledby="sessions-head">
      <h2 id="sessions-head">Sessions</h2>
      <Problem error={error} stale={data !== undefined} />
      <ul className="items" aria-label="Sessions">
        {data?.sessions.map((session) => (
          <li key={session.sessionId}>
            <div>
              <strong>{session.current ? 'This session' : (session.userAgent ?? 'Unknown client')}</strong>
              <div className="muted">
                signed in {when(session.createdAt)} from {session.address ?? 'an unknown address'}
                {session.lastUsedAt && ` · last used ${when(session.lastUsedAt)}`}
                {session.current && session.userAgent && ` · ${session.userAgent}`}
              </div>
            </div>
            {!session.current && (
              <button type="button" disabled={action.busy} onClick={() => void revoke(session)}>
                Revoke<span className="sr-only"> the session signed in {when(session.createdAt)}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      {others > 0 && (
        <button type="button" disabled={action.busy} onClick={() => void revokeOthers()}>
          Sign out everywhere else
        </button>
      )}
      {said && <p role="status">{said}</p>}
      <Failure message={action.error} />
    </section>
  );
}
