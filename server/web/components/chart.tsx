import type { RunPoint } from '@pingmon/sdk/wire';
import { duration } from '@pingmon/sdk/wire';

const WIDTH = 120;
const HEIGHT = 28;
const SLOTS = 20;
const TONES = ['success', 'failed', 'silent', 'running'] as const;

/**
 * The latest runs, oldest on the left: each a bar as tall as its duration (relative to the longest shown) and coloured
 * by its outcome, so a slow or flapping job shows without reading. A run without a duration (still running) is a stub.
 * One path per colour, not an element per bar: a page of 200 monitors draws 800 shapes, not 4,000.
 */
export function RunChart({ history }: { history: RunPoint[] }) {
  const runs = history.slice(0, SLOTS).reverse();
  if (runs.length === 0) return <span className="muted">no runs</span>;
  const longest = Math.max(1, ...runs.map((r) => r.durationMs ?? 0));
  const slot = WIDTH / SLOTS;
  const paths: Record<(typeof TONES)[number], string> = { success: '', failed: '', silent: '', running: '' };
  runs.forEach((run, i) => {
    const height = run.durationMs === null ? 3 : Math.max(3, (run.durationMs / longest) * (HEIGHT - 2));
    const tone = run.silentFailure ? 'silent' : run.status;
    paths[tone] += `M${(i * slot + 1).toFixed(1)} ${HEIGHT}v${-height.toFixed(1)}h${slot - 2}v${height.toFixed(1)}z`;
  });
  const failed = runs.filter((r) => r.status === 'failed').length;
  const label = `Last ${runs.length} runs: ${failed} failed; the longest took ${duration(longest)}`;
  return (
    <svg
      className="chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      role="img"
      aria-label={label}
    >
      <title>{label}</title>
      {TONES.map((tone) => paths[tone] && <path key={tone} className={`bar-${tone}`} d={paths[tone]} />)}
    </svg>
  );
}
