import { Box, Text } from 'ink';
import { RECENT_RUNS } from '@pingmon/sdk';
import type { Size } from './layout.js';
import { listRows, screenColumns, windowStart } from './layout.js';
import { ago, duration, statusColor, statusText } from './format.js';
import { visibleMonitors } from './lists.js';
import { Message } from './message.js';
import type { MonitorRow } from './source.js';
import type { MonitorsState } from './state.js';
import { cell } from '../width.js';
import { clean } from './text.js';

// Marker, status, last run, duration and fails take fixed widths; the name gets the rest.
const FIXED = 2 + 11 + 2 + 2 + 9 + 2 + 8 + 2 + 5;

export function MonitorList({ monitors, size, now }: { monitors: MonitorsState; size: Size; now: number }) {
  const rows = visibleMonitors(monitors);
  if (!monitors.rows) return <Message>Loading monitors…</Message>;
  if (monitors.rows.length === 0) {
    return (
      <Message>
        {'No monitors yet. Create one with `pingmon monitors create NAME`, then report a job to it:\n'}
        {'pingmon run --monitor <monitor id> -- <command>'}
      </Message>
    );
  }
  if (rows.length === 0) return <Message>{`No monitor matches “${monitors.filter}”. Esc clears the filter.`}</Message>;
  const height = listRows(size);
  const nameWidth = Math.max(8, screenColumns(size) - FIXED);
  const start = windowStart(monitors.cursor, monitors.offset, height, rows.length);
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-end">
        {`  ${cell('STATUS', 11)}  ${cell('NAME', nameWidth)}  ${cell('LAST RUN', 9)}  ${cell('DURATION', 8)}  FAILS`}
      </Text>
      {rows.slice(start, start + height).map((row, i) => (
        <MonitorLine
          key={row.monitorId}
          row={row}
          selected={start + i === monitors.cursor}
          nameWidth={nameWidth}
          now={now}
        />
      ))}
    </Box>
  );
}

function MonitorLine({
  row,
  selected,
  nameWidth,
  now,
}: {
  row: MonitorRow;
  selected: boolean;
  nameWidth: number;
  now: number;
}) {
  const last = row.lastRun;
  const status = last ? last.status : 'none';
  const silent = last?.silentFailure ?? false;
  const fails = row.recentRuns === 0 ? '—' : `${row.recentFailures}/${row.recentRuns}`;
  return (
    <Text wrap="truncate-end" inverse={selected} bold={status === 'failed'}>
      {selected ? '▸ ' : '  '}
      <Text color={statusColor(status, silent)}>{cell(statusText(status, silent), 11)}</Text>
      {`  ${cell(clean(row.name), nameWidth)}  ${cell(ago(last?.startedAt ?? null, now), 9)}  ` +
        `${cell(duration(last?.durationMs ?? null), 8)}  `}
      <Text color={row.recentFailures > 0 ? 'red' : undefined}>{cell(fails, 5)}</Text>
    </Text>
  );
}

export const FAILS_LEGEND = `FAILS: failed runs among the monitor's last ${RECENT_RUNS}`;
