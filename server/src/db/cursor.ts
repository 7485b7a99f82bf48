import type { SqlParam } from './sql.js';

/** Opaque list cursors: the sort key (time, id) of the last item of a page. */
export interface CursorKey {
  at: number;
  id: string;
}

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(`${key.at}:${key.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): CursorKey | undefined {
  const match = /^(\d{1,16}):([A-Za-z0-9_-]{1,64})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? { at: Number(match[1]), id: match[2]! } : undefined;
}

/**
 * The keyset condition of a page that starts after `key`, for lists ordered by `atColumn desc, idColumn desc`.
 * Column names come from the code, never from a request.
 */
export function startAfter(key: CursorKey, atColumn: string, idColumn: string): { sql: string; params: SqlParam[] } {
  return { sql: `(${atColumn} < ? or (${atColumn} = ? and ${idColumn} < ?))`, params: [key.at, key.at, key.id] };
}

/** A timeline's cursor (use-cases/timeline.ts): its last event's time, source (`rank`, which orders ties) and id. */
export interface EventCursorKey extends CursorKey {
  rank: number;
}

export function encodeEventCursor(key: EventCursorKey): string {
  return Buffer.from(`${key.at}:${key.rank}:${key.id}`).toString('base64url');
}

export function decodeEventCursor(cursor: string): EventCursorKey | undefined {
  const match = /^(\d{1,16}):([0-3]):([A-Za-z0-9_-]{1,64})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? { at: Number(match[1]), rank: Number(match[2]), id: match[3]! } : undefined;
}
