import t from 'tap';
import { alertsCli } from '../../helpers/alerts-cli.js';
import { startSmtp } from '../../helpers/smtp.js';
import { waitFor } from '../../helpers/wait.js';

t.test('email channels from the command line, against a real server and SMTP server', async (t) => {
  const smtp = await startSmtp(t, {
    refuseRecipient: (address) =>
      address.startsWith('nobody@') ? { code: 550, message: 'no such mailbox' } : undefined,
  });
  const { api, as } = await alertsCli(t, { smtpUrl: smtp.url, smtpFrom: 'pingmon <alerts@example.com>' });
  const alice = await api.account();
  const { cli, json } = as(alice);

  const added = await cli(
    'channels',
    'add',
    '--type',
    'email',
    '--to',
    'ops@example.com',
    '--to',
    'oncall@example.com',
    '--name',
    'ops mail',
  );
  t.equal(added.code, 0, added.stderr);
  const [, id] = /^Added (ch_\w+) \(ops mail, email\) for the alerts of every monitor\.\n/.exec(added.stdout) ?? [];
  t.ok(id, added.stdout);
  t.match(added.stdout, new RegExp(`Send it a test message: pingmon channels test ${id}\\n$`));
  const byUrl = await json('channels', 'add', '--type', 'email', '--url', 'mailto:nobody@example.com');
  t.match(byUrl, { name: 'email channel', type: 'email', url: 'mailto:nobody@example.com', hasSecret: false });

  const table = await cli('channels', 'list');
  t.match(
    table.stdout,
    new RegExp(
      `${id}\\s+ops mail\\s+email\\s+mailto:ops@example\\.com,oncall@example\\.com\\s+every monitor\\s+enabled`,
    ),
    'the recipients are listed whole',
  );
  t.match(await json('channels', 'list'), [
    { channelId: byUrl.channelId, url: 'mailto:nobody@example.com' },
    { channelId: id, url: 'mailto:ops@example.com,oncall@example.com' },
  ]);

  const tested = await cli('channels', 'test', id!);
  t.equal(tested.code, 0, tested.stderr);
  t.match(tested.stdout, new RegExp(`^Delivered to ${id}: sent in \\d+ms\\.\\n$`));
  const mail = await waitFor(() => smtp.received.find((m) => m.subject === '[pingmon] test message'));
  t.same(mail.to.sort(), ['oncall@example.com', 'ops@example.com']);
  const refused = await cli('channels', 'test', byUrl.channelId);
  t.equal(refused.code, 1);
  t.match(refused.stderr, new RegExp(`^pingmon: not delivered to ${byUrl.channelId}: SMTP 550 no such mailbox`));

  const [noTo, toForSlack, both, badAddress] = await Promise.all([
    cli('channels', 'add', '--type', 'email'),
    cli('channels', 'add', '--type', 'slack', '--to', 'ops@example.com'),
    cli('channels', 'add', '--type', 'email', '--to', 'ops@example.com', '--url', 'mailto:ops@example.com'),
    cli('channels', 'add', '--type', 'email', '--to', 'ops@example.com', '--to', 'nope'),
  ]);
  t.equal(noTo.code, 2);
  t.equal(
    noTo.stderr,
    'pingmon: an email channel needs its recipients: --to ADDRESS, repeatable (e.g. --to ops@example.com)\n',
  );
  t.equal(toForSlack.code, 2);
  t.equal(toForSlack.stderr, 'pingmon: --to is for email channels only: a slack channel is given its --url\n');
  t.equal(both.code, 2);
  t.match(both.stderr, /^pingmon: --(to|url)=\S+ cannot also be provided when using --(url|to)\n$/);
  t.equal(badAddress.code, 1);
  t.equal(badAddress.stderr, 'pingmon: "nope" in "url" is not an e-mail address.\n');

  const updated = await cli('channels', 'update', id!, '--to', 'night@example.com');
  t.equal(updated.code, 0, updated.stderr);
  t.match(updated.stdout, `Updated ${id} (ops mail, email) for the alerts of every monitor.`);
  t.match(await json('channels', 'list'), [{}, { channelId: id, url: 'mailto:night@example.com' }]);
  await cli('channels', 'disable', byUrl.channelId);

  const m = await api.monitor(alice, 'nightly backup');
  await api.ping(alice, m, 'fail', { errorMessage: 'disk full', logOutput: 'No space left on device\n' });
  const alert = await waitFor(async () => {
    const alerts = await json('alerts', '--monitor', m);
    return alerts[0]?.deliveries[0]?.state === 'delivered' && alerts[0];
  });
  t.match(alert.deliveries, [{ channelId: id, channelType: 'email', state: 'delivered' }]);
  const shown = await cli('alerts', '--monitor', m);
  t.match(shown.stdout, /ops mail\s+✓ delivered /);
  const sent = smtp.received.find((r) => r.to.includes('night@example.com'));
  t.equal(sent?.subject, '[pingmon] nightly backup failed');

  // Only the server knows a channel's type: --to for another one is refused, saying what --to is for.
  const hook = await json('channels', 'add', '--type', 'webhook', '--url', 'https://example.com/hook');
  const [toWebhook, badTo] = await Promise.all([
    cli('channels', 'update', hook.channelId, '--to', 'ops@example.com'),
    cli('channels', 'update', id!, '--to', 'nope'),
  ]);
  t.equal(toWebhook.code, 2, 'a usage error, as with channels add');
  t.equal(
    toWebhook.stderr,
    `pingmon: --to is for email channels only: ${hook.channelId} is not one, give it a new --url instead\n`,
  );
  t.equal(badTo.code, 1);
  t.equal(badTo.stderr, 'pingmon: "nope" in "url" is not an e-mail address.\n', 'an email channel: the address');
});

t.test('an email channel on a server without SMTP settings: the server says which to set', async (t) => {
  const { api, as } = await alertsCli(t);
  const { cli } = as(await api.account());
  const result = await cli('channels', 'add', '--type', 'email', '--to', 'ops@example.com');
  t.equal(result.code, 1);
  t.match(
    result.stderr,
    /^pingmon: E-mail channels need an SMTP server, .* sets PINGMON_SMTP_URL and PINGMON_SMTP_FROM/,
  );
});
