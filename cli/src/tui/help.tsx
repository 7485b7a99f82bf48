import { Box, Text } from './ink.js';
import { FAILS_LEGEND } from './monitor-list.js';
import { SILENT_MARK, STATUS } from './format.js';
import { MONITOR_STATUSES } from '@pingmon/sdk/wire';
import { monitorStatusText } from '../monitor-settings.js';
import { cell } from '../width.js';

// 12 keys and 5 symbol lines: all of it fits the 19 rows an 80×24 terminal leaves the help (not one more).
const KEYS: Array<[string, string]> = [
  ['↑ ↓  j k', 'move; in an open log, scroll'],
  ['PgUp PgDn', 'a page up or down (space: down)'],
  ['g G  Home End', 'first / last'],
  ['Enter  Esc', 'open the monitor or run; back (also Backspace)'],
  ['/', 'monitors: filter by name (Enter keeps it, Esc clears it)'],
  ['f', 'runs: failed runs only, or all runs; timeline: the next kind of event'],
  ['s', 'failed run: the runs that failed the same way; again (or Esc): all runs'],
  ['t', 'runs: the timeline (runs, missed runs, timeouts, incidents, alerts, pauses), or back'],
  ['p', 'monitors: pause or resume the monitor (a paused one raises no alert)'],
  ['z', 'monitors: snooze 1h; again: 4h, 1d, then no snooze (alerts held, one at the end if still down)'],
  ['e', 'run: the log on the whole screen, or collapsed'],
  ['r  ?  q', 'refresh now; this help; quit (also Ctrl-C)'],
];

export function Help({ refreshSeconds }: { refreshSeconds: number }) {
  const symbols = (['failed', 'success', 'running', 'none'] as const)
    .map((s) => `${STATUS[s].symbol} ${STATUS[s].word}`)
    .join('   ');
  const monitorSymbols = MONITOR_STATUSES.map((s) => monitorStatusText(s)).join('   ');
  return (
    <Box flexDirection="column" paddingX={1}>
      <Text bold>Keys</Text>
      {KEYS.map(([keys, what]) => (
        <Text key={keys} wrap="truncate-end">{`  ${cell(keys, 15)}${what}`}</Text>
      ))}
      <Text bold>Symbols</Text>
      <Text wrap="truncate-end">{`  ${symbols}`}</Text>
      <Text wrap="truncate-end">
        {`  ${SILENT_MARK} silent failure: ` + 'the run succeeded, but its meta matched an alert rule'}
      </Text>
      <Text wrap="truncate-end">{`  ${monitorSymbols}`}</Text>
      <Text wrap="truncate-end">{`  ${FAILS_LEGEND}`}</Text>
      <Text wrap="truncate-end">{`  Times are UTC. The open view refreshes itself every ${refreshSeconds} s.`}</Text>
    </Box>
  );
}
