import { SAMPLE_ALERTS } from './samples.js';
import type { AlertContent } from '../payloads.js';
import type { SendContext } from './kind.js';
import { PLACEHOLDER_NAMES, renderTemplate, type TemplateOptions } from './template-fields.js';
import { fill, jsonError, lineColumn, placeholdersOf } from './template-render.js';

// A template is checked when the channel is made or changed, so that every alert it is sent can render.

export interface TemplatePreview {
  /** Which sample alert: its event, or "missed_group" for a missed alert of several monitors. */
  sample: string;
  event: AlertContent['event'];
  method: 'POST' | 'PUT';
  headers: Record<string, string>;
  body: string;
}

const sampleContext = (sample: string, content: AlertContent): SendContext => ({
  nowSeconds: Math.floor(content.createdAt / 1000),
  messageKey: `sample-${sample}`,
});

/** The template rendered for a sample alert of every event, or why it cannot be. */
export function previewTemplate(options: TemplateOptions): { problem: string | null; previews: TemplatePreview[] } {
  const problem = templateProblem(options);
  if (problem !== null) return { problem, previews: [] };
  const previews = Object.entries(SAMPLE_ALERTS).map(([sample, content]) => ({
    sample,
    event: content.event,
    method: options.method ?? 'POST',
    ...renderTemplate(options, content, sampleContext(sample, content)),
  }));
  return { problem: null, previews };
}

/** Why a template cannot render, or null: a name that is not a field, a body that is not of its type. */
export function templateProblem(options: TemplateOptions): string | null {
  if (typeof options.body !== 'string') return "body: the request's body, with {{placeholders}} for the alert's fields";
  const type = options.contentType ?? 'json';
  for (const p of placeholdersOf(options.body, type)) {
    const problem = nameProblem(p.name, lineColumn(options.body, p.start));
    if (problem !== null) return `body: ${problem}`;
  }
  for (const [name, text] of Object.entries(options.headers ?? {})) {
    for (const p of placeholdersOf(text, 'text')) {
      const problem = nameProblem(p.name, `column ${p.start + 1}`);
      if (problem !== null) return `headers.${name}: ${problem}`;
    }
  }
  const structure = type === 'json' ? jsonProblem(options.body) : type === 'form' ? formProblem(options.body) : null;
  if (structure !== null) return `body: ${structure}`;
  for (const [sample, content] of Object.entries(SAMPLE_ALERTS)) {
    const { body } = renderTemplate(options, content, sampleContext(sample, content));
    const error = type === 'json' ? jsonError(body) : null;
    if (error !== null) return `body: rendered for a sample "${sample}" alert, it is not JSON: ${error.message}`;
  }
  return null;
}

function nameProblem(name: string, at: string): string | null {
  if ((PLACEHOLDER_NAMES as readonly string[]).includes(name) || /^meta\../.test(name)) return null;
  const near = closest(name);
  return (
    `unknown placeholder {{${name}}} at ${at}${near === null ? '' : ` (did you mean {{${near}}}?)`}; ` +
    `the names are ${PLACEHOLDER_NAMES.join(', ')}, and meta.<key> for any key of the run's meta`
  );
}

/** The known name nearest a mistyped one, if any is near (case aside, a third of its letters). */
function closest(name: string): string | null {
  const typed = name.toLowerCase();
  let best: string | null = null;
  let bestDistance = Math.max(2, Math.floor(typed.length / 3)) + 1;
  for (const known of PLACEHOLDER_NAMES) {
    const d = distance(typed, known.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [known, d];
  }
  return best;
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * A JSON body must parse whatever the values: each placeholder is tried as a value of its own length (null outside
 * quotes, text inside), so the parser's positions are the template's.
 */
function jsonProblem(text: string): string | null {
  const placeholders = placeholdersOf(text, 'json');
  const probe = fill(text, placeholders, (p) => (p.inString ? 'x' : 'null').padEnd(p.end - p.start));
  const error = jsonError(probe);
  if (error === null) return null;
  const { index } = error;
  const at = placeholders.find((p) => !p.inString && index !== null && index >= p.start && index < p.end);
  if (at !== undefined)
    return (
      `{{${at.name}}} at ${lineColumn(text, at.start)} is outside quotes, so it stands for a whole JSON value ` +
      `("text", 2, null, {…}), and no value may stand there: a key, or part of a text, goes inside quotes ` +
      `("{{${at.name}}}")`
    );
  return `not JSON: ${error.message}${index === null ? '' : ` (${lineColumn(text, index)})`}`;
}

/** A form body's own text (around its placeholders) must be encoded already: strict receivers refuse it raw. */
function formProblem(text: string): string | null {
  const literal = fill(text, placeholdersOf(text, 'form'), (p) => 'x'.repeat(p.end - p.start));
  const bad = /[^\x21-\x7e]|%(?![0-9A-Fa-f]{2})/u.exec(literal);
  if (bad === null) return null;
  return (
    `a form body's own text must be form-encoded ("+" for a space, %XX for other characters, ` +
    `%25 for "%"): ${JSON.stringify(bad[0])} at ${lineColumn(text, bad.index)} is not`
  );
}
