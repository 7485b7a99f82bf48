import type { EventKind, MonitorEvent } from '@pingmon/sdk';
import { eventDetail, eventLabel } from '@pingmon/sdk/wire';
import { Box, Text } from './ink.js';
import type { Size } from './layout.js';
import { listRows, screenColumns, windowStart } from './layout.js';
import { when } from './format.js';
import { Message } from './message.js';
import { EVENT_FILTERS, eventKey } from './timeline.js';
import type { TimelineState } from './timeline.js';
import { cell } from '../width.js';
import { clean } from './text.js';

const EVENT_WIDTH = 17;

/** Colour repeats what the symbol says: red for what went wrong, green for what went right. */
const COLOR: Partial<Record<EventKind, string>> = {
  run_failed: 'red',
  missed: 'red',
  timed_out: 'red',
  incident_opened: 'red',
  run_succeeded: 'green',
  incident_closed: 'green',
  run_started: 'cyan',
  alert: 'yellow',
};

export function TimelineList({ timeline, size }: { timeline: TimelineState; size: Size }) {
  if (!timeline.events) return <Message>Loading the timeline…</Message>;
  if (timeline.events.length === 0) {
    const filter = EVENT_FILTERS[timeline.filter]!;
    return (
      <Message>
        {timeline.filter === 0
          ? 'Nothing has happened yet: runs, missed runs, incidents and alerts appear here.'
          : `No ${filter.name}. Press f for the next kind.`}
      </Message>
    );
  }
  const width = screenColumns(size);
  const short = width < 80;
  const timeWidth = short ? 14 : 19;
  const detailWidth = Math.max(6, width - (2 + timeWidth + 2 + EVENT_WIDTH + 2));
  const height = listRows(size);
  const start = windowStart(timeline.cursor, timeline.offset, height, timeline.events.length);
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-end">
        {`  ${cell('TIME (UTC)', timeWidth)}  ${cell('EVENT', EVENT_WIDTH)}  DETAIL`}
      </Text>
      {timeline.events.slice(start, start + height).map((event, i) => (
        <EventLine
          key={eventKey(event)}
          event={event}
          selected={start + i === timeline.cursor}
          short={short}
          timeWidth={timeWidth}
          detailWidth={detailWidth}
        />
      ))}
    </Box>
  );
}

interface LineProps {
  event: MonitorEvent;
  selected: boolean;
  short: boolean;
  timeWidth: number;
  detailWidth: number;
}

function EventLine({ event, selected, short, timeWidth, detailWidth }: LineProps) {
  return (
    <Text wrap="truncate-end" inverse={selected}>
      {selected ? '▸ ' : '  '}
      {`${cell(when(event.at, short), timeWidth)}  `}
      <Text color={COLOR[event.kind]}>{cell(eventLabel(event.kind), EVENT_WIDTH)}</Text>
      {`  ${cell(clean(eventDetail(event)).replace(/\n/g, ' '), detailWidth)}`}
    </Text>
  );
}
