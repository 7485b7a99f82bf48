import { createHmac } from 'node:crypto';
import t from 'tap';
import { json as reply, startReceiver } from '../../helpers/receiver.js';

import { alertsCli } from '../../helpers/alerts-cli.js';

t.test('channels from the command line against a real server', async (t) => {
  const { api, as } = await alertsCli(t);

  t.test('channels add, list, test, disable, enable, remove, with a real receiver', async (t) => {
    const alice = await api.account();
    const { cli, json } = as(alice);
    const receiver = await startReceiver(t, (req, _n, res) =>
      req.url === '/busy' ? reply(res, 503, { error: 'busy' }) : reply(res, 200, { ok: true }),
    );
    const m = await api.monitor(alice, 'nightly backup');
    t.equal(
      (await cli('channels', 'list')).stdout,
      'No channels yet: add one with `pingmon channels add --type TYPE` (slack, discord, webhook, email, ' +
        'pagerduty, telegram and more: `pingmon channels add --help` lists them).\n',
    );

    const added = await cli(
      'channels',
      'add',
      '--type',
      'webhook',
      '--url',
      `${receiver.url}/hook/token-in-path`,
      '--name',
      'incident bot',
      '--secret',
      'whsec_0123456789abcdef',
    );
    t.equal(added.code, 0, added.stderr);
    const [, hookId] =
      /^Added (ch_\w+) \(incident bot, webhook, signed\) for the alerts of every monitor\.\n/.exec(added.stdout) ?? [];
    t.ok(hookId, added.stdout);
    t.match(added.stdout, new RegExp(`Send it a test message: pingmon channels test ${hookId}\\n$`));
    const slack = await json('channels', 'add', '--type', 'slack', '--url', `${receiver.url}/busy`, '--monitor', m);
    t.match(slack, {
      channelId: /^ch_/,
      name: 'slack channel',
      type: 'slack',
      url: `${receiver.url}/…`,
      hasSecret: false,
      monitorIds: [m],
      enabled: true,
    });

    const [secretForSlack, badType, noUrl, unknownMonitor] = await Promise.all([
      cli('channels', 'add', '--type', 'slack', '--url', receiver.url, '--secret', 'whsec_0123456789abcdef'),
      cli('channels', 'add', '--type', 'teams', '--url', receiver.url),
      cli('channels', 'add', '--type', 'slack'),
      cli('channels', 'add', '--type', 'slack', '--url', receiver.url, '--monitor', 'mon_nope'),
    ]);
    // The server says which kinds take a secret and which need a URL: the CLI leaves it to it.
    t.equal(secretForSlack.code, 1);
    t.equal(secretForSlack.stderr, 'pingmon: A Slack channel cannot have a secret: it has no use for one.\n');
    t.equal(badType.code, 2);
    t.match(
      badType.stderr,
      /^pingmon: Expected --type=teams to be one of: slack, discord, webhook, email, template, .*, matrix\n$/,
    );
    t.equal(noUrl.code, 1);
    t.match(noUrl.stderr, /^pingmon: A Slack channel needs "url": The incoming webhook URL .*\n$/);
    t.equal(unknownMonitor.code, 1);
    t.equal(unknownMonitor.stderr, 'pingmon: monitorIds names monitors that are not in your account: mon_nope.\n');

    const listed = await json('channels', 'list');
    t.same(
      listed.map((c: { channelId: string }) => c.channelId),
      [slack.channelId, hookId],
      'newest first, nothing created by the refused commands',
    );
    const table = await cli('channels', 'list');
    t.match(table.stdout, /^ID\s+NAME\s+TYPE\s+URL\s+ALERTS OF\s+STATE\n/);
    t.match(
      table.stdout,
      new RegExp(
        `${hookId}\\s+incident bot\\s+webhook, signed\\s+http://127\\.0\\.0\\.1:\\d+/…\\s+every monitor\\s+enabled`,
      ),
    );
    t.match(table.stdout, new RegExp(`${slack.channelId}\\s+slack channel\\s+slack\\s+\\S+\\s+${m}\\s+enabled`));
    t.notMatch(
      table.stdout + JSON.stringify(listed),
      /token-in-path|whsec_/,
      'neither the full URL nor the secret is shown',
    );

    const tested = await cli('channels', 'test', hookId!);
    t.equal(tested.code, 0, tested.stderr);
    t.match(tested.stdout, new RegExp(`^Delivered to ${hookId}: HTTP 200 in \\d+(ms|s)\\.\\n$`));
    const sent = receiver.received.at(-1)!;
    t.equal(sent.url, '/hook/token-in-path');
    t.match(JSON.parse(sent.body), { event: 'test', alertId: null, errorMessage: /incident bot/ });
    const [, ts, mac] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(sent.headers['x-pingmon-signature']))!;
    t.equal(mac, createHmac('sha256', 'whsec_0123456789abcdef').update(`${ts}.${sent.body}`).digest('hex'), 'signed');

    const refused = await cli('channels', 'test', slack.channelId);
    t.equal(refused.code, 1);
    t.equal(refused.stdout, '');
    t.match(
      refused.stderr,
      new RegExp(`^pingmon: not delivered to ${slack.channelId}: HTTP 503 in \\d+(ms|s): \\{"error":"busy"\\}\\n$`),
    );
    const refusedJson = await cli('channels', 'test', slack.channelId, '--json');
    t.equal(refusedJson.code, 1);
    t.match(JSON.parse(refusedJson.stdout), { delivered: false, statusCode: 503, error: 'HTTP 503: {"error":"busy"}' });
    t.match(JSON.parse((await cli('channels', 'test', hookId!, '--json')).stdout), {
      delivered: true,
      statusCode: 200,
      error: null,
    });
    const nowhere = await cli('channels', 'test', 'ch_nope');
    t.equal(nowhere.code, 1);
    t.equal(nowhere.stderr, 'pingmon: No channel ch_nope in your account.\n');

    const disabled = await cli('channels', 'disable', slack.channelId);
    t.equal(disabled.code, 0);
    t.match(disabled.stdout, /^Disabled ch_\w+ \(slack channel\)/);
    t.match(await cli('channels', 'list'), { stdout: new RegExp(`${slack.channelId}.*disabled`) });
    t.equal((await cli('channels', 'enable', slack.channelId)).code, 0);
    t.equal((await json('channels', 'list'))[0].enabled, true);

    const removed = await cli('channels', 'remove', slack.channelId);
    t.equal(removed.code, 0);
    t.equal(removed.stdout, `Removed ${slack.channelId}; alerts still waiting for it will not be sent.\n`);
    t.same(
      (await json('channels', 'list')).map((c: { channelId: string }) => c.channelId),
      [hookId],
    );
    const twice = await cli('channels', 'remove', slack.channelId);
    t.equal(twice.code, 1);
    t.equal(twice.stderr, `pingmon: No channel ${slack.channelId} in your account.\n`);
  });
});
