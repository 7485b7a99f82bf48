import stringWidth from 'string-width';

// Text measured in terminal columns, as ink measures it (string-width): the commands' tables and the dashboard's
// rows cut and pad alike, and a wide character (界, 😀) counts as the two columns it takes.

const segmenter = new Intl.Segmenter();

/** The characters of `text` as the terminal draws them (a flag or an accented letter is one). */
export function graphemes(text: string): string[] {
  return /^[\x20-\x7e]*$/.test(text) ? text.split('') : Array.from(segmenter.segment(text), (part) => part.segment);
}

/** Columns one character takes, measured as ink measures it: rows never disagree with its layout. */
export function charWidth(char: string): number {
  return char.length === 1 && char >= ' ' && char <= '~' ? 1 : stringWidth(char);
}

export function textWidth(text: string): number {
  return stringWidth(text);
}

/** `text` cut to `width` columns, ending in "…" when something was cut. */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  if (textWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of graphemes(text)) {
    const w = charWidth(char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/** `text` cut or padded with spaces to exactly `width` columns. */
export function cell(text: string, width: number): string {
  const cut = fit(text, width);
  return cut + ' '.repeat(Math.max(0, width - textWidth(cut)));
}
