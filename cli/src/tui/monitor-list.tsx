import { Box, Text } from './ink.js';
import { RECENT_RUNS } from '@pingmon/sdk';
import type { Size } from './layout.js';
import { listRows, screenColumns, windowStart } from './layout.js';
import type { MonitorStatus } from '@pingmon/sdk';
import { monitorStatusText } from '../monitor-settings.js';
import { SILENT_MARK, STATUS, ago, duration, statusColor, until } from './format.js';
import { visibleMonitors } from './lists.js';
import { Message } from './message.js';
import type { MonitorRow } from './source.js';
import type { MonitorsState } from './state.js';
import { cell, textWidth } from '../width.js';
import { clean } from './text.js';

// Marker, status, last run and fails take fixed widths, and NEXT and DURATION while the name keeps NAME_MIN
// columns (DURATION gives way first); the name gets the rest.
const FIXED = 2 + 9 + 2 + 2 + 11 + 2 + 5;
const OPTIONAL = 8 + 2;
const NAME_MIN = 16;

/** Which optional columns fit, and the name's width. */
function columnsFor(columns: number): { next: boolean; duration: boolean; nameWidth: number } {
  const room = columns - FIXED;
  const next = room - OPTIONAL >= NAME_MIN;
  const duration = room - 2 * OPTIONAL >= NAME_MIN;
  return { next, duration, nameWidth: Math.max(8, room - (next ? OPTIONAL : 0) - (duration ? OPTIONAL : 0)) };
}

export function MonitorList({ monitors, size, now }: { monitors: MonitorsState; size: Size; now: number }) {
  const rows = visibleMonitors(monitors);
  if (!monitors.rows) return <Message>Loading monitors…</Message>;
  if (monitors.rows.length === 0) {
    return (
      <Message>
        {'No monitors yet. Create one with `pingmon monitors create NAME`, then report a job to it:\n'}
        {'pingmon run --monitor <slug> -- <command>'}
      </Message>
    );
  }
  if (rows.length === 0) return <Message>{`No monitor matches “${monitors.filter}”. Esc clears the filter.`}</Message>;
  const height = listRows(size);
  const layout = columnsFor(screenColumns(size));
  const { nameWidth } = layout;
  const start = windowStart(monitors.cursor, monitors.offset, height, rows.length);
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-end">
        {`  ${cell('STATUS', 9)}  ${cell('NAME  SLUG', nameWidth)}  ${cell('LAST RUN', 11)}  ` +
          `${layout.next ? `${cell('NEXT', 8)}  ` : ''}${layout.duration ? `${cell('DURATION', 8)}  ` : ''}FAILS`}
      </Text>
      {rows.slice(start, start + height).map((row, i) => (
        <MonitorLine key={row.monitorId} row={row} selected={start + i === monitors.cursor} layout={layout} now={now} />
      ))}
    </Box>
  );
}

function MonitorLine({
  row,
  selected,
  layout,
  now,
}: {
  row: MonitorRow;
  selected: boolean;
  layout: ReturnType<typeof columnsFor>;
  now: number;
}) {
  const { nameWidth } = layout;
  const last = row.lastRun;
  const status = last ? last.status : 'none';
  const silent = last?.silentFailure ?? false;
  const fails = row.recentRuns === 0 ? '—' : `${row.recentFailures}/${row.recentRuns}`;
  // The run's symbol (▲ for a silent failure) before when it started: "✗ 3m ago".
  const lastRun = last ? `${silent ? SILENT_MARK : STATUS[status].symbol} ${ago(last.startedAt, now)}` : 'never';
  return (
    <Text wrap="truncate-end" inverse={selected} bold={row.status === 'down'}>
      {selected ? '▸ ' : '  '}
      <Text color={MONITOR_COLOR[row.status]}>{cell(monitorStatusText(row.status), 9)}</Text>
      {'  '}
      <NameCell name={clean(row.name) + snoozeText(row.snoozedUntil, now)} slug={row.slug} width={nameWidth} />
      {'  '}
      <Text color={last ? statusColor(status, silent) : undefined}>{cell(lastRun, 11)}</Text>
      {`  ${layout.next ? `${cell(until(row.nextExpectedAt, now), 8)}  ` : ''}` +
        `${layout.duration ? `${cell(duration(last?.durationMs ?? null), 8)}  ` : ''}`}
      <Text color={row.recentFailures > 0 ? 'red' : undefined}>{cell(fails, 5)}</Text>
    </Text>
  );
}

/** The name, then the slug dimmed where both fit in `width`; the name alone (cut to fit) where they do not. */
function NameCell({ name, slug, width }: { name: string; slug: string; width: number }) {
  const room = width - textWidth(name) - 2;
  if (room < textWidth(slug)) return <>{cell(name, width)}</>;
  return (
    <>
      {`${name}  `}
      <Text dimColor>{slug}</Text>
      {' '.repeat(room - textWidth(slug))}
    </>
  );
}

/** " · snoozed 59m" after the name of a snoozed monitor. */
function snoozeText(snoozedUntil: string | null, now: number): string {
  const left = until(snoozedUntil, now);
  return snoozedUntil === null || left === 'due' ? '' : ` · snoozed ${left.replace(/^in /, '')}`;
}

const MONITOR_COLOR: Record<MonitorStatus, string | undefined> = {
  down: 'red',
  late: 'yellow',
  running: 'cyan',
  up: 'green',
  new: 'gray',
  paused: 'gray',
};

export const FAILS_LEGEND = `FAILS: failed runs among the monitor's last ${RECENT_RUNS}`;
