import t from 'tap';
import { TestClock } from '../helpers/clock.js';
import { CLI, pingmon, pingmonRaw } from '../helpers/cli.js';
import { DATABASE_KINDS, tempDir } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { EXITED, Tmux } from '../helpers/tmux.js';
import { codeAt, STEP_MS } from '../helpers/totp.js';

// A user's own account from the CLI as real processes (docs/cli.md): `pingmon admin reset-password` on the
// database, `pingmon sessions`, and `pingmon login` with a second factor.

for (const kind of DATABASE_KINDS) {
  t.test(`pingmon admin reset-password on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind);
    const env = api.database.env;
    const loginWith = (account: TestAccount, password: string) =>
      api.request('/auth/login', { body: { email: account.email, password } });

    t.test('without --password it prints a random one, once, and ends every session of the user', async (t) => {
      const account = await api.account();
      const other = await api.account();
      const reset = await pingmon(['admin', 'reset-password', '--email', account.email], env);
      t.equal(reset.code, 0, reset.stderr);
      const match = /^Password of (\S+) set to: (\S+)\nIt is shown only now: .*\. 1 session ended\.\n$/.exec(
        reset.stdout,
      );
      t.ok(match, reset.stdout);
      t.equal(match?.[1], account.email);
      const password = match![2]!;
      t.ok(password.length >= 20, 'long enough');
      const old = await api.request('/me', { token: account.token });
      t.equal(old.status, 401, 'the old token is refused at once');
      t.equal(old.body.code, 'session_ended');
      t.equal((await api.request('/me', { token: other.token })).status, 200, 'other users go on');
      t.equal((await loginWith(account, account.password)).status, 401, 'the old password no longer signs in');
      t.equal((await loginWith(account, password)).status, 200, 'the printed one does');
      const again = await pingmon(['admin', 'reset-password', '--email', account.email], env);
      t.not(/set to: (\S+)/.exec(again.stdout)?.[1], password, 'a new random password each time');
    });

    t.test('a password piped to stdin is taken, without its newline, and not printed', async (t) => {
      const account = await api.account();
      const args = ['admin', 'reset-password', '--email', account.email];
      const reset = await pingmonRaw(args, env, Buffer.from('a piped password\n'));
      t.equal(reset.code, 0, reset.stderr);
      t.equal(reset.stdout.toString(), `Password of ${account.email} set; 1 session ended.\n`);
      t.equal((await loginWith(account, 'a piped password')).status, 200);
      const empty = await pingmonRaw(args, env, Buffer.from(''));
      t.equal(empty.code, 1);
      t.equal(empty.stderr, 'pingmon: stdin is empty: pipe the new password, or pass --password\n');
      const short = await pingmonRaw(args, env, Buffer.from('short\n'));
      t.equal(short.code, 1);
      t.equal(short.stderr, 'pingmon: the password must be at least 8 characters long\n');
    });

    t.test('--remove-second-factor turns the second factor off too; set-password is the same command', async (t) => {
      const account = await api.account();
      const started = await api.request('/me/second-factor', { method: 'POST', token: account.token });
      const code = codeAt(started.body.secret, Date.now());
      const confirmed = await api.request('/me/second-factor/confirm', { token: account.token, body: { code } });
      t.equal(confirmed.status, 200, confirmed.text);
      const plain = ['admin', 'set-password', '--email', account.email, '--password', 'first new password'];
      t.equal((await pingmon(plain, env)).stdout, `Password of ${account.email} set; 1 session ended.\n`);
      const asked = await loginWith(account, 'first new password');
      t.equal(asked.body.code, 'second_factor_required', 'a reset alone keeps the second factor');
      const remove = ['admin', 'reset-password', '--email', account.email, '--password', 'second new password'];
      const removed = await pingmon([...remove, '--remove-second-factor'], env);
      t.equal(removed.code, 0, removed.stderr);
      t.equal(removed.stdout, `Password of ${account.email} set; 0 sessions ended; second factor turned off.\n`);
      t.equal((await loginWith(account, 'second new password')).status, 200, 'no code asked any more');
    });
  });
}

t.test('pingmon sessions and pingmon login with a second factor', async (t) => {
  const clock = new TestClock(Date.parse('2027-03-27T12:00:15.000Z'));
  const api = await TestServer.start(t, 'sqlite', { clock: clock.read });
  const account = await api.account();
  const env = { XDG_CONFIG_HOME: tempDir('pingmon-config-') };
  const cli = (...args: string[]) => pingmon(args, env);
  const login = await cli('login', '--url', api.url, '--email', account.email, '--password', account.password);
  t.equal(login.code, 0, login.stderr);

  t.test('pingmon sessions list marks this login; revoke ends one, --others every other', async (t) => {
    const listed = await cli('sessions', 'list', '--json');
    t.equal(listed.code, 0, listed.stderr);
    const sessions = JSON.parse(listed.stdout) as { sessionId: string; current: boolean }[];
    t.equal(sessions.length, 2, "the helper's login and the CLI's");
    t.same(
      sessions.map((s) => s.current),
      [true, false],
    );
    const table = await cli('sessions', 'list');
    t.match(table.stdout, /^ID +SIGNED IN +LAST USED +FROM +CLIENT\n/);
    t.match(table.stdout, new RegExp(`${sessions[0]!.sessionId} \\* `));

    const revoked = await cli('sessions', 'revoke', sessions[1]!.sessionId);
    t.equal(revoked.code, 0, revoked.stderr);
    t.equal(revoked.stdout, `Ended ${sessions[1]!.sessionId}.\n`);
    t.equal((await api.request('/me', { token: account.token })).status, 401, 'refused at once');
    const unknown = await cli('sessions', 'revoke', sessions[1]!.sessionId);
    t.equal(unknown.code, 1);
    t.match(unknown.stderr, /^pingmon: You have no live session ses_\S+: list yours with .*pingmon sessions list/);

    const extra = await api.request('/auth/login', { body: { email: account.email, password: account.password } });
    const others = await cli('sessions', 'revoke', '--others');
    t.equal(others.stdout, 'Ended 1 other session; this login goes on.\n');
    t.equal((await api.request('/me', { token: extra.body.token })).status, 401);
    t.equal((await cli('sessions', 'list', '--json')).code, 0, 'this login goes on');
    const neither = await cli('sessions', 'revoke');
    t.equal(neither.code, 2);
    t.equal(neither.stderr, 'pingmon: name one session id, or pass --others (not both)\n');
  });

  t.test('pingmon login takes --code; without a terminal it says to pass it', async (t) => {
    const user = await api.account();
    const started = await api.request('/me/second-factor', { method: 'POST', token: user.token });
    const secret = started.body.secret as string;
    await api.request('/me/second-factor/confirm', { token: user.token, body: { code: codeAt(secret, clock.now) } });
    clock.advance(STEP_MS);
    const args = ['login', '--url', api.url, '--email', user.email, '--password', user.password];
    const missing = await cli(...args);
    t.equal(missing.code, 2);
    t.equal(missing.stderr, 'pingmon: missing second-factor code: pass it as a flag (see pingmon login --help)\n');
    const wrong = await cli(...args, '--code', 'nnnnn-nnnnn');
    t.equal(wrong.code, 1);
    t.match(wrong.stderr, /^pingmon: Wrong or already used code/);
    const ok = await cli(...args, '--code', codeAt(secret, clock.now));
    t.equal(ok.code, 0, ok.stderr);
    t.match(ok.stdout, `Logged in as ${user.email}`);
  });

  t.test('pingmon login in a terminal asks for the code when the server says so', async (t) => {
    if (!requireTools(t, 'tmux')) return;
    const user = await api.account();
    const started = await api.request('/me/second-factor', { method: 'POST', token: user.token });
    const secret = started.body.secret as string;
    await api.request('/me/second-factor/confirm', { token: user.token, body: { code: codeAt(secret, clock.now) } });
    clock.advance(STEP_MS);
    const termEnv = { XDG_CONFIG_HOME: tempDir('pingmon-config-'), PINGMON_PASSWORD: user.password };
    const argv = [process.execPath, CLI, 'login', '--url', api.url, '--email', user.email];
    const term = Tmux.start(t, argv, { columns: 120, rows: 30, env: termEnv });
    await term.waitFor('Second-factor code (or a recovery code):');
    term.type(codeAt(secret, clock.now));
    term.keys('Enter');
    await term.waitFor('Your choice [p/c/n]:');
    term.keys('n', 'Enter');
    const screen = await term.waitFor(EXITED);
    t.equal(EXITED.exec(screen)![1], '0', screen);
    t.match(screen, `Logged in as ${user.email}`);
  });
});
