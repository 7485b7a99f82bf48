import { clean } from '@pingmon/sdk/wire';

// Text written into the status page's HTML and the badges' SVG: cleaned and escaped here, once, for element text
// and quoted attributes alike.

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `text` safe inside an element or a quoted attribute: no control characters (XML refuses them), markup escaped. */
export function escapeMarkup(text: string): string {
  return clean(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}
