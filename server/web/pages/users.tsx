import type { FormEvent } from 'react';
import { useState } from 'react';
import type { CreatedInvite, Invite, InviteList, Role, User, UserList } from '@pingmon/sdk/wire';
import { ROLES } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';
import { useAction } from '../components/action.js';
import { Failure, Problem } from '../components/problem.js';
import { when } from '../format.js';
import { usePoll } from '../use-poll.js';
import { useTitle } from '../title.js';

/** The account's users and their roles, and pending invites: for admins and owners (docs/api.md#roles). */
export function UsersPage({ me }: { me: User }) {
  useTitle('Users');
  const users = usePoll('users', () => api<UserList>('GET', 'users'));
  const invites = usePoll('users/invites', () => api<InviteList>('GET', 'users/invites'));
  const action = useAction();
  const [invited, setInvited] = useState<CreatedInvite>();
  const reload = () => {
    users.reload();
    invites.reload();
  };

  const invite = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const body = { email: String(data.get('email') ?? '').trim(), role: data.get('role') };
    if (await action.run(async () => setInvited(await api<CreatedInvite>('POST', 'users/invites', body)))) {
      form.reset();
      reload();
    }
  };
  const setRole = async (user: User, role: string) => {
    if (await action.run(() => api('PATCH', `users/${id(user.userId)}`, { role }))) reload();
  };
  const remove = async (user: User) => {
    if (!window.confirm(`Remove ${user.email} from the account? Their sessions end at once.`)) return;
    if (await action.run(() => api('DELETE', `users/${id(user.userId)}`))) reload();
  };
  const revoke = async (pending: Invite) => {
    if (await action.run(() => api('DELETE', `users/invites/${id(pending.inviteId)}`))) reload();
  };
  // Admins never touch owners; the server says so too, but the page offers nothing it would refuse.
  const mayChange = (user: User) => me.role === 'owner' || user.role !== 'owner';
  const roles = ROLES.filter((role) => me.role === 'owner' || role !== 'owner');

  return (
    <>
      <h1>Users</h1>
      <Problem error={users.error ?? invites.error} stale={users.data !== undefined} />
      {invited && (
        <div className="new-key" role="status">
          <p>
            Invited <strong>{invited.email}</strong> as {invited.role}
            {invited.emailed ? ': the link was mailed to them.' : '. Send them this link: it is not shown again.'}
          </p>
          <code className="secret">{invited.url}</code>
          <button type="button" onClick={() => setInvited(undefined)}>
            Done
          </button>
        </div>
      )}
      <ul className="items" aria-label="Users">
        {users.data?.users.map((user) => (
          <li key={user.userId}>
            <div>
              <strong>{user.email}</strong>
              <div className="muted">since {when(user.createdAt)}</div>
            </div>
            <label>
              <span className="sr-only">Role of {user.email}</span>
              <select
                value={user.role}
                disabled={action.busy || !mayChange(user)}
                onChange={(e) => void setRole(user, e.currentTarget.value)}
              >
                {(mayChange(user) ? roles : ROLES).map((role) => (
                  <option key={role}>{role}</option>
                ))}
              </select>
            </label>
            {mayChange(user) && (
              <button type="button" disabled={action.busy} onClick={() => void remove(user)}>
                Remove<span className="sr-only"> {user.email}</span>
              </button>
            )}
          </li>
        ))}
        {invites.data?.invites.map((pending) => (
          <li key={pending.inviteId}>
            <div>
              <strong>{pending.email}</strong> <span className="muted">invited as {pending.role}</span>
              <div className="muted">link works until {when(pending.expiresAt)}</div>
            </div>
            <button type="button" disabled={action.busy} onClick={() => void revoke(pending)}>
              Revoke invite<span className="sr-only"> of {pending.email}</span>
            </button>
          </li>
        ))}
      </ul>
      <form className="inline" onSubmit={(e) => void invite(e)} aria-label="Invite someone">
        <label>
          Email
          <input name="email" type="email" required maxLength={254} placeholder="ada@example.com" />
        </label>
        <label>
          Role
          <select name="role" defaultValue={'member' satisfies Role}>
            {roles.map((role) => (
              <option key={role}>{role}</option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={action.busy}>
          Invite
        </button>
      </form>
      <Failure message={action.error} />
    </>
  );
}
