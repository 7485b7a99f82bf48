// A job's output and error messages are untrusted text: colour codes, cursor moves, carriage-return progress bars,
// tabs. `clean` makes them inert, for a terminal (the commands, the TUI) and a web page (the dashboard) alike.

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

/**
 * JSON text with the controls JSON.stringify leaves raw (DEL, C1, bidi overrides) written as \uXXXX escapes: it
 * parses to the same value, and a terminal shown it acts on none of them.
 */
export function inertJson(json: string): string {
  return json.replace(CONTROLS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function expandTabs(line: string): string {
  let out = '';
  for (const char of line) out += char === '\t' ? ' '.repeat(TAB_STOP - (out.length % TAB_STOP)) : char;
  return out;
}
