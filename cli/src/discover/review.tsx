import { render, useApp, useInput } from 'ink';
import type { Key } from 'ink';
import { useEffect, useReducer } from 'react';
import type { Monitor } from '@pingmon/sdk';
import { Box, Text } from '../tui/ink.js';
import type { Candidate } from './plan.js';
import { initialReview, reduceReview } from './review-state.js';
import type { ReviewKey } from './review-state.js';

// The editable list of `pingmon discover` in a terminal: the reducer decides, this only maps keys and draws.

function keyOf(input: string, key: Key, editing: boolean): ReviewKey | undefined {
  if (key.return) return { kind: 'accept' };
  if (key.escape || (key.ctrl && input === 'c')) return { kind: 'cancel' };
  if (key.upArrow) return { kind: 'up' };
  if (key.downArrow) return { kind: 'down' };
  if (editing) {
    if (key.backspace || key.delete) return { kind: 'backspace' };
    return input && !key.ctrl && !key.meta ? { kind: 'text', text: input } : undefined;
  }
  if (input === ' ') return { kind: 'toggle' };
  if (input === 's') return { kind: 'edit', field: 'slug' };
  if (input === 'n') return { kind: 'edit', field: 'name' };
  if (input === 'q') return { kind: 'cancel' };
  return undefined;
}

interface Props {
  rows: Candidate[];
  monitors: Map<string, Monitor>;
  onDone(rows: Candidate[] | undefined): void;
}

export function Review({ rows, monitors, onDone }: Props) {
  const [state, dispatch] = useReducer(reduceReview, rows, initialReview);
  const { exit } = useApp();
  useInput((input, key) => {
    const action = keyOf(input, key, state.editing !== undefined);
    if (action) dispatch(action);
  });
  useEffect(() => {
    if (!state.outcome) return;
    onDone(state.outcome === 'accepted' ? state.rows : undefined);
    exit();
  }, [state.outcome]);
  return (
    <Box flexDirection="column">
      <Text bold>
        Jobs found: space leaves one out or takes it back, s edits its slug, n its name; Enter goes on, q stops
      </Text>
      {state.rows.map((row, i) => {
        const selected = i === state.cursor;
        const edit = selected ? state.editing : undefined;
        const slug = edit?.field === 'slug' ? `${edit.text}▏` : row.slug || '(no --monitor)';
        const name = edit?.field === 'name' ? `${edit.text}▏` : row.name;
        const exists = monitors.has(row.slug) ? 'sync' : 'new';
        return (
          <Text key={row.job.lineNumber} inverse={selected && !edit}>
            {`${row.include ? '[x]' : '[ ]'} line ${row.job.lineNumber}  ${slug}  (${exists})  ` +
              `${row.job.cron}  ${name}`}
          </Text>
        );
      })}
      {state.error ? <Text color="red">{state.error}</Text> : null}
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
