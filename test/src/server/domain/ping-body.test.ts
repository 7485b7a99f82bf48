import t from 'tap';
import { isStorable, storableText, truncate } from '@pingmon/sdk';
import { parsePingBody } from '../../../../server/dist/routes/ping-bodies.js';
import { enforcedIntervalMs, rateDecision } from '../../../../server/dist/domain/pairing.js';
import { newRun, finishedRun } from '../../../../server/dist/domain/runs.js';

t.test('truncate keeps the first characters and never splits a surrogate pair', async (t) => {
  const cases: Array<[string, number, string]> = [
    ['abc', 5, 'abc'],
    ['abcdef', 3, 'abc'],
    ['ab😀cd', 3, 'ab'],
    ['ab😀cd', 4, 'ab😀'],
    ['', 0, ''],
  ];
  for (const [text, max, expected] of cases) t.equal(truncate(text, max), expected, `${text} to ${max}`);
});

t.test(
  'storableText truncates first, then keeps NUL as U+FFFD (one character for one: the length stays within max)',
  async (t) => {
    const cases: Array<[string, number, string]> = [
      ['a\u0000b', 10, 'a\uFFFDb'],
      ['\u0000\u0000\u0000', 2, '\uFFFD\uFFFD'],
      ['ab😀\u0000', 3, 'ab'],
      ['no nul', 100, 'no nul'],
    ];
    for (const [text, max, expected] of cases) t.equal(storableText(text, max), expected, JSON.stringify([text, max]));
    t.same(
      parsePingBody('fail', 'text/plain', Buffer.from('disk\u0000full')),
      { ok: true, input: { logOutput: 'disk\uFFFDfull' } },
      'a text/plain log',
    );
    t.same(
      parsePingBody('fail', 'application/json', Buffer.from('{"errorMessage":"a\\u0000b"}')),
      { ok: true, input: { errorMessage: 'a\uFFFDb' } },
      'a JSON errorMessage',
    );
  },
);

t.test('one rule for kept text: NUL and lone surrogates are unstorable, a whole pair is fine', async (t) => {
  const cases: Array<[string, boolean, string]> = [
    ['plain', true, 'plain'],
    ['emoji 😀', true, 'emoji 😀'],
    ['a\u0000b', false, 'a\uFFFDb'],
    ['high \ud83d alone', false, 'high \uFFFD alone'],
    ['low \ude00 alone', false, 'low \uFFFD alone'],
    ['\ude00\ud83d', false, '\uFFFD\uFFFD'],
    ['\ud83d\ud83d\ude00', false, '\uFFFD😀'],
    ['😀\ude00', false, '😀\uFFFD'],
    ['ends high \ud83d', false, 'ends high \uFFFD'],
  ];
  for (const [text, storable, stored] of cases) {
    t.equal(isStorable(text), storable, JSON.stringify(text));
    t.equal(isStorable(text), storable, `${JSON.stringify(text)} again (no state left between calls)`);
    t.equal(storableText(text, 100), stored, `${JSON.stringify(text)} stored`);
  }
  const loneInLog = Buffer.from('{"errorMessage":"a\\ud800b","logOutput":"\\udfff"}');
  const expected = { ok: true, input: { errorMessage: 'a\uFFFDb', logOutput: '\uFFFD' } };
  t.same(parsePingBody('fail', 'application/json', loneInLog), expected, 'a failure report keeps them as U+FFFD');
  for (const key of ['rows\\u0000', 'rows\\ud800', '\\udc00']) {
    const parsed = parsePingBody('success', 'application/json', Buffer.from(`{"meta":{"${key}":1}}`));
    t.match(parsed, { ok: false, error: { code: 'invalid_meta', message: /must not contain NUL/ } }, `meta key ${key}`);
  }
  const pair = parsePingBody('success', 'application/json', Buffer.from('{"meta":{"\\ud83d\\ude00":1}}'));
  t.same(pair, { ok: true, input: { meta: { '😀': 1 } } }, 'a whole pair in a meta key is fine');
});

t.test('parsePingBody', async (t) => {
  t.same(parsePingBody('success', undefined, null), { ok: true, input: {} });
  t.same(parsePingBody('success', 'application/json', Buffer.from('null')), { ok: true, input: {} });
  t.same(
    parsePingBody('start', 'application/json', Buffer.from('{"runId":"abcdefgh","meta":{"a":"x"}}')),
    { ok: true, input: { runId: 'abcdefgh' } },
    'start ignores meta',
  );
  t.same(
    parsePingBody('success', 'application/json', Buffer.from('{"errorMessage":"x","meta":{"a":1}}')),
    { ok: true, input: { meta: { a: 1 } } },
    'success ignores fail fields',
  );
  t.same(parsePingBody('fail', 'text/plain; charset=utf-8', Buffer.from('{"meta":1}')), {
    ok: true,
    input: { logOutput: '{"meta":1}' },
  });
  t.same(
    parsePingBody('success', 'text/plain', Buffer.from('{"meta":{"a":2}}')),
    { ok: true, input: { meta: { a: 2 } } },
    'text/plain is only a log on fail',
  );
  const infinite = parsePingBody('success', 'application/json', Buffer.from('{"meta":{"a":1e999}}'));
  t.match(infinite, {
    ok: false,
    error: { code: 'invalid_meta', message: /meta\.a must be a finite number \(got Infinity\)/ },
  });
});

t.test('a meta value that is not a number is named by its kind, however deep it nests', async (t) => {
  // 100,000 deep: far past what a recursive JSON.stringify survives (it threw RangeError, a 500).
  const deep = (open: string, inner: string, close: string) => open.repeat(100_000) + inner + close.repeat(100_000);
  const cases: Array<[string, string, string, RegExp]> = [
    [
      'success',
      'meta.a an array',
      `{"meta":{"a":${deep('[', '', ']')}}}`,
      /meta\.a must be a finite number \(got an array\)/,
    ],
    ['fail', 'meta.a an object', `{"meta":{"a":${deep('{"b":', '1', '}')}}}`, /meta\.a .* \(got an object\)/],
    ['success', 'meta an array', `{"meta":${deep('[', '', ']')}}`, /meta must be an object of numbers/],
    ['fail', 'meta an object of objects', `{"meta":${deep('{"b":', '1', '}')}}`, /meta\.b .* \(got an object\)/],
    ['success', 'a string', '{"meta":{"a":"many rows"}}', /\(got "many rows"\)/],
    ['success', 'a long string, cut', `{"meta":{"a":"${'x'.repeat(10_000)}"}}`, /\(got "x{40}…"\)\.$/],
    ['success', 'true', '{"meta":{"a":true}}', /\(got true\)/],
  ];
  for (const [kind, name, body, message] of cases) {
    const parsed = parsePingBody(kind as 'success' | 'fail', 'application/json', Buffer.from(body));
    t.match(parsed, { ok: false, error: { code: 'invalid_meta', message } }, name);
  }
});

t.test('rateDecision', async (t) => {
  const cases: Array<[number | null, number, number, ReturnType<typeof rateDecision>]> = [
    [null, 60_000, 1_000, { allowed: true }],
    [0, 0, 0, { allowed: true }],
    [1_000, 60_000, 61_000, { allowed: true }],
    [1_000, 60_000, 56_000, { allowed: true }],
    [1_000, 60_000, 55_999, { allowed: false, retryAfterSeconds: 1 }],
    [1_000, 60_000, 1_001, { allowed: false, retryAfterSeconds: 55 }],
    [1_000, 60_000, 31_500, { allowed: false, retryAfterSeconds: 25 }],
  ];
  for (const [last, interval, now, expected] of cases)
    t.same(rateDecision(last, interval, now), expected, `${last}+${interval} at ${now}`);
});

t.test('the enforced interval forgives 10% of jitter, at most 5 s', async (t) => {
  const cases: Array<[number, number]> = [
    [0, 0],
    [1_000, 900],
    [10_000, 9_000],
    [60_000, 55_000],
    [600_000, 595_000],
  ];
  for (const [interval, gap] of cases) t.equal(enforcedIntervalMs(interval), gap, `${interval} ms`);
});

t.test('newRun and finishedRun', async (t) => {
  const ids = { accountId: 'acc_1', monitorId: 'mon_1', runId: 'run_1' };
  const started = newRun(ids, 'start', {}, 1_000);
  t.match(started, { status: 'running', startedAt: 1_000, finishedAt: null, durationMs: null });
  const failed = finishedRun(started, 'fail', { errorMessage: 'e', logOutput: 'l', meta: { a: 1 } }, 4_500);
  t.match(failed, {
    status: 'failed',
    finishedAt: 4_500,
    durationMs: 3_500,
    errorMessage: 'e',
    hasLog: true,
    meta: { a: 1 },
  });
  const direct = newRun(ids, 'success', { meta: { rows: 0 } }, 2_000);
  t.match(direct, {
    status: 'success',
    startedAt: 2_000,
    finishedAt: 2_000,
    durationMs: null,
    hasLog: false,
    meta: { rows: 0 },
  });
  t.equal(finishedRun(started, 'fail', { logOutput: '' }, 2_000).hasLog, false, 'an empty log is no log');
});
