import t from 'tap';
import { TestClock } from '../helpers/clock.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';
import { codeAt, STEP_MS } from '../helpers/totp.js';

// The TOTP second factor (docs/api.md#second-factor) on the server's clock (a test clock here): enrolment, the
// login with and without a code, replays, recovery codes, throttling, turning it off.

const HEADER = { 'x-pingmon-request': '1' };

for (const kind of DATABASE_KINDS) {
  t.test(`the second factor on ${kind}`, async (t) => {
    // In the middle of a time step: a code of this step stays this step's while the test runs.
    const clock = new TestClock(Date.parse('2027-03-27T12:00:15.000Z'));
    const api = await TestServer.start(t, kind, { clock: clock.read });

    /** A user with the second factor on: its secret and recovery codes. */
    const enrolled = async (account: TestAccount) => {
      const started = await api.request('/me/second-factor', { method: 'POST', token: account.token });
      t.equal(started.status, 200, started.text);
      const { secret } = started.body as { secret: string };
      const confirmed = await api.request('/me/second-factor/confirm', {
        token: account.token,
        body: { code: codeAt(secret, clock.now) },
      });
      t.equal(confirmed.status, 200, confirmed.text);
      return { secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
    };
    const login = (account: TestAccount, code?: string, password = account.password) =>
      api.request('/auth/login', { body: { email: account.email, password, code } });

    t.test('enrolment: a secret and its otpauth URI, on once a first code confirms it', async (t) => {
      const account = await api.account();
      const started = await api.request('/me/second-factor', { method: 'POST', token: account.token });
      t.equal(started.status, 200, started.text);
      const { secret, uri } = started.body as { secret: string; uri: string };
      t.match(secret, /^[A-Z2-7]{32}$/, '160 bits in base32');
      t.equal(
        uri,
        `otpauth://totp/pingmon:${encodeURIComponent(account.email)}?issuer=pingmon&secret=${secret}` +
          '&algorithm=SHA1&digits=6&period=30',
      );
      t.match((await api.request('/me', { token: account.token })).body.secondFactor, { enabled: false });
      t.equal((await login(account)).status, 200, 'no code asked before the enrolment is confirmed');

      const wrong = await api.request('/me/second-factor/confirm', {
        token: account.token,
        body: { code: codeAt(secret, clock.now + 5 * STEP_MS) },
      });
      t.equal(wrong.status, 403);
      t.match(wrong.body, { code: 'invalid_second_factor', message: /authenticator app/ });
      const confirmed = await api.request('/me/second-factor/confirm', {
        token: account.token,
        body: { code: codeAt(secret, clock.now) },
      });
      t.equal(confirmed.status, 200, confirmed.text);
      const codes = confirmed.body.recoveryCodes as string[];
      t.equal(codes.length, 10);
      t.equal(new Set(codes).size, 10);
      for (const code of codes) t.match(code, /^[a-z2-9]{5}-[a-z2-9]{5}$/);
      t.same((await api.request('/me', { token: account.token })).body.secondFactor, {
        enabled: true,
        recoveryCodesLeft: 10,
      });
      const stored = await api.query((knex) => knex('recovery_codes').where({ user_id: account.userId }));
      t.equal(stored.length, 10);
      t.notOk(
        stored.some((row: { code_hash: string }) => codes.some((c) => row.code_hash.includes(c.replace('-', '')))),
        'only hashes are stored',
      );
      const again = await api.request('/me/second-factor', { method: 'POST', token: account.token });
      t.equal(again.status, 409, 'a factor that is on is not replaced by a new enrolment');
      t.equal(again.body.code, 'second_factor_enabled');
    });

    t.test('login: no code is a 401 asking for it; a good code signs in; a wrong one does not', async (t) => {
      const account = await api.account();
      const { secret } = await enrolled(account);
      clock.advance(STEP_MS); // the enrolment's code is used up

      const missing = await login(account);
      t.equal(missing.status, 401);
      t.match(missing.body, { code: 'second_factor_required', message: /"code"/ });
      t.notOk(missing.body.token);
      const wrongPassword = await login(account, codeAt(secret, clock.now), 'not the password');
      t.equal(wrongPassword.status, 401);
      t.equal(wrongPassword.body.code, 'invalid_credentials', 'the password is checked first, the code is not used');
      const wrong = await login(account, '000000' === codeAt(secret, clock.now) ? '111111' : '000000');
      t.equal(wrong.status, 401);
      t.match(wrong.body, { code: 'invalid_second_factor', message: /recovery code/ });
      const good = await login(account, codeAt(secret, clock.now));
      t.equal(good.status, 200, good.text);
      t.equal((await api.request('/me', { token: good.body.token })).status, 200);

      const session = await api.request('/auth/session', {
        body: { email: account.email, password: account.password },
        headers: HEADER,
      });
      t.equal(session.status, 401, 'the dashboard sign-in asks for it too');
      t.equal(session.body.code, 'second_factor_required');
    });

    t.test('a code is taken once: a replay, or an older step, is refused; one step either side is taken', async (t) => {
      const account = await api.account();
      const { secret } = await enrolled(account);
      clock.advance(10 * STEP_MS);

      t.equal((await login(account, codeAt(secret, clock.now - STEP_MS))).status, 200, 'the step before now');
      const replay = await login(account, codeAt(secret, clock.now - STEP_MS));
      t.equal(replay.status, 401, 'the same code again');
      t.equal(replay.body.code, 'invalid_second_factor');
      t.equal((await login(account, codeAt(secret, clock.now))).status, 200, "now's step, later than the last");
      t.equal((await login(account, codeAt(secret, clock.now))).status, 401, 'now again: a replay');
      t.equal((await login(account, codeAt(secret, clock.now + STEP_MS))).status, 200, 'the step after now');
      t.equal((await login(account, codeAt(secret, clock.now))).status, 401, 'a step before the last used one');
      t.equal((await login(account, codeAt(secret, clock.now + 2 * STEP_MS))).status, 401, 'two steps ahead: no');
      clock.advance(2 * STEP_MS);
      t.equal((await login(account, codeAt(secret, clock.now))).status, 200, 'a new step, a new code');

      const code = codeAt(secret, clock.now + STEP_MS);
      const both = await Promise.all([login(account, code), login(account, code)]);
      t.same(both.map((r) => r.status).sort(), [200, 401], 'one code sent twice at once signs in once');
    });

    t.test('a recovery code signs in once, typed in any case, with or without its dash', async (t) => {
      const account = await api.account();
      const { recoveryCodes } = await enrolled(account);
      const [first, second] = recoveryCodes;
      t.equal((await login(account, first)).status, 200);
      const reused = await login(account, first);
      t.equal(reused.status, 401, 'a used recovery code is refused');
      t.equal(reused.body.code, 'invalid_second_factor');
      t.equal((await login(account, ` ${second!.toUpperCase().replace('-', '')} `)).status, 200);
      t.equal((await login(account, 'aaaaa-aaaaa')).status, 401, 'a code that is none of them');
      t.match((await api.request('/me', { token: account.token })).body.secondFactor, { recoveryCodesLeft: 8 });
      const other = await api.account();
      await enrolled(other);
      t.equal((await login(other, recoveryCodes[2])).status, 401, "another user's recovery code is no use");
    });

    t.test('wrong codes are throttled with wrong passwords: 429, the right code included', async (t) => {
      const account = await api.account();
      const { secret } = await enrolled(account);
      clock.advance(STEP_MS);
      const good = codeAt(secret, clock.now);
      const bad = good === '123456' ? '654321' : '123456';
      const statuses: number[] = [];
      statuses.push((await login(account, undefined, 'a wrong password')).status);
      for (let i = 0; i < 3; i++) statuses.push((await login(account, bad)).status);
      statuses.push(
        (
          await api.request('/auth/session', {
            body: { email: account.email, password: account.password, code: bad },
            headers: HEADER,
          })
        ).status,
      );
      t.same(statuses, [401, 401, 401, 401, 401]);
      const blocked = await login(account, good);
      t.equal(blocked.status, 429, 'the sixth attempt waits, even with the right code');
      t.equal(blocked.body.code, 'too_many_login_attempts');
      t.match(blocked.body.message, /Wait \d+ seconds/);
    });

    t.test('turning it off takes the password or a code, and then no code is asked', async (t) => {
      const account = await api.account();
      const { secret } = await enrolled(account);
      const disable = (body: object) => api.request('/me/second-factor/disable', { token: account.token, body });
      const none = await disable({});
      t.equal(none.status, 400);
      t.match(none.body, { code: 'invalid_request', message: /password or a code/ });
      const wrong = await disable({ password: 'not the password' });
      t.equal(wrong.status, 403);
      t.equal(wrong.body.code, 'wrong_password');
      const replay = await disable({ code: codeAt(secret, clock.now) });
      t.equal(replay.status, 403, "the enrolment's own code is used up");
      t.equal(replay.body.code, 'invalid_second_factor');
      clock.advance(STEP_MS);
      t.equal((await disable({ code: codeAt(secret, clock.now) })).status, 204);
      t.same((await api.request('/me', { token: account.token })).body.secondFactor, {
        enabled: false,
        recoveryCodesLeft: 0,
      });
      t.equal((await login(account)).status, 200, 'signed in with the password alone');
      t.equal((await disable({ password: account.password })).status, 404, 'nothing left to turn off');

      const other = await api.account();
      await enrolled(other);
      t.equal(
        (await api.request('/me/second-factor/disable', { token: other.token, body: { password: other.password } }))
          .status,
        204,
      );
      t.equal(
        await api.query(async (knex) => (await knex('recovery_codes').where({ user_id: other.userId })).length),
        0,
        'its recovery codes are gone with it',
      );
    });
  });
}
