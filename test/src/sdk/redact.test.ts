import t from 'tap';
import { REDACTED, Redactor, redactPattern } from '@pingmon/sdk';
import type { RedactOptions } from '@pingmon/sdk';

const ENVIRONMENT = {
  DB_PASSWORD: 'hunter22-db',
  BACKUP_PASSPHRASE: 'correct-horse-staple',
  VAULT_ROLE_ID: 'vault-role-77',
  SHORT_TOKEN: 'ab1',
  PWD: '/home/ops',
  HOME: '/home/ops',
};
const OPTIONS: RedactOptions = { env: ['BACKUP_PASSPHRASE'], pattern: '^VAULT_', environment: ENVIRONMENT };

/** Redacts `text` written as the given chunks (split at `cuts`), answering the output and the count. */
function streamed(text: string | Buffer, cuts: number[], options: RedactOptions = OPTIONS) {
  const redactor = new Redactor(options);
  const parts: Buffer[] = [];
  const stream = redactor.stream((chunk) => parts.push(Buffer.from(chunk)));
  const bytes = Buffer.from(text);
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    stream.write(bytes.subarray(at, cut));
    at = cut;
  }
  stream.end();
  return { text: Buffer.concat(parts).toString(), redactions: redactor.redactions };
}

const once = (text: string, options: RedactOptions = OPTIONS) => {
  const redactor = new Redactor(options);
  return { text: redactor.redact(text), redactions: redactor.redactions };
};

t.test('each shape of secret is replaced, and what surrounds it kept', async (t) => {
  const cases: Array<[string, string]> = [
    ['connecting to postgres://backup:s3cret@db:5432/prod', 'connecting to postgres://backup:[redacted]@db:5432/prod'],
    ['GET https://u:p%40ss@host/x', 'GET https://u:[redacted]@host/x'],
    ['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc', 'Authorization: Bearer [redacted]'],
    ["curl -H 'authorization: Basic dXNlcjpwYXNz' https://x", "curl -H 'authorization: Basic [redacted]' https://x"],
    ['{"Authorization":"tok_123456"}', '{"Authorization":"[redacted]"}'],
    ['key id AKIAIOSFODNN7EXAMPLE in use', 'key id [redacted] in use'],
    ['session ASIAY34FZKBOKMUTVV7A', 'session [redacted]'],
    ['aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'aws_secret_access_key = [redacted]'],
    ['mysql --password=swordfish42 -u root', 'mysql --password=[redacted] -u root'],
    ['{"token": "abcd1234", "n": 1}', '{"token": "[redacted]", "n": 1}'],
    ['client_secret: xyzzy-42', 'client_secret: [redacted]'],
    ['API_KEY=pm_0123456789', 'API_KEY=[redacted]'],
    ['the db says hunter22-db', 'the db says [redacted]'],
    ['passphrase correct-horse-staple!', 'passphrase [redacted]!'],
    ['role vault-role-77', 'role [redacted]'],
    [
      'a\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA\nAAAA\n-----END OPENSSH PRIVATE KEY-----\nz\n',
      'a\n[redacted]\nz\n',
    ],
  ];
  for (const [input, expected] of cases) {
    const out = once(input);
    t.equal(out.text, expected, input);
    t.equal(out.redactions, 1, `${input}: counted once`);
  }
});

t.test('what is not a secret is left alone', async (t) => {
  const texts = [
    'max_tokens=5000 tokens=3',
    'token: 3',
    'PASSWORD=1 SHORT_TOKEN ab1',
    'cwd /home/ops',
    'https://example.com:8080/path?q=1',
    'authorization failed for user',
    'AKIAIOSFODNN7EXAMPLE0 is too long to be a key id',
    '-----BEGIN CERTIFICATE-----',
  ];
  for (const text of texts) t.same(once(text), { text, redactions: 0 }, text);
});

t.test('redacting what was redacted changes nothing and counts nothing', async (t) => {
  const first = once(
    'postgres://u:pw12@h password=abcd1234 Authorization: Bearer xyz1 AKIAIOSFODNN7EXAMPLE\n' +
      '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n',
  );
  t.equal(first.redactions, 5);
  t.same(once(first.text), { text: first.text, redactions: 0 });
});

t.test('a key block that never ends is redacted to the end of the output', async (t) => {
  t.same(once('before\n-----BEGIN PRIVATE KEY-----\nMIIE\nAAAA'), { text: `before\n${REDACTED}`, redactions: 1 });
});

const SAMPLE =
  'start postgres://u:hunter2@db/x é\n' +
  'Authorization: Bearer abc.def.ghi\n' +
  'keys AKIAIOSFODNN7EXAMPLE and aws_secret_access_key=wJalrXUtnFEMI/K7MDENG\n' +
  'password=swordfish "token": "abcd1234" tokens=5\n' +
  'env hunter22-db correct-horse-staple vault-role-77 ab1\n' +
  '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBYr\n-----END EC PRIVATE KEY----- after\n' +
  'last line without a newline password=xyzzy99';

t.test('a stream split at every index, once or twice, redacts as the whole text does', async (t) => {
  const whole = once(SAMPLE);
  t.equal(whole.redactions, 11);
  t.notMatch(whole.text, /hunter2|abc\.def|AKIA|wJalr|swordfish|abcd1234|correct-horse|vault-role|MHcC|xyzzy/);
  const length = Buffer.byteLength(SAMPLE);
  let differing = 0;
  for (let i = 0; i <= length; i++) {
    for (let j = i; j <= length; j += 5) {
      const out = streamed(SAMPLE, [i, j]);
      if (out.text !== whole.text || out.redactions !== whole.redactions) differing++;
    }
  }
  t.equal(differing, 0, 'every split gives the same output and count');
  t.same(
    streamed(
      SAMPLE,
      Array.from({ length }, (_, i) => i),
    ),
    whole,
    'one byte at a time',
  );
});

t.test('a line ended by a carriage return (a progress bar) passes at once, redacted', async (t) => {
  const redactor = new Redactor(OPTIONS);
  const parts: string[] = [];
  const stream = redactor.stream((chunk) => parts.push(chunk.toString()));
  stream.write(Buffer.from('fetching 10%\r'));
  t.same(parts, ['fetching 10%\r'], 'passed before any newline');
  stream.write(Buffer.from('fetching 50% password=swordfish42\rfetch'));
  t.equal(parts.join(''), 'fetching 10%\rfetching 50% password=[redacted]\r', 'the unended part held back');
  stream.write(Buffer.from('ing 90%\n'));
  stream.end();
  t.equal(parts.join(''), 'fetching 10%\rfetching 50% password=[redacted]\rfetching 90%\n');
  t.equal(redactor.redactions, 1);

  // Carriage returns everywhere, CRLF lines and a key block among them: every split redacts as the whole text does.
  const crlf =
    'fetching 10%\rfetching 50% token=abcd1234\r\nAuthorization: Bearer abc.def\r\n' +
    '-----BEGIN EC PRIVATE KEY-----\r\nMHcCAQEE\r\n-----END EC PRIVATE KEY-----\r\nhunter22-db\rdone\r';
  const whole = once(crlf);
  t.equal(whole.redactions, 4);
  t.notMatch(whole.text, /abcd1234|abc\.def|MHcC|hunter22/);
  let differing = 0;
  for (let i = 0; i <= crlf.length; i++) {
    const out = streamed(crlf, [i]);
    if (out.text !== whole.text || out.redactions !== whole.redactions) differing++;
  }
  t.equal(differing, 0, 'every split gives the same output and count');
});

t.test('a long line is passed on in parts, never cut through a secret, and memory stays bounded', async (t) => {
  const filler = (n: number) => 'x'.repeat(n);
  const secrets = ['postgres://u:hunter2@db/x', 'password=swordfish42', 'hunter22-db', 'AKIAIOSFODNN7EXAMPLE'];
  // Secrets placed around every multiple of 64 KiB, where the stream cuts a long line.
  const line = secrets.map((s, i) => `${filler(65_536 * (i + 1) - 10 - i * 3)} ${s} `).join('') + filler(1000);
  for (const chunk of [1_000, 4_096, 65_536]) {
    const redactor = new Redactor(OPTIONS);
    let passed = 0;
    let firstAt: number | undefined;
    let mostHeld = 0;
    const parts: Buffer[] = [];
    const stream = redactor.stream((c) => {
      parts.push(Buffer.from(c));
      passed += c.length;
    });
    const bytes = Buffer.from(`${line}\n`);
    for (let at = 0; at < bytes.length; at += chunk) {
      stream.write(bytes.subarray(at, at + chunk));
      if (firstAt === undefined && passed > 0) firstAt = at;
      mostHeld = Math.max(mostHeld, Math.min(at + chunk, bytes.length) - passed);
    }
    // At most a part of 64 KiB, the hold (8 KiB) and a chunk, and the [redacted] markers' difference.
    t.ok(mostHeld <= 65_536 + 8_192 + chunk, `chunks of ${chunk}: held back ${mostHeld} bytes at most`);
    stream.end();
    const out = Buffer.concat(parts).toString();
    t.ok(firstAt !== undefined && firstAt < 100_000, `chunks of ${chunk}: output passes before the line ends`);
    t.equal(redactor.redactions, 4, `chunks of ${chunk}: four secrets`);
    for (const secret of ['hunter2', 'swordfish42', 'hunter22-db', 'AKIA']) t.notOk(out.includes(secret), secret);
  }
});

t.test('the names to redact: --redact-env, PINGMON_REDACT_ENV, the pattern and the built-in one', async (t) => {
  const environment = {
    ...ENVIRONMENT,
    PINGMON_REDACT_ENV: 'HOME, OTHER',
    OTHER: 'other-value',
    GITHUB_TOKEN: 'ghp_abcdef',
    my_api_key: 'lower-case-name',
  };
  const out = once('/home/ops other-value ghp_abcdef lower-case-name vault-role-77', { environment });
  t.equal(out.text, '[redacted] [redacted] [redacted] [redacted] vault-role-77', 'no pattern given: VAULT_ is not');
  t.equal(
    once('vault-role-77', { environment: { ...environment, PINGMON_REDACT_PATTERN: '^vault_' } }).text,
    REDACTED,
    'PINGMON_REDACT_PATTERN, case-insensitive',
  );
  t.throws(() => redactPattern('(unclosed'), /the redact pattern "\(unclosed" is not a regular expression/);
  t.throws(() => new Redactor({ pattern: '[', environment: {} }), TypeError);
});

t.test('a key block on a line cut in parts: its END marker is found across the cut', async (t) => {
  const marker = 'ENCRYPTED PRIVATE KEY';
  const block = `-----BEGIN ${marker}-----${'A'.repeat(200_000)}-----END ${marker}----- after\n`;
  for (const chunk of [1_000, 65_536]) {
    const bytes = Buffer.from(block);
    const cuts = Array.from({ length: Math.floor(bytes.length / chunk) }, (_, i) => (i + 1) * chunk);
    t.same(streamed(block, cuts), { text: '[redacted] after\n', redactions: 1 }, `chunks of ${chunk}`);
  }
  // The END marker at every position around where the stream cuts the line (each 4 KiB past 64 KiB).
  let differing = 0;
  for (let filler = 69_000; filler < 69_700; filler++) {
    const after = ` after ${'B'.repeat(5_000)}\n`;
    const text = `-----BEGIN ${marker}-----${'A'.repeat(filler)}-----END ${marker}-----${after}`;
    const cuts = Array.from({ length: Math.floor(text.length / 4096) }, (_, i) => (i + 1) * 4096);
    const out = streamed(text, cuts);
    if (out.text !== `[redacted]${after}` || out.redactions !== 1) differing++;
  }
  t.equal(differing, 0, 'found wherever the cut falls');
});
