import { charWidth, fit, graphemes } from '../width.js';

// Everything the server hands us is untrusted text: a job's log can hold colour codes, cursor moves,
// carriage-return progress bars, tabs and 10,000-character lines. It is made inert here and cut to the
// columns ../width.ts measures, so that no string can move the cursor or push the layout past the terminal's edge.

// CSI (ESC [ … final), OSC (ESC ] … BEL or ST), DCS/SOS/PM/APC (ESC P|X|^|_ … ST), and two-byte ESC sequences.
const ESCAPES = new RegExp(
  [
    String.raw`\x1b\[[0-?]*[ -/]*[@-~]`,
    String.raw`\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?`,
    String.raw`\x1b[PX^_][^\x1b]*(?:\x1b\\)?`,
    String.raw`\x1b[ -/]*[0-~]?`,
    String.raw`\x9b[0-?]*[ -/]*[@-~]`,
  ].join('|'),
  'g',
);
// C0 and C1 controls except tab and newline, and the bidi overrides that reorder what follows them.
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
const TAB_STOP = 8;

/** `text` without escape sequences or control characters; tabs expanded, CR LF and lone CR turned into newlines. */
export function clean(text: string): string {
  const plain = text.replace(ESCAPES, '').replace(/\r\n?/g, '\n').replace(CONTROLS, '');
  return plain.includes('\t') ? plain.split('\n').map(expandTabs).join('\n') : plain;
}

/** One line of `text`, for a table cell: the first line, cleaned. */
export function firstLine(text: string | null | undefined): string {
  return (
    clean(text ?? '')
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  );
}

function expandTabs(line: string): string {
  let out = '';
  for (const char of line) out += char === '\t' ? ' '.repeat(TAB_STOP - (out.length % TAB_STOP)) : char;
  return out;
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
