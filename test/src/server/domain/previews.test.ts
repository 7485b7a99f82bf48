import t from 'tap';
import { describeSchedule, replayRule } from '@pingmon/server/internal';

/** A rule that compares with its value alone, on one run. */
const ONE = { baseline: null, window: null };

t.test('a schedule in words: cronstrue in 24-hour English, an every schedule in the duration grammar', async (t) => {
  const cases: Array<[Parameters<typeof describeSchedule>[0], string]> = [
    [{ cron: '0 3 * * *', timezone: 'Europe/Berlin' }, 'At 03:00, every day'],
    [{ cron: '30 4 * * 1', timezone: 'UTC' }, 'At 04:30, only on Monday'],
    [{ cron: '*/5 * * * *', timezone: 'UTC' }, 'Every 5 minutes, every hour, every day'],
    [{ cron: '0 0 1 1 *', timezone: 'UTC' }, 'At 00:00, on day 1 of the month, only in January'],
    [{ every: 3600 }, 'Every 1h after the last run started'],
    [{ every: 90 }, 'Every 1m30s after the last run started'],
  ];
  for (const [schedule, words] of cases) t.equal(describeSchedule(schedule), words, JSON.stringify(schedule));
});

t.test('a rule replayed over runs as their success pings were matched', async (t) => {
  const run = (id: string, meta: Record<string, number>, durationMs: number | null = null) => ({
    id,
    meta,
    durationMs,
  });
  const runs = [
    run('a', { rows: 0 }),
    run('b', { rows: 3 }),
    run('c', {}),
    run('d', { rows: 0, durationMs: 5 }, 9_000),
    run('e', { durationMs: 7 }),
  ];
  const ids = (replay: ReturnType<typeof replayRule<(typeof runs)[number]>>) =>
    replay.matches.map((m) => `${m.run.id}=${m.actual}`);
  const cases: Array<[string, Parameters<typeof replayRule>[0], string[], number]> = [
    ['less than', { metric: 'rows', op: 'lt', value: 1, ...ONE }, ['a=0', 'd=0'], 2],
    ['not equal never matches a run without the metric', { metric: 'rows', op: 'neq', value: 0, ...ONE }, ['b=3'], 2],
    [
      'the measured duration wins over a meta key of that name',
      { metric: 'durationMs', op: 'gt', value: 6, ...ONE },
      ['d=9000', 'e=7'],
      3,
    ],
    ['a metric no run reports', { metric: 'nope', op: 'gte', value: 0, ...ONE }, [], 5],
  ];
  for (const [name, rule, matched, without] of cases) {
    const replay = replayRule(rule, runs, runs.length);
    t.same(ids(replay), matched, name);
    t.equal(replay.withoutMetric, without, `${name}: runs without the metric`);
    t.equal(replay.checked, 5);
  }
});
