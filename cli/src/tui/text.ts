import { clean } from '@pingmon/sdk/wire';
import { charWidth, fit, graphemes } from '../width.js';

// Everything the server hands us is untrusted text: a job's log can hold colour codes, cursor moves,
// carriage-return progress bars, tabs and 10,000-character lines. It is made inert (clean, shared with the
// dashboard) and cut to the columns ../width.ts measures, so that no string can move the cursor or push the
// layout past the terminal's edge.
export { clean };

/** One line of `text`, for a table cell: the first line, cleaned. */
export function firstLine(text: string | null | undefined): string {
  return (
    clean(text ?? '')
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  );
}

/** Hard-wraps one line (no newlines in it) into rows of at most `width` columns. */
export function wrapLine(line: string, width: number): string[] {
  if (line === '') return [''];
  const rows: string[] = [];
  let row = '';
  let used = 0;
  for (const char of graphemes(line)) {
    const w = charWidth(char);
    if (used + w > width && row !== '') {
      rows.push(row);
      row = '';
      used = 0;
    }
    row += char;
    used += w;
  }
  rows.push(row);
  return rows;
}

/** Cleaned `text` as rows of at most `width` columns; a trailing newline adds no empty row. */
export function wrap(text: string, width: number): string[] {
  const lines = clean(text).replace(/\n$/, '').split('\n');
  return lines.flatMap((line) => wrapLine(line, Math.max(1, width)));
}

/** At most `max` rows of `rows`; the last one shown ends in "…" when some were left out. */
export function capRows(rows: string[], max: number, width: number): string[] {
  if (rows.length <= max) return rows;
  const kept = rows.slice(0, max);
  kept[max - 1] = fit(`${kept[max - 1]!} …`, width).replace(/…?$/, '…');
  return kept;
}
