import t from 'tap';
import { CronExpressionParser } from 'cron-parser';
import {
  afterMiss,
  afterOutcome,
  checkSchedule,
  expectedAfterOpening,
  HEALTHY,
  incidentSummary,
  localTime,
  monitorStatus,
  slotAfter,
  upcoming,
} from '@pingmon/server/internal';
import type { Health, StoredSchedule } from '@pingmon/server/internal';

const at = (iso: string) => Date.parse(iso);
const isoList = (times: number[]) => times.map((x) => new Date(x).toISOString());
const cron = (expr: string, timezone = 'UTC'): StoredSchedule => ({ cron: expr, timezone });

t.test('schedules are checked: 5 fields, a known timezone, fields in range', async (t) => {
  t.same(checkSchedule({ cron: ' 0  3 * * * ' }), { schedule: { cron: '0 3 * * *', timezone: 'UTC' } });
  t.same(checkSchedule({ every: 3600 }), { schedule: { every: 3600 } });
  const error = (s: Parameters<typeof checkSchedule>[0]) => (checkSchedule(s) as { error: string }).error;
  t.match(error({ cron: '0 3 * *' }), /^schedule\.cron: "0 3 \* \*" has 4 field\(s\); use 5: minute hour/);
  t.match(error({ cron: '0 0 3 * * *' }), /has 6 field\(s\)/, 'seconds are not a cron field here');
  t.match(error({ cron: '61 3 * * *' }), /^schedule\.cron: "61 3 \* \* \*" cannot be read: .*61/);
  t.match(error({ cron: '0 0 31 2 *' }), /^schedule\.cron: .*cannot be read/, 'a date that never comes');
  t.match(error({ cron: '0 3 * * *', timezone: 'Mars/Base' }), /^schedule\.timezone: unknown timezone "Mars\/Base"/);
  t.same(checkSchedule({ cron: '0 3 * * *', timezone: 'America/New_York' }), {
    schedule: { cron: '0 3 * * *', timezone: 'America/New_York' },
  });
});

t.test('Europe/Berlin, spring forward (2027-03-28, 02:00 CET → 03:00 CEST)', async (t) => {
  const daily0230 = cron('30 2 * * *', 'Europe/Berlin');
  t.same(
    isoList(upcoming(daily0230, slotAfter(daily0230, at('2027-03-26T12:00:00Z')), 4)),
    ['2027-03-27T01:30:00.000Z', '2027-03-28T01:30:00.000Z', '2027-03-29T00:30:00.000Z', '2027-03-30T00:30:00.000Z'],
    '02:30 does not exist on the 28th: expected once, an hour later (03:30 CEST = 01:30 UTC)',
  );
  t.equal(localTime(at('2027-03-28T01:30:00Z'), 'Europe/Berlin').local, '2027-03-28T03:30:00+02:00');
  const at0300 = cron('0 3 * * *', 'Europe/Berlin');
  t.same(isoList(upcoming(at0300, slotAfter(at0300, at('2027-03-27T12:00:00Z')), 2)), [
    '2027-03-28T01:00:00.000Z',
    '2027-03-29T01:00:00.000Z',
  ]);
  const both = cron('30 2,3 * * *', 'Europe/Berlin');
  t.same(
    isoList(upcoming(both, slotAfter(both, at('2027-03-27T12:00:00Z')), 3)),
    ['2027-03-28T01:30:00.000Z', '2027-03-29T00:30:00.000Z', '2027-03-29T01:30:00.000Z'],
    '02:30 shifted onto 03:30 is one expected opening, not two',
  );
  const halfHourly = cron('*/30 * * * *', 'Europe/Berlin');
  t.same(
    isoList(upcoming(halfHourly, slotAfter(halfHourly, at('2027-03-28T00:00:00Z')), 3)),
    ['2027-03-28T00:30:00.000Z', '2027-03-28T01:00:00.000Z', '2027-03-28T01:30:00.000Z'],
    'every 30 minutes stays every 30 minutes across the gap (01:30 CET, 03:00 CEST, 03:30 CEST)',
  );
});

t.test('Europe/Berlin, fall back (2027-10-31, 03:00 CEST → 02:00 CET)', async (t) => {
  const daily0230 = cron('30 2 * * *', 'Europe/Berlin');
  t.same(
    isoList(upcoming(daily0230, slotAfter(daily0230, at('2027-10-30T12:00:00Z')), 2)),
    ['2027-10-31T00:30:00.000Z', '2027-11-01T01:30:00.000Z'],
    '02:30 happens twice on the 31st: expected once, at the first (CEST)',
  );
  const times = localTime(at('2027-10-31T00:30:00Z'), 'Europe/Berlin');
  t.same(times, { at: '2027-10-31T00:30:00.000Z', local: '2027-10-31T02:30:00+02:00', zone: 'CEST' });
  t.same(localTime(at('2027-10-31T01:30:00Z'), 'Europe/Berlin').zone, 'CET');
  const hourly = cron('0 * * * *', 'Europe/Berlin');
  t.same(
    isoList(upcoming(hourly, slotAfter(hourly, at('2027-10-30T23:30:00Z')), 4)),
    ['2027-10-31T00:00:00.000Z', '2027-10-31T01:00:00.000Z', '2027-10-31T02:00:00.000Z', '2027-10-31T03:00:00.000Z'],
    'an hourly job runs in both 02:00 hours: every hour of real time is expected',
  );
});

t.test('America/New_York across both changes of 2027', async (t) => {
  const daily0130 = cron('30 1 * * *', 'America/New_York');
  t.same(
    isoList(upcoming(daily0130, slotAfter(daily0130, at('2027-11-06T12:00:00Z')), 2)),
    ['2027-11-07T05:30:00.000Z', '2027-11-08T06:30:00.000Z'],
    'fall back (Nov 7): 01:30 EDT only, then 01:30 EST the next day',
  );
  t.equal(localTime(at('2027-11-07T05:30:00Z'), 'America/New_York').zone, 'EDT');
  t.equal(localTime(at('2027-11-08T06:30:00Z'), 'America/New_York').zone, 'EST');
  const daily0230 = cron('30 2 * * *', 'America/New_York');
  t.same(
    isoList(upcoming(daily0230, slotAfter(daily0230, at('2027-03-13T12:00:00Z')), 2)),
    ['2027-03-14T07:30:00.000Z', '2027-03-15T06:30:00.000Z'],
    'spring forward (Mar 14): 02:30 does not exist, expected at 03:30 EDT',
  );
});

t.test('a run opening counts for its slot, or the one just ahead when a little early', async (t) => {
  const daily = cron('0 3 * * *');
  t.equal(expectedAfterOpening(daily, at('2027-01-01T03:00:02Z')), at('2027-01-02T03:00:00Z'), 'on time');
  t.equal(expectedAfterOpening(daily, at('2027-01-01T03:04:00Z')), at('2027-01-02T03:00:00Z'), 'late');
  t.equal(
    expectedAfterOpening(daily, at('2027-01-01T02:59:30Z')),
    at('2027-01-02T03:00:00Z'),
    '30 s early (a fast clock) still counts for 03:00 today',
  );
  t.equal(
    expectedAfterOpening(daily, at('2027-01-01T02:50:00Z')),
    at('2027-01-01T03:00:00Z'),
    '10 minutes early is a run of its own: 03:00 is still expected',
  );
  const everyMinute = cron('* * * * *');
  t.equal(
    expectedAfterOpening(everyMinute, at('2027-01-01T03:00:45Z')),
    at('2027-01-01T03:01:00Z'),
    'a minutely job: 15 s before a slot is not "early" (a tenth of the gap is 6 s)',
  );
  t.equal(
    expectedAfterOpening(everyMinute, at('2027-01-01T03:00:55Z')),
    at('2027-01-01T03:02:00Z'),
    'but 5 s before it is',
  );
  t.equal(expectedAfterOpening({ every: 600 }, at('2027-01-01T03:00:00Z')), at('2027-01-01T03:10:00Z'));
});

t.test(
  'slotAfter keeps its answers: asked in any order across DST changes, each equals a fresh cron-parser read',
  async (t) => {
    const schedules = [
      cron('30 2 * * *', 'Europe/Berlin'),
      cron('*/7 1-3 * * *', 'America/New_York'),
      cron('* * * * *'),
    ];
    // A fixed walk of times around both 2027 changes, forwards and backwards, at odd milliseconds.
    let seed = 26;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const spans = [at('2027-03-13T00:00:00Z'), at('2027-03-27T20:00:00Z'), at('2027-10-30T20:00:00Z')];
    let checked = 0;
    const last = schedules.map(() => spans[0]!);
    for (let i = 0; i < 3_000; i++) {
      const schedule = schedules[i % schedules.length] as { cron: string; timezone: string };
      // Half near the schedule's last time (a minute and a half either way), half anywhere in two days.
      const near = last[i % schedules.length]! + Math.floor((random() - 0.5) * 180_000);
      const after = random() < 0.5 ? near : spans[i % spans.length]! + Math.floor(random() * 2 * 86_400_000);
      last[i % schedules.length] = after;
      const fresh = CronExpressionParser.parse(schedule.cron, { tz: schedule.timezone, currentDate: new Date(after) });
      if (slotAfter(schedule, after) !== fresh.next().getTime()) t.fail(`${schedule.cron} after ${after}`);
      else checked++;
    }
    t.equal(checked, 3_000);
  },
);

t.test('missed slots: counted up to the threshold, then the next slot whose grace still runs', async (t) => {
  const hourly = cron('0 * * * *');
  const grace = 5 * 60_000;
  t.same(afterMiss(hourly, at('2027-01-01T03:00:00Z'), grace, at('2027-01-01T03:05:00Z'), 1), {
    missed: 1,
    skipped: 0,
    next: at('2027-01-01T04:00:00Z'),
  });
  t.same(
    afterMiss(hourly, at('2027-01-01T03:00:00Z'), grace, at('2027-01-01T06:02:00Z'), 10),
    { missed: 3, skipped: 0, next: at('2027-01-01T06:00:00Z') },
    '03:00, 04:00 and 05:00 missed; 06:00 is still in its grace',
  );
  t.same(
    afterMiss(hourly, at('2027-01-01T03:00:00Z'), grace, at('2027-01-03T03:00:00Z'), 2),
    { missed: 2, skipped: 0, next: at('2027-01-03T03:00:00Z') },
    'two days of hourly slots: counted to the threshold, not walked one by one',
  );
  t.same(afterMiss({ every: 600 }, at('2027-01-01T03:00:00Z'), 60_000, at('2027-01-01T03:25:00Z'), 10), {
    missed: 3,
    skipped: 0,
    next: at('2027-01-01T03:30:00Z'),
  });
  const outside = (slot: number) => slot < at('2027-01-01T04:00:00Z') || slot >= at('2027-01-01T06:00:00Z');
  t.same(
    afterMiss(hourly, at('2027-01-01T03:00:00Z'), grace, at('2027-01-01T07:05:00Z'), 10, outside),
    { missed: 3, skipped: 2, next: at('2027-01-01T08:00:00Z') },
    '04:00 and 05:00 fall in a window: skipped, not missed',
  );
});

t.test('incidents: thresholds, one missed alert per incident, recovery', async (t) => {
  const limits = { failureThreshold: 2, recoveryThreshold: 2, renotifyAfter: 3600, failAlerts: 'every' as const };
  const now = at('2027-01-01T00:00:00Z');
  let h: Health = HEALTHY;
  const step = (kind: 'success' | 'fail' | 'timed_out' | 'missed') => {
    const r = afterOutcome(h, limits, kind === 'missed' ? { kind, count: 1 } : { kind }, now);
    h = r.health;
    return r.alert;
  };
  t.equal(step('fail'), null, 'one failure is under the threshold: no alert');
  t.equal(h.incident, null);
  t.equal(step('fail'), 'fail', 'the second opens the incident and alerts');
  t.same(h.incident, { openedAt: now, cause: 'fail', failedRuns: 1, missedRuns: 0 }, 'counted from its opening');
  t.equal(h.remindAt, now + 3_600_000);
  t.equal(step('missed'), null, 'a missed slot while down raises nothing');
  t.equal(step('timed_out'), 'timed_out', 'a timed-out run while down alerts as a failed run does');
  t.match(h.incident, { failedRuns: 2, missedRuns: 1 }, 'the incident counts what happened while down');
  t.equal(step('success'), null, 'one success is under the recovery threshold');
  t.equal(step('success'), 'recovered');
  t.same(h, HEALTHY);
  t.equal(step('missed'), null);
  t.equal(step('missed'), 'missed', 'missed twice in a row: the incident opens with a missed alert');
  t.equal(step('success'), null);
  t.equal(step('fail'), null, 'a failure between successes restarts the recovery count');
  t.ok(h.incident);
  const defaults = { failureThreshold: 1, recoveryThreshold: 1, renotifyAfter: null, failAlerts: 'every' as const };
  t.same(afterOutcome(HEALTHY, defaults, { kind: 'fail' }, now).alert, 'fail', 'defaults: every failure alerts');
});

t.test('failAlerts first: only the failure that opens the incident alerts; the rest are counted', async (t) => {
  const limits = { failureThreshold: 2, recoveryThreshold: 1, renotifyAfter: null, failAlerts: 'first' as const };
  let h: Health = HEALTHY;
  const now = at('2027-01-01T00:00:00Z');
  const step = (kind: 'success' | 'fail' | 'timed_out', minutes: number) => {
    const r = afterOutcome(h, limits, { kind }, now + minutes * 60_000);
    h = r.health;
    return r.alert;
  };
  t.equal(step('fail', 0), null, 'under the threshold');
  t.equal(step('fail', 1), 'fail', 'the one that opens the incident alerts');
  t.equal(step('fail', 2), null);
  t.equal(step('timed_out', 3), null, 'a timed-out run while down is counted too, silently');
  t.same(h.incident, { openedAt: now + 60_000, cause: 'fail', failedRuns: 3, missedRuns: 0 });
  t.equal(incidentSummary(h.incident!, now + 13 * 60_000), '3 failed runs, down 12m');
  t.equal(
    incidentSummary({ openedAt: 0, cause: 'missed', failedRuns: 1, missedRuns: 2 }, 90_000),
    '1 failed run, 2 missed runs, down 1m30s',
  );
  t.equal(step('success', 4), 'recovered');
  t.equal(step('fail', 5), null, 'a new streak starts under the threshold again');
  t.equal(step('fail', 6), 'fail', 'and its incident alerts once');
});

t.test('status: paused, down, running, late, new, up', async (t) => {
  const base = { paused: false, health: HEALTHY, nextExpectedAt: null };
  const now = 1_000;
  t.equal(monitorStatus(base, undefined, now), 'new');
  t.equal(monitorStatus(base, { status: 'success' }, now), 'up');
  t.equal(monitorStatus(base, { status: 'running' }, now), 'running');
  t.equal(monitorStatus({ ...base, nextExpectedAt: 2_000 }, undefined, now), 'new', 'nothing expected yet');
  t.equal(monitorStatus({ ...base, nextExpectedAt: 500 }, undefined, now), 'late');
  t.equal(monitorStatus({ ...base, nextExpectedAt: 500 }, { status: 'failed' }, now), 'late');
  const down = { ...base, health: { ...HEALTHY, failStreak: 1, incident: { openedAt: 0, cause: 'fail' as const } } };
  t.equal(monitorStatus(down, { status: 'running' }, now), 'down');
  t.equal(monitorStatus({ ...down, paused: true }, undefined, now), 'paused');
});
