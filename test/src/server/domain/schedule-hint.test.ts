import t from 'tap';
import { HINT_MIN_RUNS, scheduleHint } from '@pingmon/server/internal';
import type { StoredSchedule } from '@pingmon/server/internal';

const at = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const cron = (expr: string, timezone = 'UTC'): StoredSchedule => ({ cron: expr, timezone });
const GRACE = 5 * MINUTE;

/** `count` openings from `first`, `step` apart, each moved by `jitter(i)` ms. */
function openings(first: string, count: number, step = DAY, jitter: (i: number) => number = () => 0): number[] {
  return Array.from({ length: count }, (_, i) => at(first) + i * step + jitter(i));
}

/** Openings of a job that cron runs at `hh:mm` every day on a host in `zone` (a real wall clock, DST included). */
function hostDaily(zone: string, hhmm: string, firstDay: string, count: number): number[] {
  const [hh, mm] = hhmm.split(':').map(Number) as [number, number];
  return Array.from({ length: count }, (_, i) => {
    const day = new Date(at(`${firstDay}T00:00:00Z`) + i * DAY).toISOString().slice(0, 10);
    // The instant whose wall clock in `zone` reads day hh:mm: that wall time read as UTC, corrected twice.
    const wall = Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10), hh, mm);
    let guess = wall;
    for (let k = 0; k < 2; k++) guess = wall - offsetMs(guess, zone);
    return guess;
  });
}

function offsetMs(instant: number, zone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!);
  return wall - Math.floor(instant / MINUTE) * MINUTE;
}

t.test('nothing to say: no schedule, fewer than five runs, runs on time', async (t) => {
  const offByTwo = openings('2027-06-01T01:00:00Z', 10);
  t.equal(scheduleHint(null, GRACE, offByTwo), null, 'no schedule');
  t.equal(scheduleHint(cron('0 3 * * *'), GRACE, offByTwo.slice(0, HINT_MIN_RUNS - 1)), null, 'four runs');
  t.not(scheduleHint(cron('0 3 * * *'), GRACE, offByTwo.slice(0, HINT_MIN_RUNS)), null, 'five runs say it');
  t.equal(scheduleHint(cron('0 3 * * *'), GRACE, openings('2027-06-01T03:00:00Z', 20)), null, 'on time');
  t.equal(scheduleHint(cron('0 3 * * *'), GRACE, []), null);
});

t.test('jitter within the grace gives no hint', async (t) => {
  const small = [0.5, 4, -0.5, 2, 4.5, 1, 3, 0, 4, 2.5].map((m) => m * MINUTE);
  t.equal(
    scheduleHint(
      cron('0 3 * * *'),
      GRACE,
      openings('2027-06-01T03:00:00Z', 10, DAY, (i) => small[i]!),
    ),
    null,
  );
  // A grace of two hours, and runs anywhere in it.
  const wide = [2, 95, 40, 110, 15, 70, 5, 100, 55, 80, 30, 118].map((m) => m * MINUTE);
  t.equal(
    scheduleHint(
      cron('0 3 * * *'),
      2 * HOUR,
      openings('2027-06-01T03:00:00Z', 12, DAY, (i) => wide[i]!),
    ),
    null,
  );
  // An every schedule whose job takes a few minutes more each time (a loop with a sleep): the same rhythm.
  const loop = openings('2027-06-01T00:00:00Z', 10, 3600_000 + 4 * MINUTE, (i) => (i % 3) * 20_000);
  t.equal(scheduleHint({ every: 3600 }, GRACE, loop), null);
});

t.test('a cron schedule in UTC run by a host on Europe/Berlin time: the zone is named', async (t) => {
  const hint = scheduleHint(cron('0 3 * * *'), GRACE, hostDaily('Europe/Berlin', '03:00', '2027-06-01', 7));
  t.same(hint, {
    kind: 'offset',
    message: "Runs open about 2h before the schedule's time; is the timezone Europe/Berlin rather than UTC?",
    runs: 7,
    offsetMinutes: -120,
    timezone: 'Europe/Berlin',
    observedEvery: null,
    expectedEvery: null,
  });
});

t.test('across a DST change the offset moves by an hour and the zone still explains it', async (t) => {
  // 2027-03-28: Europe/Berlin goes from +1 to +2. The runs are 1h, then 2h before 03:00 UTC.
  const runs = hostDaily('Europe/Berlin', '03:00', '2027-03-20', 16);
  t.equal(runs[0], at('2027-03-20T02:00:00Z'));
  t.equal(runs.at(-1), at('2027-04-04T01:00:00Z'));
  const hint = scheduleHint(cron('0 3 * * *'), GRACE, runs);
  t.equal(hint?.timezone, 'Europe/Berlin');
  t.equal(hint?.offsetMinutes, -120, 'the latest run: two hours');

  // The other way round: a Europe/Berlin schedule, and a host on UTC, over the autumn change.
  const utcHost = hostDaily('UTC', '03:00', '2027-10-25', 12);
  const back = scheduleHint(cron('0 3 * * *', 'Europe/Berlin'), GRACE, utcHost);
  t.equal(
    back?.message,
    "Runs open about 1h after the schedule's time; is the timezone UTC rather than Europe/Berlin?",
  );

  // New York: four or five hours after, by the season.
  const ny = scheduleHint(cron('30 2 * * *'), GRACE, hostDaily('America/New_York', '02:30', '2027-03-10', 10));
  t.equal(ny?.timezone, 'America/New_York');
  t.equal(ny?.offsetMinutes, 240);
  t.match(ny?.message, /^Runs open about 4h after the schedule's time/);
});

t.test('zones off by half an hour are named with their minutes', async (t) => {
  const hint = scheduleHint(cron('0 6 * * *'), GRACE, hostDaily('Asia/Kolkata', '06:00', '2027-01-01', 6));
  t.equal(hint?.timezone, 'Asia/Kolkata');
  t.equal(hint?.offsetMinutes, -330);
  t.match(hint?.message, /about 5h30m before/);
});

t.test('an offset of whole hours that no common zone explains is still pointed out', async (t) => {
  // Three hours late all year round, across a DST change of the schedule's own zone: no zone fits both seasons.
  const runs = openings('2027-03-24T06:00:00Z', 10, DAY, (i) => (i >= 4 ? -HOUR : 0));
  const hint = scheduleHint(cron('0 3 * * *', 'Europe/London'), GRACE, runs);
  t.equal(hint?.kind, 'offset');
  t.equal(hint?.timezone, null);
  t.equal(hint?.offsetMinutes, 180);
  t.match(
    hint?.message,
    /^Runs open about 3h after the schedule's time; is the schedule's timezone \(Europe\/London\)/,
  );
  t.match(hint?.message, /\?$/);
});

t.test('missed runs and paused periods do not hide an offset, nor make one', async (t) => {
  const everyDay = hostDaily('Europe/Berlin', '03:00', '2027-06-01', 30);
  const gaps = everyDay.filter((_, i) => ![3, 4, 9, 15].includes(i)).slice(-12);
  t.equal(scheduleHint(cron('0 3 * * *'), GRACE, gaps)?.timezone, 'Europe/Berlin', 'missed days, still off');
  const onTime = openings('2027-06-01T03:00:00Z', 30);
  const paused = [...onTime.slice(0, 6), ...onTime.slice(20)];
  t.equal(scheduleHint(cron('0 3 * * *'), GRACE, paused), null, 'a pause of two weeks in the middle');
  const missed = onTime.filter((_, i) => i % 5 !== 2);
  t.equal(scheduleHint(cron('0 3 * * *'), GRACE, missed), null, 'one day in five missed');
});

t.test('only the latest runs count: once the zone is fixed, the hint goes', async (t) => {
  const before = hostDaily('Europe/Berlin', '03:00', '2027-06-01', 10);
  const fixed = [...before, at('2027-06-11T03:00:00Z')];
  t.not(scheduleHint(cron('0 3 * * *'), GRACE, before), null);
  t.equal(scheduleHint(cron('0 3 * * *'), GRACE, fixed), null, 'the latest run keeps the time');
  const long = [...before, ...openings('2027-06-11T03:00:00Z', 20)];
  t.equal(scheduleHint(cron('0 3 * * *'), GRACE, long.reverse()), null, 'order of the input does not matter');
  // One run started by hand among them changes nothing.
  const byHand = [...before.slice(0, 9), before[8]! + 7 * HOUR, before[9]!];
  t.equal(scheduleHint(cron('0 3 * * *'), GRACE, byHand)?.timezone, 'Europe/Berlin');
});

t.test('schedules whose slots are close together cannot show an offset of hours', async (t) => {
  const hourly = openings('2027-06-01T00:00:00Z', 20, HOUR);
  t.equal(scheduleHint(cron('0 * * * *'), GRACE, hourly), null);
  t.equal(scheduleHint(cron('0 */3 * * *'), GRACE, openings('2027-06-01T02:00:00Z', 20, 3 * HOUR)), null);
});

t.test('a different rhythm: expected daily, running weekly, and the other way round', async (t) => {
  const weekly = openings('2027-06-07T03:00:00Z', 6, 7 * DAY);
  t.same(scheduleHint(cron('0 3 * * *'), GRACE, weekly), {
    kind: 'rhythm',
    message: 'Runs open about every 7d, but the schedule expects one about every 1d; is the schedule right?',
    runs: 6,
    offsetMinutes: null,
    timezone: null,
    observedEvery: 7 * 86_400,
    expectedEvery: 86_400,
  });
  const daily = openings('2027-06-07T03:00:00Z', 10, DAY, (i) => i * 20_000);
  const hint = scheduleHint(cron('0 3 * * 1'), GRACE, daily);
  t.equal(hint?.kind, 'rhythm');
  t.equal(hint?.observedEvery, 86_400);
  t.equal(hint?.expectedEvery, 7 * 86_400);
  const hourly = openings('2027-06-07T00:10:00Z', 12, HOUR);
  t.match(scheduleHint(cron('0 3 * * *'), GRACE, hourly)?.message, /^Runs open about every 1h, but .* every 1d;/);
  // A weekday schedule run every day: the gaps it expects are mostly one day, so nothing to say.
  t.equal(scheduleHint(cron('0 3 * * 1-5'), GRACE, openings('2027-06-07T03:00:00Z', 14)), null);
});

t.test('every schedules: the rhythm is compared with the interval', async (t) => {
  const hint = scheduleHint({ every: 3600 }, GRACE, openings('2027-06-01T00:00:00Z', 8, DAY));
  t.equal(hint?.kind, 'rhythm');
  t.equal(hint?.observedEvery, 86_400);
  t.equal(hint?.expectedEvery, 3600);
  t.equal(scheduleHint({ every: 86_400 }, GRACE, openings('2027-06-01T05:00:00Z', 8, DAY)), null);
  const irregular = [0, 1, 5, 6, 14, 15, 30, 31].map((h) => at('2027-06-01T00:00:00Z') + h * DAY);
  t.equal(scheduleHint({ every: 3600 }, GRACE, irregular), null, 'no steady rhythm: nothing to say');
});
