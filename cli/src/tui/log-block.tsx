import { Box, Text } from './ink.js';
import { count } from './format.js';
import type { LogState, LogView } from './layout.js';
import { LABEL_WIDTH, hiddenText } from './layout.js';
import { cell } from '../width.js';
import { wrap } from './text.js';

/** The log below the error message, in a bordered block: collapsed when long, scrollable when open. */
export function LogBlock({ view, log, expanded }: { view: LogView; log: LogState; expanded: boolean }) {
  if (view.mode === 'none') return <Label text="none: this run has no log." />;
  if (view.mode === 'loading') return <Framed label="loading…" rows={['Loading the log…']} />;
  if (view.mode === 'failed') {
    const message = log.state === 'failed' ? log.message : '';
    return (
      <Framed label="could not be loaded" rows={wrap(`${message} Press r to try again.`, view.width)} color="red" />
    );
  }
  const size = `${count(view.characters)} characters`;
  if (view.mode === 'collapsed') {
    return <Framed label={`${size}, collapsed`} rows={view.rows} footer={hiddenText(view.hidden)} />;
  }
  const scrollable = view.scrollMax > 0;
  const position = scrollable
    ? ` · lines ${view.scroll + 1}–${view.scroll + view.rows.length} of ${count(view.totalRows)}`
    : '';
  const toggle = expanded ? ' · e collapses' : scrollable ? ' · e expands' : '';
  return <Framed label={`${size}${position}${toggle}`} rows={view.rows} />;
}

function Label({ text }: { text: string }) {
  return (
    <Text wrap="truncate-end">
      <Text bold>{cell('Log', LABEL_WIDTH)}</Text>
      <Text dimColor>{text}</Text>
    </Text>
  );
}

function Framed({ label, rows, footer, color }: { label: string; rows: string[]; footer?: string; color?: string }) {
  return (
    <Box flexDirection="column">
      <Label text={label} />
      <Box flexDirection="column" borderStyle="single" borderColor="gray" paddingX={1}>
        {rows.map((row, i) => (
          // Rows are already cut to the block's width; truncation is only a last guard for the layout.
          <Text key={i} color={color} wrap="truncate-end">
            {row || ' '}
          </Text>
        ))}
        {footer ? (
          <Text color="yellow" wrap="truncate-end">
            {footer}
          </Text>
        ) : null}
      </Box>
    </Box>
  );
}
