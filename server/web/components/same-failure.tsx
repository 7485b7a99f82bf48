import { failurePath, Link, navigate, withParam } from '../router.js';
import '../styles/same-failure.css';

/** Above a monitor's runs filtered by failure: which fingerprint is applied, and a way back to every run. */
export function FailureFilter({ fingerprint }: { fingerprint: string }) {
  return (
    <p className="failure-filter" role="status" aria-label="Failure filter">
      Runs that failed the same way, fingerprint <code>{fingerprint}</code>{' '}
      {/* The address is read on the click: the timeline's filter may have changed it since this was drawn. */}
      <button type="button" onClick={() => navigate(withParam('fingerprint', null))}>
        Show all runs
      </button>
    </p>
  );
}

/** A link to the monitor's runs that have this failure fingerprint; `children` names it, `label` to a screen reader. */
export function SameFailureLink(props: { monitorId: string; fingerprint: string; children: string; label?: string }) {
  return (
    <Link to={failurePath(props.monitorId, props.fingerprint)} className="same-failure" label={props.label}>
      {props.children}
    </Link>
  );
}
