import type { MouseEvent } from 'react';
import type { RunStatus } from '@pingmon/sdk/wire';
import type { Tone } from './chart.js';
import { TONES } from './chart.js';
import { when } from '../format.js';
import type { DurationAxis } from './scale.js';
import { dayLabel, durationAxis, durationLabel, readable, timeLabel, timeTicks } from './scale.js';

/** One run as the chart draws it. */
export interface Point {
  runId: string;
  at: number;
  durationMs: number | null;
  status: RunStatus;
  silent: boolean;
  tone: Tone;
  /** The first line of its error message, cleaned; '' without one. */
  error: string;
}

export const HEIGHT = 230;
export const M = { top: 22, right: 14, bottom: 44, left: 58 };
const DAY = 86_400_000;

export interface Geometry {
  width: number;
  from: number;
  to: number;
  axis: DurationAxis;
  bar: number;
  x: (at: number) => number;
  y: (ms: number) => number;
}

/** Where things go: time left to right (a margin either side, so a lone run sits in the middle), duration up. */
export function geometryOf(points: Point[], missed: number[], width: number): Geometry {
  const times = [...points.map((p) => p.at), ...missed];
  const first = Math.min(...times);
  const last = Math.max(...times);
  const pad = Math.max((last - first) * 0.03, 30_000);
  const [from, to] = [first - pad, last + pad];
  const inner = Math.max(width - M.left - M.right, 10);
  const axis = durationAxis(Math.max(0, ...points.map((p) => p.durationMs ?? 0)));
  const bottom = HEIGHT - M.bottom;
  return {
    width,
    from,
    to,
    axis,
    bar: Math.min(12, Math.max(2, (inner / Math.max(points.length, 1)) * 0.6)),
    x: (at) => M.left + ((at - from) / (to - from)) * inner,
    y: (ms) => bottom - (ms / axis.top) * (bottom - M.top),
  };
}

interface PlotProps {
  g: Geometry;
  points: Point[];
  missed: number[];
  medianMs: number | undefined;
  selected: Point | undefined;
  onPointerMove: (event: MouseEvent<SVGSVGElement>) => void;
  onClick: (event: MouseEvent<SVGSVGElement>) => void;
}

/** The picture alone; the figure around it gives the same in words (it is hidden from screen readers). */
export function Plot({ g, points, missed, medianMs, selected, ...handlers }: PlotProps) {
  const bottom = HEIGHT - M.bottom;
  const paths: Record<Tone, string> = { success: '', failed: '', silent: '', running: '' };
  for (const p of points) {
    const x = g.x(p.at);
    if (p.durationMs === null) paths[p.tone] += `M${x} ${bottom - 9}l4 4.5l-4 4.5l-4 -4.5z`;
    else paths[p.tone] += `M${x - g.bar / 2} ${bottom}V${Math.min(g.y(p.durationMs), bottom - 1)}h${g.bar}V${bottom}z`;
  }
  return (
    <svg className="duration-plot" width={g.width} height={HEIGHT} aria-hidden="true" {...handlers}>
      <DurationTicks g={g} />
      <TimeTicks g={g} />
      {missed.map((at) => (
        <g key={at} className="chart-missed">
          <title>Missed: a run was expected at {when(new Date(at).toISOString())}</title>
          <path d={`M${g.x(at)} ${M.top}V${bottom}m-5 -10l10 10m0 -10l-10 10`} />
        </g>
      ))}
      {TONES.map((tone) => paths[tone] && <path key={tone} className={`bar-${tone}`} d={paths[tone]} />)}
      {medianMs !== undefined && (
        <g className="chart-median">
          <path d={`M${M.left} ${g.y(medianMs)}H${g.width - M.right}`} />
          <text x={g.width - M.right} y={g.y(medianMs) - 4} textAnchor="end">
            median {readable(medianMs)}
          </text>
        </g>
      )}
      {selected && (
        <rect
          className="chart-focus"
          x={g.x(selected.at) - g.bar / 2 - 3}
          y={M.top - 3}
          width={g.bar + 6}
          height={bottom - M.top + 6}
          rx={3}
        />
      )}
    </svg>
  );
}

function DurationTicks({ g }: { g: Geometry }) {
  return (
    <g className="chart-axis">
      <text x={4} y={12}>
        duration
      </text>
      {g.axis.ticks.map((ms) => (
        <g key={ms}>
          <path className="chart-grid" d={`M${M.left} ${g.y(ms)}H${g.width - M.right}`} />
          <text x={M.left - 6} y={g.y(ms) + 4} textAnchor="end">
            {durationLabel(ms)}
          </text>
        </g>
      ))}
    </g>
  );
}

/** The time axis under a chart of `HEIGHT` with the margins above (the trend chart draws it too). */
export function TimeTicks({ g }: { g: Pick<Geometry, 'from' | 'to' | 'width' | 'x'> }) {
  const bottom = HEIGHT - M.bottom;
  const { ticks, step } = timeTicks(g.from, g.to, Math.max(2, Math.floor((g.width - M.left) / 90)));
  return (
    <g className="chart-axis">
      {ticks.map((at, i) => {
        // Times of day say their date under them where it changes (and under the first).
        const date = step < DAY && (i === 0 || dayLabel(at) !== dayLabel(ticks[i - 1]!));
        return (
          <g key={at}>
            <path className="chart-grid" d={`M${g.x(at)} ${bottom}v5`} />
            <text x={g.x(at)} y={bottom + 18} textAnchor="middle">
              {timeLabel(at, step)}
            </text>
            {date && (
              <text x={g.x(at)} y={bottom + 34} textAnchor="middle">
                {dayLabel(at)}
              </text>
            )}
          </g>
        );
      })}
    </g>
  );
}
