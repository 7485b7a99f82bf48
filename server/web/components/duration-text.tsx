import { exactDuration, statusText } from '@pingmon/sdk/wire';
import { when } from '../format.js';
import type { Point } from './duration-plot.js';
import { readable } from './scale.js';

const iso = (at: number) => new Date(at).toISOString();
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The chart in one sentence, above it: what it covers and what it shows. */
export function ChartSummary(props: { points: Point[]; missed: number[]; medianMs: number | undefined }) {
  const { points, missed, medianMs } = props;
  const count = (tone: Point['tone']) => points.filter((p) => p.tone === tone).length;
  const durations = points.flatMap((p) => (p.durationMs === null ? [] : [p.durationMs]));
  const parts = [
    `${count('success')} succeeded`,
    `${count('failed')} failed`,
    plural(count('silent'), 'silent failure'),
    `${count('running')} running`,
  ];
  const span = points.length > 0 ? `, ${when(iso(points[0]!.at))} to ${when(iso(points.at(-1)!.at))}` : '';
  return (
    <figcaption className="chart-summary">
      {plural(points.length, 'run')}
      {span}: {parts.join(', ')}
      {medianMs !== undefined && `; median ${readable(medianMs)}, longest ${readable(Math.max(...durations))}`};{' '}
      {missed.length === 0 ? 'no missed slot' : plural(missed.length, 'missed slot')}. Times are the runs' starts, in
      your timezone.
    </figcaption>
  );
}

/** What the colours and marks mean; each is a word too, so the chart reads without colour. */
export function Legend() {
  const items: Array<[string, string]> = [
    ['success', 'success'],
    ['failed', 'failed'],
    ['silent', 'silent failure'],
    ['running', 'running'],
    ['nodur', 'no duration (still running, or no start ping)'],
    ['missed', 'missed slot'],
    ['median', 'median'],
  ];
  return (
    <ul className="chart-legend">
      {items.map(([key, text]) => (
        <li key={key}>
          <span className={`swatch swatch-${key}`} aria-hidden="true" />
          {text}
        </li>
      ))}
    </ul>
  );
}

/** The same runs and missed slots as a table, newest first, for a screen reader (the picture is hidden from it). */
export function ChartTable({ points, missed }: { points: Point[]; missed: number[] }) {
  const rows = [
    ...points.map((p) => ({
      key: p.runId,
      at: p.at,
      cells: [
        p.durationMs === null ? 'no duration' : exactDuration(p.durationMs),
        statusText(p.status, p.silent),
        p.error,
      ],
    })),
    ...missed.map((at) => ({ key: `missed ${at}`, at, cells: ['', 'missed slot: no run started', ''] })),
  ].sort((a, b) => b.at - a.at);
  return (
    <table className="sr-only">
      <caption>The chart's runs and missed slots, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Duration</th>
          <th scope="col">Status</th>
          <th scope="col">Error</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <td>{when(iso(row.at))}</td>
            {row.cells.map((cell, i) => (
              <td key={i}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
