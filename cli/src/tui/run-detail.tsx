import { Box, Text } from './ink.js';
import { statusColor } from './format.js';
import type { Size } from './layout.js';
import { LABEL_WIDTH, runDetailView, shownLog } from './layout.js';
import { LogBlock } from './log-block.js';
import type { DetailState } from './state.js';
import { cell } from '../width.js';

export function RunDetail({ detail, size }: { detail: DetailState; size: Size }) {
  const { run } = detail;
  const { fields, log: view } = runDetailView(detail, size);
  const colorOf = (label: string) => {
    if (label === 'Status') return statusColor(run.status, run.silentFailure);
    return label === 'Error' && run.errorMessage ? 'red' : undefined;
  };
  return (
    <Box flexDirection="column">
      {fields.flatMap((field) =>
        field.rows.map((row, i) => (
          <Text key={`${field.label}${i}`} wrap="truncate-end">
            <Text bold>{cell(i === 0 ? field.label : '', LABEL_WIDTH)}</Text>
            <Text color={colorOf(field.label)}>{row || ' '}</Text>
          </Text>
        )),
      )}
      <LogBlock view={view} log={detail.log} expanded={detail.expanded} live={shownLog(detail) !== detail.log} />
    </Box>
  );
}
