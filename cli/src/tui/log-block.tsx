import { Box, Text } from './ink.js';
import { count } from './format.js';
import type { LogState, LogView } from './layout.js';
import { LABEL_WIDTH, hiddenText } from './layout.js';
import { cell } from '../width.js';
import { wrap } from './text.js';

/**
 * The log below the error message, in a bordered block: collapsed when long, scrollable when open. `live`: a
 * running run's live output stands in for it.
 */
export function LogBlock(props: { view: LogView; log: LogState; expanded: boolean; live?: boolean }) {
  const { view, log, expanded } = props;
  const title = props.live ? 'Output' : 'Log';
  if (view.mode === 'none') return <Label title={title} text="none: this run has no log." />;
  if (view.mode === 'loading') return <Framed title={title} label="loading…" rows={['Loading the log…']} />;
  if (view.mode === 'failed') {
    const message = log.state === 'failed' ? log.message : '';
    return (
      <Framed
        title={title}
        label="could not be loaded"
        rows={wrap(`${message} Press r to try again.`, view.width)}
        color="red"
      />
    );
  }
  const size = `${count(view.characters)} characters`;
  if (view.mode === 'collapsed') {
    return <Framed title={title} label={`${size}, collapsed`} rows={view.rows} footer={hiddenText(view.hidden)} />;
  }
  const scrollable = view.scrollMax > 0;
  const position = scrollable
    ? ` · lines ${view.scroll + 1}–${view.scroll + view.rows.length} of ${count(view.totalRows)}`
    : '';
  const toggle = expanded ? ' · e collapses' : scrollable ? ' · e expands' : '';
  const live = props.live ? ' · live' : '';
  return <Framed title={title} label={`${size}${live}${position}${toggle}`} rows={view.rows} />;
}

function Label({ title, text }: { title: string; text: string }) {
  return (
    <Text wrap="truncate-end">
      <Text bold>{cell(title, LABEL_WIDTH)}</Text>
      <Text dimColor>{text}</Text>
    </Text>
  );
}

interface FramedProps {
  title: string;
  label: string;
  rows: string[];
  footer?: string;
  color?: string;
}

function Framed({ title, label, rows, footer, color }: FramedProps) {
  return (
    <Box flexDirection="column">
      <Label title={title} text={label} />
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
