const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** "90" (seconds), "500ms", "30s", "15m", "2h" → milliseconds; undefined when it is none of those. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) return undefined;
  return Math.round(Number(match[1]) * UNITS[match[2] ?? 's']!);
}
