import { PasswordForm } from '../components/password-form.js';
import { SecondFactor } from '../components/second-factor.js';
import { SessionList } from '../components/session-list.js';
import { useTitle } from '../title.js';

/** The signed-in user's own account security: password, sessions, second factor (docs/dashboard.md#account). */
export function AccountPage() {
  useTitle('Account');
  return (
    <>
      <h1>Account</h1>
      <SessionList />
      <SecondFactor />
      <PasswordForm />
    </>
  );
}
