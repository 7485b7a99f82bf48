import type { Key } from 'ink';

// A terminal sends keys as bytes, and keys pressed (or sent by tmux, or repeated) faster than the program reads
// arrive in one chunk: "\x1b[B\x1b[B\r" is Down, Down, Enter. ink's useInput reads one key per chunk and drops the
// rest, so the dashboard reads the chunks itself: every key in it, in order, in ink's Key shape.

/** ink's Key, with the keys it does not name: Home, End, and text pasted in (bracketed paste). */
export type KeyFlags = Partial<Key> & { home?: boolean; end?: boolean; paste?: boolean };

export interface KeyPress {
  /** The character typed (or the text pasted); '' for keys that are not text (arrows, Enter, Esc). */
  input: string;
  key: KeyFlags;
}

/** The terminal's markers around pasted text, once the program asked for them (ESC [ ? 2004 h). */
export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';

/** CSI: ESC [, parameter bytes, intermediate bytes, one final byte (ECMA-48 5.4). */
const CSI = /^\x1b\[([0-?]*)[ -/]*([@-~])/;
/** SS3: ESC O and one final byte, which some terminals send for arrows, Home and End. */
const SS3 = /^\x1bO[0-9;]*([@-~])/;

const ARROWS: Record<string, KeyFlags> = {
  A: { upArrow: true },
  B: { downArrow: true },
  C: { rightArrow: true },
  D: { leftArrow: true },
  H: { home: true },
  F: { end: true },
};
const CSI_KEYS: Record<string, KeyFlags> = { ...ARROWS, Z: { tab: true, shift: true } };
/** ESC O M is the keypad's Enter; ESC [ … M is a mouse report, not a key. */
const SS3_KEYS: Record<string, KeyFlags> = { ...ARROWS, M: { return: true } };

/** ESC [ n ~ */
const TILDE_KEYS: Record<string, KeyFlags> = {
  '1': { home: true },
  '7': { home: true },
  '4': { end: true },
  '8': { end: true },
  '3': { delete: true },
  '5': { pageUp: true },
  '6': { pageDown: true },
};

/**
 * The keys of one chunk. `pasting` says the chunk goes on with text pasted in an earlier one (a long paste arrives
 * in several chunks); the answer says whether the next chunk does.
 */
export function readKeys(chunk: string, pasting = false): { keys: KeyPress[]; pasting: boolean } {
  const keys: KeyPress[] = [];
  let rest = chunk;
  while (rest !== '') {
    if (pasting || rest.startsWith(PASTE_START)) {
      const from = pasting ? 0 : PASTE_START.length;
      const end = rest.indexOf(PASTE_END, from);
      const text = rest.slice(from, end < 0 ? undefined : end);
      if (text) keys.push({ input: text, key: { paste: true } });
      pasting = end < 0;
      rest = end < 0 ? '' : rest.slice(end + PASTE_END.length);
      continue;
    }
    const [press, length] = readKey(rest);
    if (press) keys.push(press);
    rest = rest.slice(length);
  }
  return { keys, pasting };
}

/** The first key of `text` (undefined for a sequence of a key the dashboard does not know) and its length. */
function readKey(text: string): [KeyPress | undefined, number] {
  const csi = CSI.exec(text);
  if (csi) {
    const [params, final] = [csi[1]!.split(';'), csi[2]!];
    // A leading < = > ? marks a private sequence (mouse, replies to queries): not a key.
    const key = /^[<-?]/.test(csi[1]!) ? undefined : final === '~' ? TILDE_KEYS[params[0]!] : CSI_KEYS[final];
    return [key && { input: '', key: { ...key, ...modifiers(params[1]) } }, csi[0].length];
  }
  const ss3 = SS3.exec(text);
  if (ss3) {
    const key = SS3_KEYS[ss3[1]!];
    return [key && { input: '', key }, ss3[0].length];
  }
  // Any other ESC is the Esc key: Esc then j sent together are two keys, not Alt-j.
  if (text[0] === '\x1b') return [{ input: '', key: { escape: true } }, 1];
  const char = String.fromCodePoint(text.codePointAt(0)!);
  return [charKey(char), char.length];
}

function charKey(char: string): KeyPress | undefined {
  if (char === '\r' || char === '\n') return { input: '', key: { return: true } };
  if (char === '\t') return { input: '', key: { tab: true } };
  if (char === '\x7f' || char === '\b') return { input: '', key: { backspace: true } };
  const code = char.codePointAt(0)!;
  // Ctrl-A … Ctrl-Z, as ink reports them: the letter, with ctrl.
  if (code >= 1 && code <= 26) return { input: String.fromCharCode(code + 96), key: { ctrl: true } };
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return undefined;
  return { input: char, key: /^[A-Z]$/.test(char) ? { shift: true } : {} };
}

/** xterm's modifier parameter ("5" in ESC [ 1 ; 5 A): 1 + shift (1) + alt (2) + ctrl (4) + meta (8). */
function modifiers(param: string | undefined): KeyFlags {
  const bits = Number(param ?? 1) - 1;
  if (!(bits > 0)) return {};
  return {
    ...(bits & 1 ? { shift: true } : {}),
    ...(bits & 10 ? { meta: true } : {}),
    ...(bits & 4 ? { ctrl: true } : {}),
  };
}
