import type { Run } from '@pingmon/sdk';
import { Box, Text } from './ink.js';
import type { Size } from './layout.js';
import { listRows, screenColumns, windowStart } from './layout.js';
import { duration, matchedRules, statusColor, statusText, when } from './format.js';
import { Message } from './message.js';
import type { RunsState } from './state.js';
import { cell } from '../width.js';
import { firstLine } from './text.js';

export function RunList({ runs, size }: { runs: RunsState; size: Size }) {
  if (!runs.runs) return <Message>Loading runs…</Message>;
  if (runs.runs.length === 0) {
    if (runs.fingerprint) return <Message>No runs with this failure. Press s to show all runs.</Message>;
    return runs.failedOnly ? (
      <Message>No failed runs. Press f to show all runs.</Message>
    ) : (
      <Message>
        {'No runs yet. They appear here when the job reports:\npingmon run --monitor ' +
          runs.monitorId +
          ' -- <command>'}
      </Message>
    );
  }
  const width = screenColumns(size);
  // Below 80 columns the year goes: the error message needs the room more.
  const short = width < 80;
  const startedWidth = short ? 14 : 19;
  const errorWidth = Math.max(6, width - (2 + 11 + 2 + startedWidth + 2 + 8 + 2));
  const height = listRows(size);
  const start = windowStart(runs.cursor, runs.offset, height, runs.runs.length);
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-end">
        {`  ${cell('STATUS', 11)}  ${cell('STARTED (UTC)', startedWidth)}  ${cell('DURATION', 8)}  ERROR`}
      </Text>
      {runs.runs.slice(start, start + height).map((run, i) => (
        <RunLine
          key={run.runId}
          run={run}
          selected={start + i === runs.cursor}
          short={short}
          startedWidth={startedWidth}
          errorWidth={errorWidth}
        />
      ))}
    </Box>
  );
}

interface LineProps {
  run: Run;
  selected: boolean;
  short: boolean;
  startedWidth: number;
  errorWidth: number;
}

function RunLine({ run, selected, short, startedWidth, errorWidth }: LineProps) {
  const silent = run.silentFailure;
  const rules = matchedRules(run);
  const error =
    firstLine(run.errorMessage) || (silent ? `silent failure${rules.length > 0 ? `: ${rules.join(', ')}` : ''}` : '');
  return (
    <Text wrap="truncate-end" inverse={selected}>
      {selected ? '▸ ' : '  '}
      <Text color={statusColor(run.status, silent)}>{cell(statusText(run.status, silent), 11)}</Text>
      {`  ${cell(when(run.startedAt, short), startedWidth)}  ${cell(duration(run.durationMs), 8)}  `}
      <Text color={run.status === 'failed' ? 'red' : silent ? 'yellow' : undefined}>{cell(error, errorWidth)}</Text>
    </Text>
  );
}
