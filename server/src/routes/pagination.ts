import Joi from 'joi';
import type { Boom } from '@hapi/boom';
import type { CursorKey } from '../db/cursor.js';
import { decodeCursor, encodeCursor } from '../db/cursor.js';
import { apiError } from '../errors.js';

export const pageQuery = {
  limit: Joi.number().integer().min(1).max(200).default(50).description('Items per page, 1 to 200; 50 unless given'),
  cursor: Joi.string().max(200).allow('').description("The previous page's nextCursor"),
};

/** The query of a list that only pages. */
export const pageOnly = Joi.object(pageQuery);

/** The position after which a page starts; a cursor this server did not give out is a 400. */
export function pageStart(cursor: string | undefined): CursorKey | undefined {
  if (cursor === undefined) return undefined;
  const after = decodeCursor(cursor);
  if (!after) throw invalidCursor();
  return after;
}

export function invalidCursor(): Boom {
  return apiError(
    400,
    'invalid_cursor',
    'cursor is not one this server gave out. Pass nextCursor from the previous page unchanged.',
  );
}

/** Lists fetch one item more than the page holds: its presence says another page exists. */
export function pageOf<T>(
  fetched: T[],
  limit: number,
  keyOf: (item: T) => CursorKey,
): { items: T[]; nextCursor: string | null } {
  const items = fetched.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: fetched.length > limit && last ? encodeCursor(keyOf(last)) : null };
}
