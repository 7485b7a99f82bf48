import type { CreateRuleRequest, RulePreview as Replay } from '@pingmon/sdk/wire';
import { describeRule } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';
import { nameText, when } from '../format.js';
import { Link, runPath } from '../router.js';
import { usePreview } from './use-preview.js';
import '../styles/manage.css';

/** How many of the latest successes a rule being typed is replayed over. */
export const REPLAYED = 20;
/** Matches listed; the count says how many there are in all. */
const LISTED = 10;

/**
 * A rule being typed, in words, and what it would have matched among the monitor's latest successes: the server
 * replays it with its own rule matching (POST /monitors/:monitorId/rules/preview).
 */
export function RulePreview({ monitorId, rule }: { monitorId: string; rule: CreateRuleRequest | undefined }) {
  const path = `monitors/${id(monitorId)}/rules/preview?runs=${REPLAYED}`;
  const preview = usePreview(rule && JSON.stringify(rule), () => api<Replay>('POST', path, rule));
  if (!rule) return <p className="muted rule-words">Type a metric and a number to see the rule in words.</p>;
  return (
    <div className="preview" aria-live="polite">
      <p className="rule-words">{nameText(describeRule(rule))}.</p>
      {preview.state === 'waiting' && <p className="muted">Replaying it over the latest runs…</p>}
      {preview.state === 'refused' && <p className="error">{preview.error.message}</p>}
      {preview.state === 'shown' && <Replayed monitorId={monitorId} replay={preview.data} metric={rule.metric} />}
    </div>
  );
}

function Replayed({ monitorId, replay, metric }: { monitorId: string; replay: Replay; metric: string }) {
  const { checked, matches, withoutMetric } = replay;
  if (checked === 0) return <p className="muted">No successful run yet to try it on.</p>;
  const last = checked === 1 ? 'the last success' : `the last ${checked} successes`;
  return (
    <>
      <p className="replay-count">
        Would have matched {matches.length === 0 ? 'none' : matches.length} of {last}
        {matches.length > 0 ? ':' : '.'}
      </p>
      {matches.length > 0 && (
        <ul className="matches">
          {matches.slice(0, LISTED).map((match) => (
            <li key={match.runId}>
              <Link to={runPath(monitorId, match.runId)}>{when(match.startedAt)}</Link>{' '}
              <span className="muted">
                {nameText(metric)} was {match.actual}
                {match.median !== null && `, the median before ${match.median}`}
              </span>
            </li>
          ))}
          {matches.length > LISTED && <li className="muted">and {matches.length - LISTED} more</li>}
        </ul>
      )}
      {withoutMetric > 0 && (
        <p className="notice">
          {withoutMetric === checked
            ? `None of ${last} reported ${nameText(metric)}: is it spelt as the job sends it?`
            : `${withoutMetric} of ${last} did not report ${nameText(metric)}; a rule never matches those.`}
        </p>
      )}
    </>
  );
}
