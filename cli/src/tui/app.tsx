import { useEffect } from 'react';
import { useApp } from 'ink';
import { Box, Text } from './ink.js';
import { clock, count } from './format.js';
import { Help } from './help.js';
import { runDetailView, screenColumns, screenRows } from './layout.js';
import { visibleMonitors } from './lists.js';
import { Message } from './message.js';
import { MonitorList } from './monitor-list.js';
import { RunDetail } from './run-detail.js';
import { RunList } from './run-list.js';
import { TimelineList } from './timeline-list.js';
import { EVENT_FILTERS } from './timeline.js';
import type { BrowseSource } from './source.js';
import type { State } from './state.js';
import { cell } from '../width.js';
import { clean } from './text.js';
import { useBrowse } from './use-browse.js';
import { useKeys } from './use-keys.js';
import { runsTrend } from './trend.js';

export interface AppProps {
  source: BrowseSource;
  /** The server, as shown in the header and in messages. */
  url: string;
  refreshMs?: number;
  /** The clock "3m ago" is measured with (tests pass a fixed one). */
  now?: () => number;
}

export function App({ source, url, refreshMs = 5000, now }: AppProps) {
  const [state, dispatch] = useBrowse({ source, url, refreshMs, now });
  const { exit } = useApp();
  useKeys((keys) => dispatch({ type: 'keys', keys }));
  useEffect(() => {
    if (state.quit) exit();
  }, [state.quit, exit]);
  const width = screenColumns(state.size);
  const status = state.loading ? 'loading…' : state.updatedAt ? `updated ${clock(state.updatedAt)} UTC` : '';
  return (
    <Box flexDirection="column" width={width} height={screenRows(state.size)} overflow="hidden">
      <Text wrap="truncate-end">
        <Text bold color="cyan">
          pingmon
        </Text>
        {cell(`  ${clean(url)}`, Math.max(0, width - 7 - status.length))}
        <Text dimColor>{status}</Text>
      </Text>
      <Text bold wrap="truncate-end">
        {title(state)}
      </Text>
      <Notice state={state} refreshSeconds={refreshMs / 1000} width={width} />
      <Box flexDirection="column" flexGrow={1} overflow="hidden">
        <Body state={state} now={state.updatedAt ?? Date.now()} refreshSeconds={refreshMs / 1000} />
      </Box>
      <Text dimColor wrap="truncate-end">
        {footer(state)}
      </Text>
    </Box>
  );
}

function Body({ state, now, refreshSeconds }: { state: State; now: number; refreshSeconds: number }) {
  if (state.help) return <Help refreshSeconds={refreshSeconds} />;
  const problem = state.problem;
  if (problem && problemTakesBody(state)) {
    const hint =
      problem.kind === 'gone'
        ? ' Esc goes back.'
        : problem.kind === 'unreachable'
          ? ` Trying again every ${refreshSeconds} s; r tries now, q quits.`
          : ' q quits.';
    return <Message color="red">{`${problem.message}${hint}`}</Message>;
  }
  if (state.screen === 'detail' && state.detail) return <RunDetail detail={state.detail} size={state.size} />;
  if (state.screen === 'runs' && state.runs) return <RunList runs={state.runs} size={state.size} />;
  if (state.screen === 'timeline' && state.timeline)
    return <TimelineList timeline={state.timeline} size={state.size} />;
  return <MonitorList monitors={state.monitors} size={state.size} now={now} />;
}

/** A problem is shown in place of the view when there is nothing to show, or nothing worth showing. */
function problemTakesBody(state: State): boolean {
  const hasData =
    state.screen === 'monitors'
      ? !!state.monitors.rows
      : state.screen === 'runs'
        ? !!state.runs?.runs
        : state.screen === 'timeline'
          ? !!state.timeline?.events
          : true;
  return !hasData || state.problem?.kind === 'gone';
}

/** One line under the title: a problem while the last data stays on screen, a schedule hint, a trend, or nothing. */
function Notice({ state, refreshSeconds, width }: { state: State; refreshSeconds: number; width: number }) {
  const problem = state.problem;
  const hint = state.screen === 'runs' && !state.help ? state.runs?.hint : null;
  if (!problem && hint) return <Text color="yellow" wrap="truncate-end">{`△ ${hint}`}</Text>;
  const trend = state.screen === 'runs' && !state.help ? runsTrend(state.runs?.runs ?? [], width) : '';
  if (!problem && trend) return <Text wrap="truncate-end">{trend}</Text>;
  if (!problem || state.help || problemTakesBody(state)) return <Text> </Text>;
  const since = state.updatedAt ? ` Showing data from ${clock(state.updatedAt)} UTC.` : '';
  const retry = problem.kind === 'unreachable' ? ` Trying again every ${refreshSeconds} s.` : '';
  return (
    <Text
      color={problem.kind === 'unreachable' ? 'yellow' : 'red'}
      wrap="truncate-end"
    >{`▲ ${problem.message}${since}${retry}`}</Text>
  );
}

function title(state: State): string {
  if (state.help) return 'Help';
  if (state.screen === 'monitors') {
    if (!state.monitors.rows) return 'Monitors';
    const rows = state.monitors.rows;
    const attention = (['down', 'late'] as const)
      .map((status) => [rows.filter((row) => row.status === status).length, status] as const)
      .filter(([n]) => n > 0)
      .map(([n, status]) => ` · ${n} ${status}`)
      .join('');
    const { filter, filtering } = state.monitors;
    const shown = filter
      ? `${count(visibleMonitors(state.monitors).length)} of ${count(rows.length)}`
      : count(rows.length);
    const filterText = filtering || filter ? ` · filter: ${filter}${filtering ? '▏' : ''}` : '';
    return `Monitors · ${shown}${attention}${filterText}`;
  }
  const runs = state.runs;
  if (state.screen === 'runs' && runs) {
    const loaded = runs.runs
      ? ` · ${count(runs.runs.length)}${runs.nextCursor ? '+' : ''}` +
        ` run${runs.runs.length === 1 && !runs.nextCursor ? '' : 's'}`
      : '';
    const more = runs.loadingMore ? ' · loading more…' : '';
    const filter = runs.fingerprint ? `same failure ${runs.fingerprint}` : runs.failedOnly ? 'failed only' : 'all';
    return `${clean(runs.name)} › Runs · ${filter}${loaded}${more}`;
  }
  const timeline = state.timeline;
  if (state.screen === 'timeline' && timeline) {
    const events = timeline.events;
    const plural = events?.length === 1 && !timeline.nextCursor ? '' : 's';
    const loaded = events ? ` · ${count(events.length)}${timeline.nextCursor ? '+' : ''} event${plural}` : '';
    const more = timeline.loadingMore ? ' · loading more…' : '';
    return `${clean(timeline.name)} › Timeline · ${EVENT_FILTERS[timeline.filter]!.name}${loaded}${more}`;
  }
  return `${clean(state.detail?.name ?? '')} › Run ${state.detail?.run.runId ?? ''}`;
}

type Hint = string;
const HELP_QUIT: Hint[] = ['? help', 'q quit'];

/** The keys of the open view, most useful first; those that do not fit the width are left out (? lists them all). */
function hints(state: State): Hint[] {
  if (state.help) return ['? or Esc closes the help', 'q quit'];
  if (state.screen === 'monitors' && state.monitors.filtering)
    return ['type to filter', '↑↓ move', 'Enter keep', 'Esc clear'];
  if (state.screen === 'monitors') return ['↑↓ move', 'Enter open', '/ filter', 'r refresh', ...HELP_QUIT];
  if (state.screen === 'runs') {
    const runs = state.runs;
    if (runs?.fingerprint) return ['↑↓ move', 'Enter open', 's or Esc all runs', 'r refresh', ...HELP_QUIT];
    const same = runs?.runs?.[runs.cursor]?.fingerprint ? ['s same failure'] : [];
    return ['↑↓ move', 'Enter open', ...same, 'f failed only', 't timeline', 'Esc back', 'r refresh', ...HELP_QUIT];
  }
  if (state.screen === 'timeline') return ['↑↓ move', 'f kind', 't runs', 'Esc back', 'r refresh', ...HELP_QUIT];
  const detail = state.detail;
  const log = detail ? runDetailView(detail, state.size).log : undefined;
  const expandable = log?.mode === 'collapsed' || (log?.mode === 'open' && (log.scrollMax > 0 || detail?.expanded));
  const toggle = expandable ? [detail?.expanded ? 'e collapse log' : 'e expand log'] : [];
  const scroll = log?.mode === 'open' && log.scrollMax > 0 ? ['↑↓ PgUp PgDn scroll'] : [];
  const same = detail?.run.fingerprint ? ['s same failure'] : [];
  return [...toggle, ...same, 'Esc back', ...scroll, 'r refresh', ...HELP_QUIT];
}

function footer(state: State): string {
  const all = hints(state);
  const width = screenColumns(state.size);
  const shown = [...all];
  while (shown.join(' · ').length > width && shown.length > 2) shown.splice(shown.length - 3, 1);
  return shown.join(' · ');
}
