import type { RunPoint } from '@pingmon/sdk/wire';
import { duration } from '@pingmon/sdk/wire';
import { durationAxis, durationLabel } from './scale.js';
import '../styles/chart.css';

const WIDTH = 120;
const HEIGHT = 28;
const SLOTS = 20;
/** The least height of a bar: a run of a few milliseconds is still seen, as a stub. */
const STUB = 3;
export const TONES = ['success', 'failed', 'silent', 'running'] as const;
export type Tone = (typeof TONES)[number];

/** A run's colour: a silent failure is a warning whatever its status. */
export function toneOf(run: Pick<RunPoint, 'status' | 'silentFailure'>): Tone {
  return run.silentFailure ? 'silent' : run.status;
}

/**
 * The latest runs, oldest on the left: each a bar as tall as its duration and coloured by its outcome, so a slow or
 * flapping job shows without reading. The scale starts at zero and reaches a round duration of at least a second
 * (scale.ts says why): its top is a faint line, and the label says what it is. A run without a duration is a stub.
 * One path per colour, not an element per bar: a page of 200 monitors draws 1,000 shapes, not 4,000.
 */
export function RunChart({ history }: { history: RunPoint[] }) {
  const runs = history.slice(0, SLOTS).reverse();
  if (runs.length === 0) return <span className="muted">no runs</span>;
  const durations = runs.flatMap((r) => (r.durationMs === null ? [] : [r.durationMs]));
  const longest = Math.max(0, ...durations);
  const { top } = durationAxis(longest);
  const slot = WIDTH / SLOTS;
  const paths: Record<Tone, string> = { success: '', failed: '', silent: '', running: '' };
  runs.forEach((run, i) => {
    const height = run.durationMs === null ? STUB : Math.max(STUB, (run.durationMs / top) * (HEIGHT - 1));
    paths[toneOf(run)] +=
      `M${(i * slot + 1).toFixed(1)} ${HEIGHT}v${-height.toFixed(1)}h${slot - 2}v${height.toFixed(1)}z`;
  });
  const failed = runs.filter((r) => r.status === 'failed').length;
  const range =
    durations.length === 0
      ? 'no durations yet'
      : `durations ${duration(Math.min(...durations))} to ${duration(longest)}`;
  const label = `Last ${runs.length} runs: ${failed} failed; ${range}, bars scaled from 0 to ${durationLabel(top)}`;
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
      <path className="chart-top" d={`M0 0.5H${WIDTH}`} />
      {TONES.map((tone) => paths[tone] && <path key={tone} className={`bar-${tone}`} d={paths[tone]} />)}
    </svg>
  );
}
