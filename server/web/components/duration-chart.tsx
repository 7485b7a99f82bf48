import type { KeyboardEvent, MouseEvent } from 'react';
import { useId, useState } from 'react';
import type { Run } from '@pingmon/sdk/wire';
import { clean, exactDuration } from '@pingmon/sdk/wire';
import { when } from '../format.js';
import { navigate, runPath } from '../router.js';
import { toneOf } from './chart.js';
import { ChartSummary, ChartTable, Legend } from './duration-text.js';
import type { Point } from './duration-plot.js';
import { geometryOf, Plot } from './duration-plot.js';
import { median } from './scale.js';
import { RunStatusText } from './status.js';
import { useWidth } from './use-width.js';
import '../styles/chart.css';

const KEYS_HELP = 'The left and right arrow keys move between runs; Enter opens one.';
/** How close (px) the pointer must come to a run to show it. */
const NEAR = 16;

export function pointOf(run: Run): Point {
  return {
    runId: run.runId,
    at: Date.parse(run.startedAt),
    durationMs: run.durationMs,
    status: run.status,
    silent: run.silentFailure,
    tone: toneOf(run),
    error: clean(run.errorMessage ?? '').split('\n')[0] ?? '',
  };
}

/**
 * Runs (oldest on the left, each at its real start time) as bars as tall as their durations on a scale from zero,
 * missed slots marked, the median drawn. Pointing at a run, or tabbing into the chart and moving with the arrow
 * keys, shows it below; Enter or a click opens it. `runs` newest first, `missed` the expected times (epoch ms).
 */
export function DurationChart({ monitorId, runs, missed }: { monitorId: string; runs: Run[]; missed: number[] }) {
  const points = runs.map(pointOf).reverse();
  const [ref, width] = useWidth(700);
  const [selectedId, setSelectedId] = useState<string>();
  const detailId = useId();
  const index = points.findIndex((p) => p.runId === selectedId);
  const selected = points[index];
  const finished = points.flatMap((p) => (p.durationMs === null ? [] : [p.durationMs]));
  const medianMs = median(finished);
  if (points.length === 0 && missed.length === 0) return <p className="empty">No runs yet.</p>;
  const g = geometryOf(points, missed, width);

  const open = (point: Point | undefined) => point && navigate(runPath(monitorId, point.runId));
  const move = (to: number) => setSelectedId(points[Math.max(0, Math.min(points.length - 1, to))]?.runId);
  const keys: Record<string, () => void> = {
    ArrowLeft: () => move(index < 0 ? points.length - 1 : index - 1),
    ArrowRight: () => move(index < 0 ? points.length - 1 : index + 1),
    Home: () => move(0),
    End: () => move(points.length - 1),
    Enter: () => open(selected),
    Escape: () => setSelectedId(undefined),
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const act = keys[event.key];
    if (!act || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    act();
  };
  const nearest = (event: MouseEvent<SVGSVGElement>) => {
    const x = event.clientX - event.currentTarget.getBoundingClientRect().left;
    const best = points.reduce<Point | undefined>(
      (a, p) => (a === undefined || Math.abs(g.x(p.at) - x) < Math.abs(g.x(a.at) - x) ? p : a),
      undefined,
    );
    return best && Math.abs(g.x(best.at) - x) <= Math.max(NEAR, g.bar) ? best : undefined;
  };
  return (
    <figure className="duration-chart">
      <ChartSummary points={points} missed={missed} medianMs={medianMs} />
      <div
        ref={ref}
        className="duration-frame"
        tabIndex={0}
        role="group"
        aria-roledescription="chart"
        aria-label={`Durations of the last ${points.length} runs. ${KEYS_HELP}`}
        aria-describedby={detailId}
        onKeyDown={onKeyDown}
        onFocus={() => selectedId === undefined && move(points.length - 1)}
      >
        <Plot
          g={g}
          points={points}
          missed={missed}
          medianMs={medianMs}
          selected={selected}
          onPointerMove={(e) => {
            const p = nearest(e);
            if (p) setSelectedId(p.runId);
          }}
          onClick={(e) => {
            // A tap shows a run first (a touch screen has no pointing); the next tap, or a mouse's click, opens it.
            const p = nearest(e);
            if (p && p.runId === selectedId) open(p);
            else if (p) setSelectedId(p.runId);
          }}
        />
      </div>
      <p className="chart-detail" id={detailId} aria-live="polite">
        {selected ? <RunLine point={selected} /> : 'Point at a run, or tab to the chart and use ← →, to see it here.'}
      </p>
      <Legend />
      <ChartTable points={points} missed={missed} />
    </figure>
  );
}

function RunLine({ point: p }: { point: Point }) {
  return (
    <>
      <span className="chart-detail-when">{when(new Date(p.at).toISOString())}</span> ·{' '}
      {p.durationMs === null ? 'no duration' : exactDuration(p.durationMs)} ·{' '}
      <RunStatusText status={p.status} silent={p.silent} />
      {p.error && (
        <>
          {' · '}
          <span className="error">{p.error}</span>
        </>
      )}
      <span className="muted"> — Enter or a click opens run {p.runId}</span>
    </>
  );
}
