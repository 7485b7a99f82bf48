// A running run's live output (docs/api.md#live-output): the last characters its wrapper sent, placed by their
// offset in the job's output, so that a chunk sent twice or late changes nothing.

/** The characters kept per running run: the newest 64 KiB of its output. */
export const OUTPUT_WINDOW_CHARS = 65_536;

/** Characters [from, to) of a run's output. */
export interface OutputWindow {
  text: string;
  from: number;
  to: number;
}

export interface OutputChunk {
  /** Where `text` starts in the job's output, in characters (UTF-16 units). */
  offset: number;
  text: string;
}

/**
 * The window with `chunk` in it, or undefined when it adds nothing (it was had already). A chunk starting past the
 * window's end (the wrapper dropped output the server was too slow for) starts the window again.
 */
export function withChunk(
  window: OutputWindow | undefined,
  chunk: OutputChunk,
  max: number = OUTPUT_WINDOW_CHARS,
): OutputWindow | undefined {
  const to = chunk.offset + chunk.text.length;
  if (window !== undefined && to <= window.to) return undefined;
  const continues = window !== undefined && chunk.offset <= window.to;
  let text = continues ? window.text + chunk.text.slice(window.to - chunk.offset) : chunk.text;
  let from = continues ? window.from : chunk.offset;
  if (text.length > max) {
    from += text.length - max;
    text = text.slice(text.length - max);
  }
  return { text, from, to };
}

/** What a reader gets after offset `after`: the window's characters from there (or from its start, if later). */
export function outputAfter(window: OutputWindow | undefined, after: number): OutputWindow {
  if (window === undefined) return { text: '', from: after, to: after };
  const from = Math.min(Math.max(after, window.from), window.to);
  return { text: window.text.slice(from - window.from), from, to: window.to };
}
