import { META_KEY_MAX_CHARS, META_MAX_KEYS } from '@pingmon/sdk/wire';

export type MetaParse = { ok: true; meta: Record<string, number> } | { ok: false; error: string };

/** `key=number` pairs, from --meta flags or the lines of the meta file; blank lines and # comments are skipped. */
export function parseMetaLines(lines: readonly string[], source: string): MetaParse {
  const meta: Record<string, number> = {};
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    const key = eq > 0 ? line.slice(0, eq).trim() : '';
    const value = eq > 0 ? Number(line.slice(eq + 1).trim()) : NaN;
    if (!key || key.length > META_KEY_MAX_CHARS || line.slice(eq + 1).trim() === '' || !Number.isFinite(value)) {
      return { ok: false, error: `${source}: "${line.slice(0, 80)}" is not key=number (e.g. rowsProcessed=120)` };
    }
    meta[key] = value;
  }
  return { ok: true, meta };
}

/** At most as many keys as the server takes, leaving room for exitCode. */
export function boundedMeta(meta: Record<string, number>, warn: (message: string) => void): Record<string, number> {
  const entries = Object.entries(meta).filter(([key]) => key !== 'exitCode');
  if (entries.length < META_MAX_KEYS) return Object.fromEntries(entries);
  warn(`meta has ${entries.length} keys besides exitCode; only the first ${META_MAX_KEYS - 1} were sent`);
  return Object.fromEntries(entries.slice(0, META_MAX_KEYS - 1));
}
