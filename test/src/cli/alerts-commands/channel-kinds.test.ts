import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { tempDir } from '../../helpers/databases.js';
import { json as reply, startReceiver } from '../../helpers/receiver.js';
import { alertsCli } from '../../helpers/alerts-cli.js';

// Every kind from the command line (docs/cli.md#pingmon-channels-add): vendor URLs left to the server, options as
// --option, --options-file and a template's own flags, repeats and escalation as durations, and template previews.

const ROUTING_KEY = 'e93facc04764012d7bfb002500d5d1a6';
const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const BODY = '{"text": "{{headline}}", "event": "{{event}}"}';
const BAD_BODY = '{"text": {{headline}} {{event}}}';
const OUTSIDE_QUOTES =
  /^body: \{\{event\}\} at line 1, column 23 is outside quotes, so it stands for a whole JSON value/;

t.test('channels of every kind from the command line against a real server', async (t) => {
  const { api, as } = await alertsCli(t);
  const alice = await api.account();
  const { cli, json } = as(alice);
  const receiver = await startReceiver(t, (_req, _n, res) => reply(res, 200, { ok: true }));
  const dir = tempDir('pingmon-channel-files-');
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
  const [body, badBody, labels] = [
    file('body.json', BODY),
    file('bad.json', BAD_BODY),
    file('labels.json', '{"labels": {"team": "data"}}'),
  ];

  t.test('add: a vendor URL by default, options, a secret for any kind, repeats and escalation', async (t) => {
    const add = (...args: string[]) => cli('channels', 'add', ...args);
    const [pagerduty, telegram, template, alertmanager] = await Promise.all([
      json('channels', 'add', '--type', 'pagerduty', '--secret', ROUTING_KEY, '--escalate-after', '15m'),
      add(
        '--type',
        'telegram',
        '--name',
        'tg',
        '--secret',
        BOT_TOKEN,
        '--option',
        'chatId=-1001234567890',
        '--repeat',
        '10m',
      ),
      json(
        'channels',
        'add',
        '--type',
        'template',
        '--url',
        `${receiver.url}/tpl`,
        '--body-file',
        body,
        '--header',
        'X-Event: {{event}}',
      ),
      json(
        'channels',
        'add',
        '--type',
        'alertmanager',
        '--url',
        receiver.url,
        '--options-file',
        labels,
        '--option',
        'severity=page',
      ),
    ]);
    t.match(pagerduty, {
      type: 'pagerduty',
      url: 'https://events.pagerduty.com/…',
      hasSecret: true,
      options: {},
      repeatEvery: null,
      escalateAfter: 900,
    });
    t.equal(telegram.code, 0, telegram.stderr);
    const [, tgId] = /^Added (ch_\w+) \(tg, telegram\) for the alerts of every monitor\.\n/.exec(telegram.stdout) ?? [];
    t.ok(tgId, telegram.stdout);
    t.match(telegram.stdout, /\nSettings: chatId=-1001234567890, repeat every 10m\.\nSend it a test message: /);
    t.match(template, {
      type: 'template',
      hasSecret: false,
      options: { body: BODY, contentType: 'json', method: 'POST', headers: { 'X-Event': '…' } },
    });
    t.match(alertmanager, { options: { labels: { team: 'data' }, severity: 'page' } });

    const listed = await json('channels', 'list');
    t.match(
      listed.find((c: { channelId: string }) => c.channelId === tgId),
      {
        type: 'telegram',
        url: 'https://api.telegram.org/…',
        options: { chatId: /^-1001234567890$/ },
        repeatEvery: 600,
        escalateAfter: null,
      },
    );
    // Wide enough for every column whole (a narrower terminal cuts the widest first).
    const table = (await as(alice, { COLUMNS: '250' }).cli('channels', 'list')).stdout;
    t.match(table, /^ID\s+NAME\s+TYPE\s+URL\s+ALERTS OF\s+STATE\s+SETTINGS\n/);
    t.match(table, new RegExp(`${tgId}\\s+tg\\s+telegram\\s+.*\\s+chatId=-1001234567890, repeat every 10m\\n`));
    t.match(table, new RegExp(`${pagerduty.channelId}\\s.*pagerduty\\s.*\\s+escalate after 15m\\n`));
    t.match(table, /labels=\{team=data\}, severity=page\n/);
    t.match(table, /body=\(46 characters\), headers=\{X-Event=…\}, contentType=json, method=POST\n/);

    const tested = await cli('channels', 'test', template.channelId);
    t.equal(tested.code, 0, tested.stderr);
    const sent = receiver.received.at(-1)!;
    t.equal(sent.url, '/tpl');
    t.equal(sent.headers['x-event'], 'test');
    t.same(JSON.parse(sent.body), { text: 'pingmon test message', event: 'test' }, 'the body file, rendered');

    const updated = await json(
      'channels',
      'update',
      tgId!,
      '--option',
      'chatId=@pingmon_ops',
      '--no-repeat',
      '--escalate-after',
      '1h',
    );
    t.match(updated, { options: { chatId: '@pingmon_ops' }, repeatEvery: null, escalateAfter: 3600 });
  });

  t.test("refusals: the server's own message (exit 1), or the command line's mistake (exit 2)", async (t) => {
    const add = (...args: string[]) => cli('channels', 'add', ...args);
    const [badOption, shortRepeat, badTemplate, slackBody, noEquals, noBody] = await Promise.all([
      add('--type', 'ntfy', '--url', `${receiver.url}/alerts`, '--option', 'priority=9'),
      add('--type', 'webhook', '--url', receiver.url, '--repeat', '30s'),
      add('--type', 'template', '--url', receiver.url, '--body-file', badBody),
      add('--type', 'slack', '--url', receiver.url, '--body-file', body),
      add('--type', 'telegram', '--secret', BOT_TOKEN, '--option', 'chatId'),
      add('--type', 'template', '--url', receiver.url),
    ]);
    t.match(badOption, {
      code: 1,
      stderr: 'pingmon: options.priority: 1 (min) to 5 (max), for alerts of a problem.\n',
    });
    t.match(shortRepeat, { code: 1, stderr: /^pingmon: "repeatEvery" must be at least 60 seconds between repeats/ });
    t.equal(badTemplate.code, 1);
    t.match(badTemplate.stderr.replace(/^pingmon: /, ''), OUTSIDE_QUOTES);
    t.match(slackBody, {
      code: 2,
      stderr:
        "pingmon: --body-file, --content-type, --method, --header are for template channels: give a slack channel's " +
        'with --option\n',
    });
    t.match(noEquals, {
      code: 2,
      stderr: 'pingmon: --option must be KEY=VALUE, e.g. --option chatId=-1001234567890 (got "chatId")\n',
    });
    t.match(noBody, {
      code: 2,
      stderr: 'pingmon: a template channel needs its body: --body-file FILE (or "body" in --options-file)\n',
    });
  });

  t.test('preview renders a template for the sample alerts, or says why it cannot (exit 1)', async (t) => {
    const preview = (...args: string[]) => cli('channels', 'preview', ...args);
    const [good, goodJson, bad, badJson] = await Promise.all([
      preview('--body-file', body, '--header', 'X-Event: {{event}}', '--url', 'https://example.com/hook'),
      preview('--body-file', body, '--content-type', 'text', '--method', 'PUT', '--json'),
      preview('--body-file', badBody),
      preview('--body-file', badBody, '--json'),
    ]);
    t.equal(good.code, 0, good.stderr);
    t.equal(
      good.stdout.split('\n--- sample timed_out ---\n')[0],
      [
        '--- sample fail ---',
        'POST https://example.com/hook',
        'x-event: fail',
        'content-type: application/json',
        'user-agent: pingmon/0.1.0',
        '',
        '{"text": "nightly backup failed", "event": "fail"}',
        '',
      ].join('\n'),
    );
    t.match(good.stdout, /\n--- sample missed_group \(missed\) ---\nPOST https:\/\/example\.com\/hook\n/);
    t.equal(goodJson.code, 0, goodJson.stderr);
    const answer = JSON.parse(goodJson.stdout);
    t.equal(answer.problem, null);
    t.equal(answer.previews.length, 8);
    t.match(answer.previews[0], {
      sample: 'fail',
      method: 'PUT',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: '{"text": "nightly backup failed", "event": "fail"}',
    });
    t.equal(bad.code, 1);
    t.equal(bad.stdout, '');
    t.match(bad.stderr.replace(/^pingmon: the template cannot render: /, ''), OUTSIDE_QUOTES);
    t.equal(badJson.code, 1);
    t.match(JSON.parse(badJson.stdout), { problem: OUTSIDE_QUOTES, previews: [] });
  });
});
