import { render, useApp } from 'ink';
import { useEffect, useReducer, useState } from 'react';
import type { Monitor } from '@pingmon/sdk';
import { plural } from '../output.js';
import { Box, Text } from '../tui/ink.js';
import type { KeyFlags } from '../tui/key-reader.js';
import { useKeys } from '../tui/use-keys.js';
import type { Candidate } from './plan.js';
import { initialReview, reduceReview } from './review-state.js';
import type { ReviewKey } from './review-state.js';

// The editable list of `pingmon discover` in a terminal: the reducer decides, this only maps keys and draws.

function keyOf(input: string, key: KeyFlags): ReviewKey | undefined {
  if (key.return) return { kind: 'accept' };
  if (key.escape || (key.ctrl && input === 'c')) return { kind: 'cancel' };
  if (key.upArrow) return { kind: 'up' };
  if (key.downArrow) return { kind: 'down' };
  if (key.backspace || key.delete) return { kind: 'backspace' };
  return input && !key.ctrl && !key.meta ? { kind: 'text', text: input } : undefined;
}

interface Props {
  rows: Candidate[];
  monitors: Map<string, Monitor>;
  onDone(rows: Candidate[] | undefined): void;
}

export function Review({ rows, monitors, onDone }: Props) {
  const [state, dispatch] = useReducer(reduceReview, rows, initialReview);
  const { exit } = useApp();
  useKeys((keys) => {
    // Keys that arrive together (typed fast, pasted) are taken one by one, each against the state before it.
    for (const { input, key } of keys) {
      const action = keyOf(input, key);
      if (action) dispatch(action);
    }
  });
  // The keys are said once they are listened to (useKeys' effect runs first): a key pressed sooner is lost.
  const [listening, setListening] = useState(false);
  useEffect(() => setListening(true), []);
  useEffect(() => {
    if (!state.outcome) return;
    onDone(state.outcome === 'accepted' ? state.rows : undefined);
    exit();
  }, [state.outcome]);
  return (
    <Box flexDirection="column">
      <Text bold>{`${plural(state.rows.length, 'job')} found in the crontab`}</Text>
      {state.rows.map((row, i) => {
        const selected = i === state.cursor;
        const edit = selected ? state.editing : undefined;
        const slug = edit?.field === 'slug' ? `${edit.text}▏` : row.slug || '(no --monitor)';
        const name = edit?.field === 'name' ? `${edit.text}▏` : (monitors.get(row.slug)?.name ?? row.name);
        const exists = monitors.has(row.slug) ? 'sync' : 'new';
        return (
          <Text key={row.job.lineNumber} inverse={selected && !edit}>
            {`${row.include ? '[x]' : '[ ]'} line ${row.job.lineNumber}  ${slug}  (${exists})  ` +
              `${row.job.cron}  ${name}`}
          </Text>
        );
      })}
      {state.error ? <Text color="red">{state.error}</Text> : null}
      {listening ? (
        <Text dimColor>
          ↑/↓ move · space leaves a job out or takes it back · s slug · n name · Enter go on · q stop
        </Text>
      ) : null}
    </Box>
  );
}

/** The list as the person left it, or undefined when they stopped. */
export async function review(rows: Candidate[], monitors: Map<string, Monitor>): Promise<Candidate[] | undefined> {
  if (rows.length === 0) return rows;
  let result: Candidate[] | undefined;
  const app = render(<Review rows={rows} monitors={monitors} onDone={(done) => (result = done)} />);
  await app.waitUntilExit();
  return result;
}
