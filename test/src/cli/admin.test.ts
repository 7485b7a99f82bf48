import t from 'tap';
import { DATABASE_KINDS, createTestDatabase } from '../helpers/databases.js';
import { pingmon } from '../helpers/cli.js';
import { TestServer } from '../helpers/server.js';

for (const kind of DATABASE_KINDS) {
  t.test(`pingmon admin create-account on ${kind}`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.drop());

    t.test('--json prints exactly one JSON object with the account, user and API key', async (t) => {
      const result = await pingmon(
        [
          'admin',
          'create-account',
          '--email',
          'Ops@Example.com',
          '--password',
          'long enough',
          '--plan',
          'pro',
          '--json',
        ],
        db.env,
      );
      t.equal(result.code, 0, result.stderr);
      const lines = result.stdout.trim().split('\n');
      t.equal(lines.length, 1);
      const created = JSON.parse(lines[0]!);
      t.same(Object.keys(created).sort(), ['accountId', 'apiKey', 'userId']);
      t.match(created, { accountId: /^acc_/, userId: /^usr_/, apiKey: /^pm_/ });
    });

    t.test('without --json it prints the key with a reminder to store it', async (t) => {
      const result = await pingmon(
        ['admin', 'create-account', '--email', 'second@example.com', '--password', 'long enough'],
        db.env,
      );
      t.equal(result.code, 0, result.stderr);
      t.match(result.stdout, /API key\s+pm_/);
      t.match(result.stdout, /plan free/);
    });

    t.test('a duplicate email is a clear error and a non-zero exit', async (t) => {
      const result = await pingmon(
        ['admin', 'create-account', '--email', 'ops@example.com', '--password', 'long enough'],
        db.env,
      );
      t.not(result.code, 0);
      t.equal(result.stdout, '');
      t.match(result.stderr, /^pingmon: a user with email ops@example\.com already exists\n$/);
    });

    t.test('bad input is refused in one line', async (t) => {
      const short = await pingmon(
        ['admin', 'create-account', '--email', 'x@example.com', '--password', 'short'],
        db.env,
      );
      t.not(short.code, 0);
      t.match(short.stderr, /^pingmon: the password must be at least 8 characters long\n$/);
      const plan = await pingmon(
        ['admin', 'create-account', '--email', 'x@example.com', '--password', 'long enough', '--plan', 'gold'],
        db.env,
      );
      t.not(plan.code, 0);
      t.equal(plan.stderr.trim().split('\n').length, 1);
      t.match(plan.stderr, /gold/);
      const missing = await pingmon(['admin', 'create-account', '--password', 'long enough'], db.env);
      t.not(missing.code, 0);
      t.match(missing.stderr, /email/);
    });
  });
}

t.test('create-account works while a server takes pings on the same SQLite file', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const monitorId = await api.monitor(account);
  let pinging = true;
  const load = (async () => {
    let sent = 0;
    while (pinging) {
      await Promise.all(Array.from({ length: 16 }, () => api.ping(account, monitorId, 'success')));
      sent += 16;
    }
    return sent;
  })();
  const env = { PINGMON_DATA_DIR: api.database.dataDir };
  // The six at once: each waits for the others' writes as well as the pings', and the load lasts one start-up.
  const results = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      pingmon(
        ['admin', 'create-account', '--email', `busy${i}@example.com`, '--password', 'long enough', '--json'],
        env,
      ),
    ),
  );
  pinging = false;
  t.ok((await load) > 0, 'pings went on meanwhile');
  for (const result of results) {
    t.equal(result.code, 0, result.stderr);
    t.notMatch(result.stderr, /insert|select|values/i, 'no SQL in any message');
  }
});

for (const kind of DATABASE_KINDS) {
  t.test(`pingmon admin set-password on ${kind} ends every session of the user`, async (t) => {
    const api = await TestServer.start(t, kind);
    const account = await api.account();
    const other = await api.account();
    const env = api.database.env;
    const set = await pingmon(
      ['admin', 'set-password', '--email', account.email.toUpperCase(), '--password', 'a fresh password'],
      env,
    );
    t.equal(set.code, 0, set.stderr);
    t.equal(set.stdout, `Password of ${account.email} set; 1 session ended.\n`);
    const old = await api.request('/me', { token: account.token });
    t.equal(old.status, 401, 'the token of the old password is refused at once');
    t.equal(old.body.code, 'session_ended');
    t.equal((await api.request('/me', { token: other.token })).status, 200, 'other users go on');
    const login = await api.request('/auth/login', { body: { email: account.email, password: 'a fresh password' } });
    t.equal(login.status, 200);

    const unknown = await pingmon(
      ['admin', 'set-password', '--email', 'nobody@example.com', '--password', 'a fresh password'],
      env,
    );
    t.equal(unknown.code, 1);
    t.equal(unknown.stderr, 'pingmon: there is no user with email nobody@example.com\n');
    const short = await pingmon(['admin', 'set-password', '--email', account.email, '--password', 'short'], env);
    t.equal(short.code, 1);
    t.equal(short.stderr, 'pingmon: the password must be at least 8 characters long\n');
  });
}
