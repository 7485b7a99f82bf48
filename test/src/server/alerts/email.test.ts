import { readFileSync } from 'node:fs';
import t from 'tap';
import { ConfigError, loadConfig } from '@pingmon/server';
import {
  domainOf,
  emailMessage,
  maskUrl,
  recipientsOf,
  sendEmail,
  SMTP_NOT_CONFIGURED,
  testContent,
  verdictOf,
  withoutRelay,
} from '@pingmon/server/internal';
import type { AlertContent } from '@pingmon/server/internal';
import { ALERT_FIXTURES, FIXED_RULE } from '../../helpers/alert-fixtures.js';

const docs = readFileSync(new URL('../../../../docs/alerts.md', import.meta.url), 'utf8');

const { fail: FAIL, silent_failure: SILENT } = ALERT_FIXTURES;
const FIXTURES: Record<string, AlertContent> = ALERT_FIXTURES;

t.test('the e-mail examples of docs/alerts.md are exactly what the server sends', async (t) => {
  const examples = [...docs.matchAll(/<!-- example: email (\w+) (text|html) -->\n```\w+\n([\s\S]*?)```\n/g)];
  t.same(
    examples.map((e) => `${e[1]} ${e[2]}`),
    ['fail text', 'fail html', 'silent_failure text', 'long_log text'],
  );
  for (const [, fixture, part, shown] of examples) {
    const message = emailMessage(FIXTURES[fixture!]!);
    const expected = part === 'html' ? `${message.html}\n` : `Subject: ${message.subject}\n\n${message.text}\n`;
    t.equal(shown, expected, `${fixture} ${part}`);
  }
});

t.test('every kind of alert gets a subject naming the monitor and what happened', async (t) => {
  const cases: Array<[AlertContent['event'], string | null, string]> = [
    ['fail', 'exit code 2', '[pingmon] nightly backup failed'],
    ['timed_out', 'no result within maxRuntime (2h)', '[pingmon] nightly backup timed out'],
    ['missed', 'No run started by …', '[pingmon] nightly backup did not start on time'],
    ['still_down', 'Down for 2h.', '[pingmon] nightly backup is still down'],
    ['recovered', 'Up again after 1d2m down.', '[pingmon] nightly backup is up again'],
  ];
  for (const [event, errorMessage, subject] of cases) {
    const message = emailMessage({ ...FAIL, event, errorMessage, logSnippet: null });
    t.equal(message.subject, subject, event);
    t.match(message.text, `${subject.slice(10)}\n${errorMessage}\n`, event);
    t.match(message.html, `<p>${errorMessage}</p>`, event);
  }
  const test = emailMessage(testContent('ops mail', Date.parse('2026-11-22T08:29:29.942Z')));
  t.equal(test.subject, '[pingmon] test message');
  t.equal(
    test.text,
    'pingmon test message\nTest message for the pingmon channel "ops mail": alerts will arrive like this.',
  );
  t.notMatch(test.html, '<pre', 'no log, no block');
});

t.test('whatever a job or a user wrote is escaped in the HTML part, and kept as written in the text', async (t) => {
  const message = emailMessage({
    ...SILENT,
    monitorName: `<img src=x onerror="alert('name')">`,
    matchedRules: [{ ruleId: 'rule_x', metric: '<b>rows</b>', op: 'lt', value: 1, actual: 0, ...FIXED_RULE }],
  });
  t.notMatch(message.html, '<img');
  t.notMatch(message.html, '<b>');
  t.match(message.html, '<strong>&lt;img src=x onerror=&quot;alert(&#39;name&#39;)&quot;&gt;</strong>');
  t.match(message.html, '• &lt;b&gt;rows&lt;/b&gt; &lt; 1 (was 0)');
  t.match(message.text, `<img src=x onerror="alert('name')"> succeeded`);
  const logged = emailMessage({ ...FAIL, logSnippet: '</pre><script>x()</script>&amp;', logTail: null });
  t.match(logged.html, '>&lt;/pre&gt;&lt;script&gt;x()&lt;/script&gt;&amp;amp;</pre>');
  t.equal(logged.html.match(/<\/pre>/g)?.length, 1, 'the log cannot close its block');
  const ended = emailMessage({ ...FAIL, logSnippet: 'banner\n', logTail: '</pre><img src=x>' });
  t.match(ended.html, '<p>…end of the log:</p>\n<pre style="');
  t.match(ended.html, '>&lt;/pre&gt;&lt;img src=x&gt;</pre>');
  t.equal(ended.html.match(/<\/pre>/g)?.length, 2, 'nor can its end');
  t.match(ended.text, 'End of the log (its last lines):\n----\n</pre><img src=x>\n----\n');
});

t.test('a multi-line error message keeps its line breaks in the HTML part', async (t) => {
  const message = emailMessage({ ...FAIL, errorMessage: 'pg_dump failed:\n  <connection refused>\r\nretried 3 times' });
  t.match(message.html, '<p>pg_dump failed:<br>\n  &lt;connection refused&gt;<br>\nretried 3 times</p>');
  t.match(message.text, 'pg_dump failed:\n  <connection refused>\r\nretried 3 times\n', 'the text part as written');
});

t.test('a subject is one line of at most 200 characters', async (t) => {
  const message = emailMessage({ ...FAIL, monitorName: `two\nlines ${'x'.repeat(300)}` });
  t.notMatch(message.subject, /\n/);
  t.equal(message.subject.length, 200);
  t.match(message.subject, /^\[pingmon\] two lines x+…$/);
  const emoji = emailMessage({ ...FAIL, monitorName: `${'x'.repeat(188)}${'😀'.repeat(10)}` }).subject;
  t.ok(emoji.length <= 200);
  t.notMatch(emoji, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/, 'no half emoji at the cut');
});

t.test('recipients: as stored, listed whole, read back', async (t) => {
  t.equal(maskUrl('mailto:ops@example.com,oncall@example.com'), 'mailto:ops@example.com,oncall@example.com');
  t.same(recipientsOf('mailto:ops@example.com,oncall@example.com'), ['ops@example.com', 'oncall@example.com']);
  t.same(recipientsOf('MAILTO: ops@example.com , ,x'), ['ops@example.com', '', 'x'], 'as typed: for the check');
});

t.test('the Message-ID domain is the domain of PINGMON_SMTP_FROM, in either of its forms', async (t) => {
  t.equal(domainOf('alerts@example.com'), 'example.com');
  t.equal(domainOf('pingmon alerts <alerts@mail.example.org>'), 'mail.example.org');
  t.equal(domainOf('"ops@team" <alerts@example.net> '), 'example.net');
});

t.test("a connection error never says where the SMTP server is: the operator's relay, not the account's", async (t) => {
  const cases: Array<[string, string, string]> = [
    ['connect ECONNREFUSED 10.0.0.5:587', 'smtp.internal', 'connect ECONNREFUSED the SMTP server'],
    ['getaddrinfo ENOTFOUND smtp.internal', 'smtp.internal', 'getaddrinfo ENOTFOUND the SMTP server'],
    ['connect ECONNREFUSED ::1:25', 'localhost', 'connect ECONNREFUSED the SMTP server'],
    ['connect ETIMEDOUT [fe80::1]:25.', 'relay', 'connect ETIMEDOUT the SMTP server.'],
    ['getaddrinfo ENOTFOUND smtp.nosuch.invalid', 'SMTP.NoSuch.invalid.', 'getaddrinfo ENOTFOUND the SMTP server'],
    ['SMTP 421 smtp.internal closing', 'smtp.internal', 'SMTP 421 the SMTP server closing'],
    ['closed\nsmtp.internal:25 gone', 'smtp.internal', 'closed\nthe SMTP server gone'],
    [
      "Host: smtp.internal. is not in the cert's altnames: DNS:mx1.example.net",
      'smtp.internal',
      "Host: the SMTP server. is not in the cert's altnames: the SMTP server",
    ],
    ['Connection closed unexpectedly at 12:30', 'x', 'Connection closed unexpectedly at 12:30'],
  ];
  for (const [message, host, expected] of cases) t.equal(withoutRelay(message, host), expected, message);
});

t.test('a server without SMTP settings fails an e-mail attempt, to be retried', async (t) => {
  const result = await sendEmail(undefined, { channelId: 'ch_x', url: 'mailto:ops@example.com' }, FAIL, {
    timeoutMs: 1_000,
  });
  t.match(result, { statusCode: null, error: SMTP_NOT_CONFIGURED, verdict: 'retry' });
  t.equal(verdictOf(result), 'retry');
  t.match(SMTP_NOT_CONFIGURED, /PINGMON_SMTP_URL and PINGMON_SMTP_FROM/);
});

t.test('the SMTP settings are checked at start-up, with a message naming the setting', async (t) => {
  const url = 'smtps://alerts:s3cret-pass@smtp.example.com:465';
  const config = loadConfig({ PINGMON_SMTP_URL: url, PINGMON_SMTP_FROM: 'pingmon <alerts@example.com>' });
  t.equal(config.smtpUrl, url);
  t.equal(config.smtpFrom, 'pingmon <alerts@example.com>');
  t.equal(
    loadConfig({ PINGMON_SMTP_URL: 'smtp://relay', PINGMON_SMTP_FROM: 'a@example.com' }).smtpFrom,
    'a@example.com',
  );
  t.same(
    [loadConfig({}).smtpUrl, loadConfig({ PINGMON_SMTP_URL: '', PINGMON_SMTP_FROM: '' }).smtpUrl],
    [undefined, undefined],
    'unset or empty: no e-mail',
  );
  const cases: Array<[Record<string, string>, RegExp]> = [
    [
      { PINGMON_SMTP_URL: 'https://alerts:s3cret-pass@smtp.example.com', PINGMON_SMTP_FROM: 'a@example.com' },
      /^PINGMON_SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL, e\.g\. smtps:\/\/user:password@smtp\.example\.com/,
    ],
    [{ PINGMON_SMTP_URL: url }, /^PINGMON_SMTP_FROM must be set with PINGMON_SMTP_URL: the sender of alert e-mails/],
    [{ PINGMON_SMTP_FROM: 'a@example.com' }, /^PINGMON_SMTP_FROM is set but PINGMON_SMTP_URL is not/],
    [
      { PINGMON_SMTP_URL: url, PINGMON_SMTP_FROM: 'pingmon' },
      /^PINGMON_SMTP_FROM must be an address or "Name <address>" \(got "pingmon"\)$/,
    ],
  ];
  for (const [env, message] of cases) {
    let thrown: unknown;
    try {
      loadConfig(env);
    } catch (err) {
      thrown = err;
    }
    t.ok(thrown instanceof ConfigError, `refused: ${JSON.stringify(env)}`);
    t.match((thrown as Error).message, message);
    t.notMatch((thrown as Error).message, 's3cret', 'the password is never shown');
  }
});
