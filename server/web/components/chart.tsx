import type { RunPoint } from '@pingmon/sdk/wire';
import { duration, statusText } from '@pingmon/sdk/wire';
import { when } from '../format.js';

const WIDTH = 120;
const HEIGHT = 28;
const SLOTS = 20;

/**
 * The latest runs, oldest on the left: each a bar as tall as its duration (relative to the longest shown) and coloured
 * by its outcome, so a slow or flapping job shows without reading. A run without a duration (still running) is a stub.
 */
export function RunChart({ history }: { history: RunPoint[] }) {
  const runs = history.slice(0, SLOTS).reverse();
  if (runs.length === 0) return <span className="muted">no runs</span>;
  const longest = Math.max(1, ...runs.map((r) => r.durationMs ?? 0));
  const slot = WIDTH / SLOTS;
  const failed = runs.filter((r) => r.status === 'failed').length;
  const label =
    `Last ${runs.length} runs: ${failed} failed, ${runs.length - failed} not failed; ` + `longest ${duration(longest)}`;
  return (
    <svg
      className="chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      role="img"
      aria-label={label}
    >
      {runs.map((run, i) => {
        const height = run.durationMs === null ? 3 : Math.max(3, (run.durationMs / longest) * (HEIGHT - 2));
        const tone = run.silentFailure ? 'silent' : run.status;
        return (
          <rect
            key={run.runId}
            className={`bar bar-${tone}`}
            x={i * slot + 1}
            y={HEIGHT - height}
            width={slot - 2}
            height={height}
          >
            <title>
              {[statusText(run.status, run.silentFailure), duration(run.durationMs), when(run.startedAt)].join(' · ')}
            </title>
          </rect>
        );
      })}
    </svg>
  );
}
