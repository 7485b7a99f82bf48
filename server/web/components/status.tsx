import type { MonitorStatus, RunStatus } from '@pingmon/sdk/wire';
import { statusText } from '@pingmon/sdk/wire';
import { STATUS_HELP } from '../format.js';

/** A monitor's status as a word in a coloured badge: the word reads without the colour. */
export function MonitorBadge({ status }: { status: MonitorStatus }) {
  return (
    <span className={`badge badge-${status}`} title={STATUS_HELP[status]}>
      {status}
    </span>
  );
}

/** "✗ failed", "✓ success ▲" in the colour of the outcome (a silent failure is a warning whatever its status). */
export function RunStatusText({ status, silent = false }: { status: RunStatus | 'none'; silent?: boolean }) {
  const tone = silent ? 'silent' : status;
  return (
    <span className={`run-status run-${tone}`} title={silent ? 'Silent failure: the meta matched alert rules' : ''}>
      {statusText(status, silent)}
    </span>
  );
}
