import { createHmac } from 'node:crypto';
import t from 'tap';
import { loadConfig } from '@pingmon/server';
import {
  afterAttempt,
  backoffMs,
  breakFences,
  kindOf,
  discordPayload,
  logTail,
  maskUrl,
  matchRules,
  parseRetryAfter,
  signature,
  slackPayload,
  verdictOf,
} from '@pingmon/server/internal';
import type { AlertContent, AttemptResult, RetryPolicy, RuleCondition } from '@pingmon/server/internal';
import { FIXED_RULE } from '../../helpers/alert-fixtures.js';
import type { RuleOp } from '@pingmon/sdk';

const rule = (op: RuleOp, value: number, metric = 'rows'): RuleCondition => ({
  ruleId: `rule_${op}`,
  metric,
  op,
  value,
  baseline: null,
  window: null,
});

t.test('every operator matches exactly when its comparison holds', async (t) => {
  const cases: Array<[RuleOp, number, number, boolean]> = [
    ['lt', 1, 0, true],
    ['lt', 1, 1, false],
    ['lt', 1, 2, false],
    ['lte', 1, 0, true],
    ['lte', 1, 1, true],
    ['lte', 1, 2, false],
    ['gt', 1, 0, false],
    ['gt', 1, 1, false],
    ['gt', 1, 2, true],
    ['gte', 1, 0, false],
    ['gte', 1, 1, true],
    ['gte', 1, 2, true],
    ['eq', 1, 0, false],
    ['eq', 1, 1, true],
    ['eq', 0.5, 0.5, true],
    ['neq', 1, 0, true],
    ['neq', 1, 1, false],
    ['neq', -1, 1, true],
  ];
  for (const [op, value, actual, matches] of cases) {
    const matched = matchRules([rule(op, value)], { rows: actual });
    t.same(
      matched,
      matches ? [{ ruleId: `rule_${op}`, metric: 'rows', op, value, actual, ...FIXED_RULE }] : null,
      `${actual} ${op} ${value}`,
    );
  }
});

t.test('a rule whose metric is missing never matches, and all matching rules are listed in order', async (t) => {
  t.equal(matchRules([rule('lt', 1)], {}), null);
  t.equal(matchRules([rule('neq', 5)], { other: 1 }), null, 'not even neq');
  t.equal(matchRules([rule('eq', 0, 'toString')], {}), null, 'inherited properties are not metrics');
  const matched = matchRules([rule('lt', 10), rule('gt', 100, 'ms'), rule('eq', 3), rule('gte', 0, 'ms')], {
    rows: 3,
    ms: 50,
  });
  t.same(
    matched!.map((m) => m.ruleId),
    ['rule_lt', 'rule_eq', 'rule_gte'],
  );
});

const policy: RetryPolicy = { maxAttempts: 8, baseDelayMs: 30_000, maxDelayMs: 3_600_000 };
const result = (statusCode: number | null, retryAfterMs: number | null = null): AttemptResult => ({
  statusCode,
  error: null,
  durationMs: 5,
  retryAfterMs,
});

t.test('attempt results: 2xx delivered; no answer, 429 and 5xx retried; other statuses permanent', async (t) => {
  const cases: Array<[number | null, string]> = [
    [200, 'delivered'],
    [204, 'delivered'],
    [null, 'retry'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
    [400, 'permanent'],
    [401, 'permanent'],
    [404, 'permanent'],
    [410, 'permanent'],
    [301, 'permanent'],
    [302, 'permanent'],
  ];
  for (const [status, verdict] of cases) t.equal(verdictOf(result(status)), verdict, String(status));
});

t.test('backoff doubles from the base, ±20%, capped, about an hour over 8 attempts', async (t) => {
  t.same(
    [1, 2, 3, 7].map((n) => backoffMs(n, policy, 0.5)),
    [30_000, 60_000, 120_000, 1_920_000],
  );
  t.equal(backoffMs(1, policy, 0), 24_000);
  t.equal(backoffMs(1, policy, 0.999999), 36_000);
  t.equal(backoffMs(20, policy, 0.5), 3_600_000, 'capped');
  const total = [1, 2, 3, 4, 5, 6, 7].reduce((sum, n) => sum + backoffMs(n, policy, 0.5), 0);
  t.equal(total, 3_810_000, '63.5 minutes between the first and the eighth attempt');
});

t.test(
  'after an attempt: the next one is scheduled, Retry-After wins, and the last attempt fails the delivery',
  async (t) => {
    const now = 1_000_000;
    t.same(afterAttempt(result(200), 1, policy, now, 0.5), { state: 'delivered', nextAttemptAt: now });
    t.same(afterAttempt(result(500), 1, policy, now, 0.5), { state: 'pending', nextAttemptAt: now + 30_000 });
    t.same(afterAttempt(result(null), 2, policy, now, 0.5), { state: 'pending', nextAttemptAt: now + 60_000 });
    t.same(afterAttempt(result(429, 5_000), 1, policy, now, 0.5), { state: 'pending', nextAttemptAt: now + 5_000 });
    t.same(
      afterAttempt(result(429, 10 * 3_600_000), 1, policy, now, 0.5),
      { state: 'pending', nextAttemptAt: now + 3_600_000 },
      'Retry-After capped',
    );
    t.same(afterAttempt(result(400), 1, policy, now, 0.5), { state: 'failed', nextAttemptAt: now });
    t.same(afterAttempt(result(500), 8, policy, now, 0.5), { state: 'failed', nextAttemptAt: now });
  },
);

t.test('Retry-After in seconds or as an HTTP date', async (t) => {
  const now = Date.parse('2026-11-22T03:20:00.000Z');
  t.equal(parseRetryAfter('120', now), 120_000);
  t.equal(parseRetryAfter(' 0 ', now), 0);
  t.equal(parseRetryAfter('Sun, 22 Nov 2026 03:20:30 GMT', now), 30_000);
  t.equal(parseRetryAfter('Sun, 22 Nov 2026 03:00:00 GMT', now), 0, 'a date in the past: now');
  t.equal(parseRetryAfter('soon', now), null);
  t.equal(parseRetryAfter(null, now), null);
});

t.test(
  'Retry-After that is neither seconds nor an HTTP date is no Retry-After (the backoff applies), not "now"',
  async (t) => {
    const now = Date.parse('2026-11-22T03:20:00.000Z');
    // Date.parse reads each of these as a date in 2001 or earlier, which would have meant "retry at once".
    for (const junk of ['-5', '1.2.3', '120 seconds', '0x10', '1e3', 'Infinity', '2026-11-22', 'Nov 22 2026']) {
      t.equal(parseRetryAfter(junk, now), null, JSON.stringify(junk));
    }
    t.equal(parseRetryAfter('1.5', now), 1_500, 'decimal seconds, though not in the RFC, mean what they say');
    t.equal(parseRetryAfter('Sunday, 22-Nov-26 03:20:30 GMT', now), 30_000, 'the obsolete RFC 850 form');
    t.equal(
      parseRetryAfter('Sun Nov 22 03:20:30 2026', now),
      30_000,
      "and asctime's, in GMT whatever the server's time zone",
    );
    t.equal(parseRetryAfter('99999999999999999999999', now), 1e23 * 1000, 'huge: capped by the policy, not here');
  },
);

t.test('URLs are masked down to their origin', async (t) => {
  t.equal(maskUrl('https://hooks.slack.com/services/T0/B0/XXXX'), 'https://hooks.slack.com/…');
  t.equal(maskUrl('https://user:pw@example.com:8443/hook?token=abc'), 'https://example.com:8443/…');
  t.equal(maskUrl('http://127.0.0.1:9000/'), 'http://127.0.0.1:9000/…');
});

const failAlert = (over: Partial<AlertContent> = {}): AlertContent => ({
  event: 'fail',
  alertId: 'alert_1',
  monitorId: 'mon_1',
  monitorName: 'nightly backup',
  runId: 'run_1',
  status: 'failed',
  errorMessage: 'exit code 2',
  logSnippet: 'line 1\nline 2',
  logTail: null,
  meta: { exitCode: 2 },
  matchedRules: [],
  expectedAt: null,
  lastRunAt: null,
  lastRunStatus: null,
  createdAt: Date.parse('2026-11-22T03:20:00.000Z'),
  ...over,
});

/** The text between the first opening fence and the next fence. */
function codeBlock(text: string): string | undefined {
  return /```\n([\s\S]*?)\n```/.exec(text)?.[1];
}

t.test('backticks in a snippet never close its code block, in Slack or Discord', async (t) => {
  const snippets = [
    '```',
    'a ``` b',
    '````````',
    '`',
    'ends with ``',
    '``` starts',
    '`\n``\n```',
    'x'.repeat(10) + '`'.repeat(490),
  ];
  for (const snippet of snippets) {
    t.notMatch(breakFences(snippet), /``/, JSON.stringify(snippet).slice(0, 30));
    t.equal(breakFences(snippet).replace(/\u200b/g, ''), snippet, 'reads the same without the zero-width spaces');
    const slack = slackPayload(failAlert({ logSnippet: snippet }));
    const slackBlock = (slack.blocks[1] as { text: { text: string } }).text.text;
    t.equal(slackBlock.match(/```/g)!.length, 2, 'slack: one opening and one closing fence');
    t.equal(
      codeBlock(slackBlock)!.replace(/\u200b/g, ''),
      snippet.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    );
    const discord = discordPayload(failAlert({ logSnippet: snippet })).content;
    t.equal(discord.match(/```/g)!.length, 2, 'discord: one opening and one closing fence');
    t.equal(codeBlock(discord)!.replace(/\u200b/g, ''), snippet);
  }
});

t.test('an error message with fences cannot open a block in Discord or Slack either', async (t) => {
  const alert = failAlert({ errorMessage: 'bad ``` thing', logSnippet: 'log' });
  t.equal(discordPayload(alert).content.match(/```/g)!.length, 2);
  const slack = slackPayload(alert);
  t.notMatch((slack.blocks[0] as { text: { text: string } }).text.text, /```/);
});

t.test(
  'Discord messages stay within 2,000 characters, the snippet giving way first and the block closed',
  async (t) => {
    const rules = Array.from({ length: 20 }, (_, i) => ({
      ruleId: `rule_${i}`,
      metric: `m${i}`.padEnd(64, 'x'),
      op: 'lt' as const,
      value: 1e20,
      actual: -1e20,
      ...FIXED_RULE,
    }));
    const cases: AlertContent[] = [
      failAlert({ monitorName: 'n'.repeat(200), errorMessage: '*'.repeat(500), logSnippet: '`'.repeat(500) }),
      failAlert({ monitorName: '_'.repeat(200), errorMessage: 'e'.repeat(500), logSnippet: 'l'.repeat(500) }),
      failAlert({
        event: 'silent_failure',
        status: 'success',
        errorMessage: null,
        logSnippet: null,
        matchedRules: rules,
        monitorName: '*'.repeat(200),
      }),
    ];
    for (const alert of cases) {
      const content = discordPayload(alert).content;
      t.ok(content.length <= 2_000, `${content.length} characters`);
      if (alert.logSnippet) {
        t.equal(content.match(/```/g)!.length, 2, 'the block is closed');
        t.match(content, /run run\\_1 · monitor mon\\_1/, 'the footer is kept');
      }
    }
    const short = discordPayload(failAlert());
    t.same(short.allowed_mentions, { parse: [] }, 'mentions ping nobody');
    t.equal(
      short.content,
      '🔴 **nightly backup** failed\nexit code 2\n```\nline 1\nline 2\n```\n' +
        'run run\\_1 · monitor mon\\_1 · 2026-11-22T03:20:00.000Z',
    );
  },
);

t.test('the end of a log: its last lines within 500 characters, from the start of a line', async (t) => {
  const cases: Array<[string, string, string]> = [
    ['a short log, whole, trailing blank lines left out', 'a\nb\n\n  \n', 'a\nb'],
    ['a long log: the lines that fit', `${'x'.repeat(600)}\n${'y'.repeat(300)}\n${'z'.repeat(150)}\n`, ''],
    ['a last line over 500: its end', `head\n${'q'.repeat(450)}${'w'.repeat(450)}`, 'q'.repeat(50) + 'w'.repeat(450)],
    ['never half an emoji', `${'🙂'.repeat(300)}x`, `${'🙂'.repeat(249)}x`],
    ['nothing but blanks', '\n\n \n', ''],
  ];
  cases[1]![2] = `${'y'.repeat(300)}\n${'z'.repeat(150)}`;
  for (const [what, log, tail] of cases) {
    t.equal(logTail(log), tail, what);
    t.ok(logTail(log).length <= 500, what);
  }
});

t.test('the end of the log is shown below the snippet only when the snippet does not show it', async (t) => {
  const short = failAlert({ logSnippet: 'line 1\nline 2\n', logTail: 'line 1\nline 2' });
  t.equal(discordPayload(short).content.match(/```/g)!.length, 2, 'discord: a short log once');
  t.equal(slackPayload(short).blocks.length, 3, 'slack: headline, snippet, context');
  const long = failAlert({ logSnippet: 'banner\n', logTail: 'cause ``` here' });
  const content = discordPayload(long).content;
  t.match(content, '```\nbanner\n\n```\n…end of the log:\n```\ncause `\u200b`\u200b` here\n```\nrun run\\_1');
  const blocks = slackPayload(long).blocks as Array<{ text?: { text: string } }>;
  t.equal(blocks[2]!.text!.text, '…end of the log:\n```\ncause `\u200b`\u200b` here\n```');
});

t.test('Discord: with the longest of everything, within 2,000 characters, the end keeping its last line', async (t) => {
  const log = `${'`'.repeat(9_960)}\nFATAL: the cause \`\`\``;
  const alert = failAlert({
    monitorName: '*'.repeat(200),
    errorMessage: '`'.repeat(500),
    logSnippet: log.slice(0, 500),
    logTail: logTail(log),
  });
  const content = discordPayload(alert).content;
  t.ok(content.length <= 2_000, `${content.length} characters`);
  t.equal(content.match(/```/g)!.length, 4, 'two blocks, closed');
  t.match(content, /FATAL: the cause `\u200b`\u200b`\n```\nrun run\\_1 · monitor mon\\_1/, 'the cause and the footer');
});

t.test('Slack: text, a section with the headline, the snippet block, a context line; &, < and > escaped', async (t) => {
  const slack = slackPayload(failAlert({ monitorName: 'a<b>&c', errorMessage: '<!channel> boom' }));
  t.equal(slack.text, 'a&lt;b&gt;&amp;c failed: &lt;!channel&gt; boom');
  t.same(
    slack.blocks.map((b) => (b as { type: string }).type),
    ['section', 'section', 'context'],
  );
  t.equal(
    (slack.blocks[0] as { text: { text: string } }).text.text,
    ':red_circle: *a&lt;b&gt;&amp;c* failed\n&lt;!channel&gt; boom',
  );
  const noLog = slackPayload(failAlert({ logSnippet: null }));
  t.same(
    noLog.blocks.map((b) => (b as { type: string }).type),
    ['section', 'context'],
    'no empty block without a log',
  );
});

t.test(
  'webhook requests carry the JSON payload, a user agent and, with a secret, a verifiable signature',
  async (t) => {
    const content = failAlert();
    const channel = { channelId: 'ch_1', url: 'http://127.0.0.1:9/hook', options: {} };
    const buildRequest = (target: { type: 'webhook' | 'slack'; secret: string | null }, nowSeconds: number) =>
      kindOf(target.type).request!({ ...channel, ...target }, content, { nowSeconds, messageKey: 'm1' });
    const unsigned = buildRequest({ type: 'webhook', secret: null }, 1_795_320_000);
    t.equal(unsigned.method, 'POST');
    t.equal(unsigned.url, channel.url);
    t.equal(unsigned.headers['content-type'], 'application/json');
    t.match(unsigned.headers['user-agent'], /^pingmon\/\d+\.\d+\.\d+/);
    t.notOk('x-pingmon-signature' in unsigned.headers);
    t.same(Object.keys(JSON.parse(unsigned.body)), [
      'event',
      'alertId',
      'monitorId',
      'monitorName',
      'runId',
      'status',
      'errorMessage',
      'logSnippet',
      'logTail',
      'repeats',
      'meta',
      'matchedRules',
      'expectedAt',
      'serverGap',
      'lastRunAt',
      'lastRunStatus',
      'timestamp',
    ]);
    const signed = buildRequest({ type: 'webhook', secret: 'whsec_0123456789' }, 1_795_320_000);
    const expected = createHmac('sha256', 'whsec_0123456789').update(`1795320000.${signed.body}`).digest('hex');
    t.equal(signed.headers['x-pingmon-signature'], `t=1795320000,v1=${expected}`);
    t.equal(signature('k', 'body', 1), `t=1,v1=${createHmac('sha256', 'k').update('1.body').digest('hex')}`);
    t.notOk(
      'x-pingmon-signature' in buildRequest({ type: 'slack', secret: 'ignored-here' }, 1).headers,
      'only webhooks are signed',
    );
  },
);

t.test('alert delivery settings come from PINGMON_ALERT_* in seconds', async (t) => {
  const defaults = loadConfig({});
  t.match(defaults, { alertTimeoutMs: 10_000, alertRetryBaseMs: 30_000, alertMaxAttempts: 8, alertPollMs: 1_000 });
  const set = loadConfig({
    PINGMON_ALERT_TIMEOUT: '2.5',
    PINGMON_ALERT_RETRY_BASE: '0.05',
    PINGMON_ALERT_MAX_ATTEMPTS: '3',
  });
  t.match(set, { alertTimeoutMs: 2_500, alertRetryBaseMs: 50, alertMaxAttempts: 3 });
  t.throws(
    () => loadConfig({ PINGMON_ALERT_TIMEOUT: '0' }),
    /PINGMON_ALERT_TIMEOUT must be a duration longer than 0 such as 90s/,
  );
  t.throws(() => loadConfig({ PINGMON_ALERT_RETRY_BASE: 'soon' }), /PINGMON_ALERT_RETRY_BASE/);
  t.throws(() => loadConfig({ PINGMON_ALERT_MAX_ATTEMPTS: '0' }), /PINGMON_ALERT_MAX_ATTEMPTS/);
});

t.test('a fail alert says whether its failure is new or the same as the runs before it', async (t) => {
  const text = (repeats: number | null) => slackPayload(failAlert({ errorMessage: 'exit code 2', repeats })).blocks;
  const said = (repeats: number | null) => JSON.stringify(text(repeats));
  t.match(said(0), 'exit code 2\\nNew failure.');
  t.match(said(1), 'exit code 2\\nSame failure as the last run.');
  t.match(said(4), 'exit code 2\\nSame failure as the last 4 runs.');
  t.notMatch(said(null), /failure/i, 'nothing when it has no fingerprint (not a fail alert)');
  const hook = (repeats: number | null) =>
    JSON.parse(
      kindOf('webhook').request!(
        { channelId: 'ch_1', type: 'webhook', url: 'http://127.0.0.1:9/hook', options: {}, secret: null },
        failAlert({ repeats }),
        { nowSeconds: 1, messageKey: 'm1' },
      ).body,
    ) as { repeats: unknown };
  t.equal(hook(3).repeats, 3);
  t.equal(hook(null).repeats, null);
});
