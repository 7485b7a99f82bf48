import { SLUG_RULE, isSlug } from '@pingmon/sdk';
import type { Candidate } from './plan.js';

// The review of `pingmon discover` as one value and one pure function of a key: move, leave a job out, edit its
// slug or name, accept or cancel.

export interface ReviewState {
  rows: Candidate[];
  cursor: number;
  editing?: { field: 'slug' | 'name'; text: string };
  error?: string;
  outcome?: 'accepted' | 'cancelled';
}

/** A key as typed: what it does depends on the state it meets (a letter is text while a field is edited). */
export type ReviewKey = { kind: 'up' | 'down' | 'accept' | 'cancel' | 'backspace' } | { kind: 'text'; text: string };

/** Outside an edit, letters are commands. */
const COMMANDS: Record<string, 'toggle' | 'slug' | 'name' | 'cancel'> = {
  ' ': 'toggle',
  s: 'slug',
  n: 'name',
  q: 'cancel',
};

export function initialReview(rows: Candidate[]): ReviewState {
  return { rows, cursor: 0 };
}

export function reduceReview(state: ReviewState, key: ReviewKey): ReviewState {
  if (state.editing) return editing(state, state.editing, key);
  const row = state.rows[state.cursor];
  const command = key.kind === 'text' ? COMMANDS[key.text] : key.kind;
  switch (command) {
    case 'up':
      return { ...state, cursor: Math.max(0, state.cursor - 1), error: undefined };
    case 'down':
      return { ...state, cursor: Math.min(state.rows.length - 1, state.cursor + 1), error: undefined };
    case 'toggle':
      if (!row || (row.wrapped && !row.wrapped.monitor)) return state;
      return { ...state, rows: replace(state.rows, state.cursor, { ...row, include: !row.include }) };
    case 'slug':
    case 'name':
      if (!row || row.wrapped) return { ...state, error: row ? 'a line already wrapped keeps its monitor' : undefined };
      return { ...state, editing: { field: command, text: row[command] }, error: undefined };
    case 'accept':
      return { ...state, outcome: 'accepted' };
    case 'cancel':
      return { ...state, outcome: 'cancelled' };
    default:
      return state;
  }
}

function editing(state: ReviewState, edit: NonNullable<ReviewState['editing']>, key: ReviewKey): ReviewState {
  switch (key.kind) {
    case 'text':
      return { ...state, editing: { ...edit, text: edit.text + key.text } };
    case 'backspace':
      return { ...state, editing: { ...edit, text: edit.text.slice(0, -1) } };
    case 'cancel':
      return { ...state, editing: undefined, error: undefined };
    case 'accept': {
      const text = edit.text.trim();
      const error = problem(state, edit.field, text);
      if (error) return { ...state, error };
      const row = { ...state.rows[state.cursor]!, [edit.field]: text };
      return { ...state, rows: replace(state.rows, state.cursor, row), editing: undefined, error: undefined };
    }
    default:
      return state;
  }
}

function problem(state: ReviewState, field: 'slug' | 'name', text: string): string | undefined {
  if (field === 'name') return text === '' ? 'a name cannot be empty' : undefined;
  if (!isSlug(text)) return `a slug is ${SLUG_RULE}`;
  if (state.rows.some((row, i) => i !== state.cursor && row.include && row.slug === text))
    return `another job has the slug ${text}`;
  return undefined;
}

function replace<T>(items: T[], at: number, item: T): T[] {
  return items.map((old, i) => (i === at ? item : old));
}
