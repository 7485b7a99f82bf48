import { randomBytes } from 'node:crypto';

export type IdPrefix = 'acc' | 'usr' | 'mon' | 'run' | 'rule' | 'ch' | 'key' | 'alert';

/** A server-generated identifier: prefix, underscore, 16 random base62-ish characters. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}
