import t from 'tap';
import { json as reply, startReceiver } from '../../helpers/receiver.js';

import { alertsCli } from '../../helpers/alerts-cli.js';

t.test('channels update from the command line against a real server', async (t) => {
  const { api, as } = await alertsCli(t);

  t.test(
    'channels update changes the name, URL, secret and monitors; nothing to change is a usage error',
    async (t) => {
      const alice = await api.account();
      const { cli, json } = as(alice);
      const receiver = await startReceiver(t, (_req, _n, res) => reply(res, 200, { ok: true }));
      const [m1, m2] = [await api.monitor(alice, 'backup'), await api.monitor(alice, 'export')];
      const hook = await json(
        'channels',
        'add',
        '--type',
        'webhook',
        '--url',
        `${receiver.url}/old`,
        '--secret',
        'whsec_0123456789abcdef',
        '--monitor',
        m1,
      );

      const moved = await cli('channels', 'update', hook.channelId, '--url', `${receiver.url}/new`);
      t.equal(moved.code, 0, moved.stderr);
      t.equal(
        moved.stdout,
        `Updated ${hook.channelId} (webhook channel, webhook, signed) for the alerts of ${m1}.\n` +
          `Send it a test message: pingmon channels test ${hook.channelId}\n`,
      );
      t.equal((await cli('channels', 'test', hook.channelId)).code, 0);
      t.equal(receiver.received.at(-1)!.url, '/new', 'the test went to the new URL');
      t.ok(receiver.received.at(-1)!.headers['x-pingmon-signature'], 'still signed');

      t.match(await json('channels', 'update', hook.channelId, '--monitor', m1, '--monitor', m2), {
        monitorIds: [m1, m2],
      });
      const opened = await json(
        'channels',
        'update',
        hook.channelId,
        '--name',
        'all jobs',
        '--all-monitors',
        '--remove-secret',
      );
      t.match(opened, {
        channelId: hook.channelId,
        name: 'all jobs',
        hasSecret: false,
        monitorIds: null,
        url: `${receiver.url}/…`,
      });
      t.equal((await cli('channels', 'test', hook.channelId)).code, 0);
      t.equal(receiver.received.at(-1)!.headers['x-pingmon-signature'], undefined, 'no longer signed');
      t.match(
        (await cli('channels', 'update', hook.channelId, '--secret', 'whsec_another_secret')).stdout,
        /\(all jobs, webhook, signed\) for the alerts of every monitor\.\n$/,
      );

      const slack = await json('channels', 'add', '--type', 'slack', '--url', receiver.url);
      const [nothing, both, secretForSlack, nowhere, unknownMonitor] = await Promise.all([
        cli('channels', 'update', hook.channelId),
        cli('channels', 'update', hook.channelId, '--secret', 'whsec_0123456789abcdef', '--remove-secret'),
        cli('channels', 'update', slack.channelId, '--secret', 'whsec_0123456789abcdef'),
        cli('channels', 'update', 'ch_nope', '--name', 'x'),
        cli('channels', 'update', hook.channelId, '--monitor', 'mon_nope'),
      ]);
      t.equal(nothing.code, 2);
      t.equal(
        nothing.stderr,
        'pingmon: say what to change: --name, --url, --to, --secret, --remove-secret, --option, --options-file, ' +
          '--body-file, --content-type, --method, --header, --repeat, --no-repeat, --escalate-after, --no-escalate, ' +
          '--monitor or --all-monitors\n',
      );
      t.equal(both.code, 2);
      t.match(both.stderr, /^pingmon: --remove-secret=true cannot also be provided when using --secret\n$/);
      t.equal(secretForSlack.code, 1);
      t.match(secretForSlack.stderr, /^pingmon: .*secret.*\n$/);
      t.equal(nowhere.code, 1);
      t.equal(nowhere.stderr, 'pingmon: No channel ch_nope in your account.\n');
      t.equal(unknownMonitor.code, 1);
      t.equal(unknownMonitor.stderr, 'pingmon: monitorIds names monitors that are not in your account: mon_nope.\n');
      t.match(
        (await json('channels', 'list')).find((c: { channelId: string }) => c.channelId === hook.channelId),
        { name: 'all jobs', hasSecret: true, monitorIds: null },
        'the refused updates changed nothing',
      );
    },
  );
});
