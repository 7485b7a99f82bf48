import { touchSession } from './db/sessions.js';
import type { Sql } from './db/sql.js';

/** How often a session's last use is written: every request would make each read a write. */
const EVERY_MS = 60_000;

/**
 * Records a session's last use at most once a minute per process (remembered here), and the conditional update
 * keeps several processes to about one write a minute between them.
 */
export function sessionUse(sql: Sql): (sessionId: string, now: number) => Promise<void> {
  const written = new Map<string, number>();
  return async (sessionId, now) => {
    const last = written.get(sessionId);
    if (last !== undefined && now - last < EVERY_MS) return;
    if (written.size >= 10_000) written.clear();
    written.set(sessionId, now);
    try {
      await touchSession(sql, sessionId, now, now - EVERY_MS);
    } catch {
      // Only a hint for the sessions list: a request never fails for it (SQLite's writer busy, say).
    }
  };
}
