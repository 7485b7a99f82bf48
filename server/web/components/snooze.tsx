import type { Monitor } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';
import { when } from '../format.js';
import { useAction } from './action.js';

/** The snoozes offered, in seconds (docs/dashboard.md). */
const SNOOZES: Array<[string, number]> = [
  ['1h', 3_600],
  ['4h', 14_400],
  ['1d', 86_400],
];

/** Snooze the monitor for a while, or end its snooze: no alert meanwhile, one at the end if it is still down. */
export function Snooze({ monitor: m, reload }: { monitor: Monitor; reload: () => void }) {
  const { busy, error, run } = useAction();
  const snooze = async (seconds: number | null) => {
    const snoozedUntil = seconds === null ? null : new Date(Date.now() + seconds * 1000).toISOString();
    if (await run(() => api('PATCH', `monitors/${id(m.monitorId)}`, { snoozedUntil }))) reload();
  };
  return (
    <>
      <dt>Snooze</dt>
      <dd>
        {m.snoozedUntil !== null ? (
          <>
            until {when(m.snoozedUntil)}{' '}
            <button type="button" disabled={busy} onClick={() => void snooze(null)}>
              End snooze
            </button>
          </>
        ) : (
          SNOOZES.map(([label, seconds]) => (
            <button
              key={label}
              type="button"
              disabled={busy}
              aria-label={`Snooze for ${label}`}
              onClick={() => void snooze(seconds)}
            >
              {label}
            </button>
          ))
        )}
        {error && <span className="error"> {error}</span>}
      </dd>
    </>
  );
}
