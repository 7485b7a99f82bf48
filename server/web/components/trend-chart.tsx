import type { Rule, Run } from '@pingmon/sdk/wire';
import { nameText, when } from '../format.js';
import { HEIGHT, M, TimeTicks } from './duration-plot.js';
import { durationAxis, durationLabel, numberAxis } from './scale.js';
import { trendOf, valueText } from './trend-data.js';
import { useWidth } from './use-width.js';
import '../styles/chart.css';

type TrendGeometry = ReturnType<typeof geometryOf>;

/** Time left to right (a margin either side), the metric up: from zero for durations, round steps otherwise. */
function geometryOf(times: number[], values: number[], metric: string, width: number) {
  const [first, last] = [Math.min(...times), Math.max(...times)];
  const pad = Math.max((last - first) * 0.03, 30_000);
  const [from, to] = [first - pad, last + pad];
  const inner = Math.max(width - M.left - M.right, 10);
  const bottom = HEIGHT - M.bottom;
  const axis =
    metric === 'durationMs'
      ? { bottom: 0, ...durationAxis(Math.max(0, ...values)), label: durationLabel }
      : { ...numberAxis(Math.min(...values), Math.max(...values)), label: String };
  return {
    width,
    from,
    to,
    axis,
    x: (at: number) => M.left + ((at - from) / (to - from)) * inner,
    y: (value: number) => bottom - ((value - axis.bottom) / (axis.top - axis.bottom)) * (bottom - M.top),
  };
}

/**
 * `metric` on a monitor's latest successes (`runs`, oldest first), each at its start time; the threshold of each
 * of `rules` (those on the metric) drawn as the rule saw it, and the runs a rule matched marked. The picture says
 * its numbers in its label.
 */
export function TrendChart({ metric, runs, rules }: { metric: string; runs: Run[]; rules: Rule[] }) {
  const [ref, width] = useWidth(700);
  const { times, points, thresholds, label } = trendOf(metric, runs, rules);
  const reported = points.filter((p) => p !== null);
  if (reported.length === 0) return <p className="empty">No successful run reported {nameText(metric)} yet.</p>;
  const known = thresholds.flat().filter((t) => t !== null);
  const g = geometryOf(times, [...reported.map((p) => p.value), ...known], metric, width);
  const line = points.map((p, i) => (p ? `${points[i - 1] ? 'L' : 'M'}${g.x(p.at)} ${g.y(p.value)}` : '')).join('');
  return (
    <>
      <div ref={ref} className="trend-frame">
        <svg className="trend-plot" width={g.width} height={HEIGHT} role="img" aria-label={label}>
          <title>{label}</title>
          <g className="chart-axis">
            <text x={4} y={12}>
              {nameText(metric)}
            </text>
            {g.axis.ticks.map((tick) => (
              <g key={tick} className="trend-tick" data-value={tick}>
                <path className="chart-grid" d={`M${M.left} ${g.y(tick)}H${g.width - M.right}`} />
                <text x={M.left - 6} y={g.y(tick) + 4} textAnchor="end">
                  {g.axis.label(tick)}
                </text>
              </g>
            ))}
          </g>
          <TimeTicks g={g} />
          {rules.map((rule, r) => (
            <path
              key={rule.ruleId}
              className="trend-threshold"
              data-rule-id={rule.ruleId}
              d={thresholdPath(thresholds[r]!, times, rule.baseline === null, g)}
            />
          ))}
          <path className="trend-line" d={line} />
          {reported.map((p) => (
            <circle
              key={p.runId}
              className={p.matched ? 'trend-point trend-matched' : 'trend-point'}
              cx={g.x(p.at)}
              cy={g.y(p.value)}
              r={p.matched ? 5 : 3.5}
            >
              <title>
                {`${when(new Date(p.at).toISOString())}: ${valueText(metric, p.value)}`}
                {p.matched && ', matched a rule'}
              </title>
            </circle>
          ))}
        </svg>
      </div>
      <ul className="chart-legend" aria-hidden="true">
        {rules.map((rule) => (
          <li key={rule.ruleId}>
            <span className="swatch swatch-threshold" />
            {nameText(rule.expression)}
          </li>
        ))}
        {rules.length > 0 && (
          <li>
            <span className="swatch swatch-matched" />
            matched
          </li>
        )}
      </ul>
    </>
  );
}

/**
 * A rule's threshold at each run: a fixed one across the whole plot; a median one as a level from each run to the
 * next (the last to the edge), broken where the rule had too few runs before to judge.
 */
function thresholdPath(thresholds: Array<number | null>, times: number[], fixed: boolean, g: TrendGeometry): string {
  const known = thresholds.find((t) => t !== null);
  if (fixed) return known == null ? '' : `M${M.left} ${g.y(known)}H${g.width - M.right}`;
  let d = '';
  thresholds.forEach((threshold, i) => {
    if (threshold === null) return;
    const [x, y] = [g.x(times[i]!), g.y(threshold)];
    const end = i + 1 < times.length ? g.x(times[i + 1]!) : g.width - M.right;
    d += `${i > 0 && thresholds[i - 1] !== null ? `V${y}` : `M${x} ${y}`}H${end}`;
  });
  return d;
}
