import type { FormEvent } from 'react';
import { api } from '../api.js';
import { useAction } from './action.js';
import { Failure } from './problem.js';

/** Changing the password ends every session of the user, this one too: the dashboard then asks to sign in again. */
export function PasswordForm() {
  const action = useAction();
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const changed = await action.run(async () => {
      if (form.get('newPassword') !== form.get('repeat'))
        throw new Error('The two new passwords differ: type it again.');
      await api('POST', 'me/password', {
        currentPassword: form.get('currentPassword'),
        newPassword: form.get('newPassword'),
      });
    });
    // This session has ended with the others: reading anything now finds it so, and shows the sign-in with why.
    if (changed) await api('GET', 'me').catch(() => undefined);
  };
  return (
    <section aria-labelledby="password-head">
      <h2 id="password-head">Password</h2>
      <form className="stacked" onSubmit={(e) => void submit(e)} aria-label="Change your password">
        <label>
          Current password
          <input name="currentPassword" type="password" autoComplete="current-password" required />
        </label>
        <label>
          New password (at least 8 characters)
          <input name="newPassword" type="password" autoComplete="new-password" minLength={8} required />
        </label>
        <label>
          New password again
          <input name="repeat" type="password" autoComplete="new-password" minLength={8} required />
        </label>
        <p className="muted">Every session of yours ends, this one too: you sign in again with the new password.</p>
        <button type="submit" disabled={action.busy}>
          Change password
        </button>
      </form>
      <Failure message={action.error} />
    </section>
  );
}
