// "Did you mean …": the nearest of the names a user could have meant, for a mistyped command or flag.

/** Edits from `a` to `b`: insertions, deletions, substitutions and swaps of two neighbours (`moniotrs`). */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidates nearest to `typed` (all of them when tied, at most three), or none when even the nearest is
 * too far to be a typo: one edit per four characters of its longest word (`monitors nosuch` is no typo of
 * `monitors resume`), at least one.
 */
export function nearest(typed: string, candidates: Iterable<string>): string[] {
  const longest = Math.max(...typed.split(' ').map((word) => word.length));
  const limit = Math.max(1, Math.floor(longest / 4));
  let best: string[] = [];
  let bestDistance = limit + 1;
  for (const candidate of new Set(candidates)) {
    const distance = editDistance(typed, candidate);
    if (distance > limit) continue;
    if (distance < bestDistance) [best, bestDistance] = [[candidate], distance];
    else if (distance === bestDistance) best.push(candidate);
  }
  return best.slice(0, 3);
}

/** "did you mean `a` or `b`?", each shown by `show`, or undefined when nothing is near. */
export function didYouMean(
  typed: string,
  candidates: Iterable<string>,
  show = (name: string) => name,
): string | undefined {
  const found = nearest(typed, candidates);
  if (found.length === 0) return undefined;
  return `did you mean ${found.map((name) => `\`${show(name)}\``).join(' or ')}?`;
}
