import t from 'tap';
import { formatDuration, notADuration, parseDuration, parseDurationMs } from '@pingmon/sdk';

// The one duration grammar of every flag, environment variable and message (docs/cli.md#durations).

t.test('durations read as milliseconds, and as seconds for the API', async (t) => {
  const cases: Array<[string, number | undefined]> = [
    ['90', 90_000],
    ['1.5', 1_500],
    ['0', 0],
    ['0.0004', 0],
    ['500ms', 500],
    ['90s', 90_000],
    ['10m', 600_000],
    ['2h', 7_200_000],
    ['2d', 172_800_000],
    ['2D', 172_800_000],
    [' 15m ', 900_000],
    ['1h30m', 5_400_000],
    ['2d12h', 216_000_000],
    ['1d2h3m4s5ms', 93_784_005],
    ['1m30s', 90_000],
    ['1s500ms', 1_500],
    ['1.5s', 1_500],
    ['1.5h', 5_400_000],
    ['30m1h', undefined],
    ['1h1h', undefined],
    ['500ms1s', undefined],
    ['1h 30m', undefined],
    ['10 minutes', undefined],
    ['-5m', undefined],
    ['5x', undefined],
    ['h', undefined],
    ['.5s', undefined],
    ['1.s', undefined],
    ['', undefined],
    ['soon', undefined],
  ];
  for (const [text, ms] of cases) {
    t.equal(parseDurationMs(text), ms, `"${text}"`);
    t.equal(parseDuration(text), ms === undefined ? undefined : ms / 1_000, `"${text}" in seconds`);
  }
});

t.test('durations print in the largest units first, to the second, and read back as the same time', async (t) => {
  // Under half a second a time would round to no unit at all: "Up again after  down." It keeps its fraction.
  const cases: Array<[number, string]> = [
    [0, '0s'],
    [-3, '0s'],
    [0.0004, '0.001s'],
    [0.123, '0.123s'],
    [0.4, '0.4s'],
    [0.5, '1s'],
    [1.4, '1s'],
    [1.5, '2s'],
    [45, '45s'],
    [60, '1m'],
    [59.9999, '1m'],
    [90, '1m30s'],
    [90.4, '1m30s'],
    [5_400, '1h30m'],
    [7_200, '2h'],
    [86_400, '1d'],
    [93_784, '1d2h3m4s'],
    [216_000, '2d12h'],
  ];
  for (const [seconds, text] of cases) t.equal(formatDuration(seconds), text, String(seconds));
  for (const seconds of [0.001, 0.4, 1, 59, 61, 3_599, 3_601, 86_399, 90_061, 31 * 86_400]) {
    t.equal(parseDuration(formatDuration(seconds)), seconds, `${formatDuration(seconds)} reads back`);
  }
});

t.test('a duration that cannot be read is said with its name and the forms', async (t) => {
  t.equal(notADuration('--timeout', '5x'), '--timeout must be a duration such as 90s, 10m, 1h30m or 2d (got "5x")');
  t.equal(
    notADuration('--grace', '0', 'longer than 0'),
    '--grace must be a duration longer than 0 such as 90s, 10m, 1h30m or 2d (got "0")',
  );
});
