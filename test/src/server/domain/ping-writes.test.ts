import t from 'tap';
import { DEFAULT_SETTINGS, HEALTHY, monitorWrites, planPing } from '@pingmon/server/internal';
import type { MonitorFacts, PingFacts, PingPlan } from '@pingmon/server/internal';

const NOW = 1_800_000_000_000;
const MINUTE = 60_000;

const monitor = (changes: Partial<MonitorFacts> = {}): MonitorFacts => ({
  ...DEFAULT_SETTINGS,
  nextExpectedAt: null,
  missedAt: null,
  health: HEALTHY,
  ruleCount: 0,
  lastOpenedAt: null,
  ...changes,
});
const ping = (changes: Partial<PingFacts> = {}): PingFacts => ({
  kind: 'success',
  at: NOW,
  now: NOW,
  late: false,
  intervalMs: 0,
  ...changes,
});
const scheduled = { schedule: { every: 60 }, startGrace: 60 };
const failing = { health: { ...HEALTHY, failStreak: 1 } };

t.test('planPing: what a ping writes decides its lock and whether it goes without one', async (t) => {
  const cases: Array<[string, MonitorFacts, PingFacts, PingPlan]> = [
    ['a start on a plain monitor', monitor(), ping({ kind: 'start' }), { lock: 'key share', alone: 'run' }],
    ['a success on a healthy monitor', monitor(), ping(), { lock: 'key share', alone: 'run' }],
    ['a failure', monitor(), ping({ kind: 'fail' }), { lock: 'no key update', alone: null }],
    [
      'a failure on a paused monitor',
      monitor({ paused: true }),
      ping({ kind: 'fail' }),
      { lock: 'key share', alone: null },
    ],
    ['a success on a monitor with rules', monitor({ ruleCount: 1 }), ping(), { lock: 'key share', alone: null }],
    ['a success ending a fail streak', monitor(failing), ping(), { lock: 'no key update', alone: null }],
    ['an opening under a rate limit', monitor(), ping({ intervalMs: MINUTE }), { lock: 'no key update', alone: null }],
    [
      'a scheduled opening that moves the next expected time',
      monitor({ ...scheduled, nextExpectedAt: NOW }),
      ping(),
      { lock: 'no key update', alone: 'run and expected' },
    ],
    [
      'a scheduled opening already expected later',
      monitor({ ...scheduled, nextExpectedAt: NOW + 2 * MINUTE }),
      ping(),
      { lock: 'key share', alone: 'run' },
    ],
    [
      'a late scheduled opening (its deadline depends on the row)',
      monitor({ ...scheduled, nextExpectedAt: NOW - 2 * MINUTE, missedAt: NOW }),
      ping({ late: true, at: NOW - MINUTE }),
      { lock: 'no key update', alone: null },
    ],
  ];
  for (const [name, m, p, plan] of cases) t.same(planPing(m, p), plan, name);
});

t.test('monitorWrites: the expected opening only ever moves later, health by outcome', async (t) => {
  const m = monitor({ ...scheduled, nextExpectedAt: NOW + MINUTE / 2 });
  t.same(monitorWrites(m, { status: 'running', startedAt: NOW }, 'opened', ping()), {
    expected: { nextExpectedAt: NOW + MINUTE, missedAt: NOW + 2 * MINUTE },
    health: null,
    event: null,
  });
  t.same(monitorWrites(m, { status: 'success', startedAt: NOW }, 'finished', ping()).expected, null, 'a finish');
  const later = monitor({ ...scheduled, nextExpectedAt: NOW + 5 * MINUTE });
  t.same(monitorWrites(later, { status: 'running', startedAt: NOW }, 'opened', ping()).expected, null);
  const failed = monitorWrites(monitor(), { status: 'failed', startedAt: NOW }, 'finished', ping());
  t.equal(failed.health?.failStreak, 1);
  t.equal(failed.event, 'fail');
  t.same(monitorWrites(monitor({ paused: true }), { status: 'failed', startedAt: NOW }, 'finished', ping()), {
    expected: null,
    health: null,
    event: null,
  });
});
