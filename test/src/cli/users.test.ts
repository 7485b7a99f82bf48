import t from 'tap';
import { tempDir } from '../helpers/databases.js';
import { pingmon } from '../helpers/cli.js';
import { TestServer } from '../helpers/server.js';
import { addUser, linkToken } from '../helpers/team.js';

t.test('pingmon users and keys with scopes against a real server', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const owner = await api.account();
  const env = { XDG_CONFIG_HOME: tempDir('pingmon-config-') };
  const cli = (...args: string[]) => pingmon(args, env);
  const login = await cli('login', '--url', api.url, '--email', owner.email, '--password', owner.password);
  t.equal(login.code, 0, login.stderr);

  t.test('users invite prints the link; list, set-role and remove take an id or an address', async (t) => {
    const invited = await cli('users', 'invite', 'ada@example.com', '--role', 'member');
    t.equal(invited.code, 0, invited.stderr);
    t.match(invited.stdout, /^Invited ada@example\.com as member \(inv_\w+\), until .* UTC\.\n/);
    t.match(invited.stdout, /Send them this link \(shown only now\):\n/);
    const url = invited.stdout.trim().split('\n').pop()!;
    t.match(url, /^http:\/\/127\.0\.0\.1:\d+\/invite#/);
    const pending = await cli('users', 'list');
    t.match(pending.stdout, /ada@example\.com\s+member \(invited\)/);
    const accepted = await api.request('/auth/invites/accept', {
      body: { token: linkToken(url), password: 'ada password' },
    });
    t.equal(accepted.status, 200);
    const listed = await cli('users', 'list', '--json');
    const { users } = JSON.parse(listed.stdout);
    t.same(
      users.map((u: { email: string; role: string }) => `${u.email} ${u.role}`),
      [`${owner.email} owner`, 'ada@example.com member'],
    );
    const set = await cli('users', 'set-role', 'ADA@example.com', 'viewer');
    t.equal(set.code, 0, set.stderr);
    t.equal(set.stdout, 'ada@example.com is now viewer (was member).\n');
    const last = await cli('users', 'set-role', owner.userId, 'admin');
    t.equal(last.code, 1);
    t.match(last.stderr, /^pingmon: .*last owner/);
    const removed = await cli('users', 'remove', 'ada@example.com');
    t.equal(removed.code, 0, removed.stderr);
    t.match(removed.stdout, /^Removed ada@example\.com \(usr_\w+\); their sessions have ended\.\n$/);
    const unknown = await cli('users', 'remove', 'nobody@example.com');
    t.equal(unknown.stderr, 'pingmon: no user nobody@example.com in this account: `pingmon users list` shows them\n');
    const role = await cli('users', 'invite', 'x@example.com', '--role', 'boss');
    t.equal(role.code, 2);
  });

  t.test('a role that refuses a command is said in one plain line', async (t) => {
    const viewer = await addUser(api, owner, 'viewer');
    const refused = await pingmon(['monitors', 'create', 'backup'], {
      PINGMON_URL: api.url,
      PINGMON_TOKEN: viewer.token,
    });
    t.equal(refused.code, 1);
    t.match(refused.stderr, /^pingmon: not allowed: Your role in this account is viewer, .*Ask an owner or admin/);
    t.equal(refused.stderr.split('\n').length, 2, 'one line');
  });

  t.test('keys create --scope --monitor, keys list, and a read key as the token', async (t) => {
    await api.request('/monitors', { token: owner.token, body: { name: 'backup', slug: 'backup' } });
    const created = await cli('keys', 'create', '--name', 'grafana', '--scope', 'read', '--monitor', 'backup');
    t.equal(created.code, 0, created.stderr);
    t.match(created.stdout, /^key_\w+ \(grafana, read, 1 monitor\): pm_\S+\n/);
    t.match(created.stdout, /Authorization: Bearer/);
    const key = /(pm_\S+)/.exec(created.stdout)![1]!;
    const noProvision = await cli('keys', 'create', '--scope', 'write', '--no-provision');
    t.equal(noProvision.code, 2);
    t.match(noProvision.stderr, /are for ping keys/);
    const listed = await cli('keys', 'list');
    t.match(listed.stdout, /SCOPE\s+MONITORS\s+LAST USED/);
    t.match(listed.stdout, /grafana\s+pm_\S+\s+read\s+mon_\w+\s/);
    const asKey = { PINGMON_URL: api.url, PINGMON_TOKEN: key };
    const monitors = await pingmon(['monitors', 'list', '--json'], asKey);
    t.equal(monitors.code, 0, monitors.stderr);
    t.equal(JSON.parse(monitors.stdout).length, 1);
    const write = await pingmon(['monitors', 'create', 'other'], asKey);
    t.equal(write.code, 1);
    t.match(write.stderr, /^pingmon: not allowed: .*pingmon keys create --scope write/);
  });
});
