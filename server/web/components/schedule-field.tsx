import type { ExpectedTimes, Monitor, SchedulePreview } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';
import { DurationField, Field, Timezones } from './field.js';
import type { FieldErrors, MonitorDraft, ScheduleKind } from './monitor-fields.js';
import { fieldOf, scheduleOf } from './monitor-fields.js';
import { ExpectedList } from './expected-list.js';
import { usePreview } from './use-preview.js';

const KINDS: Array<[ScheduleKind, string]> = [
  ['none', 'No schedule'],
  ['cron', 'Cron schedule'],
  ['every', 'Interval'],
];

type ScheduleDraft = Pick<MonitorDraft, 'kind' | 'cron' | 'timezone' | 'every'>;

/**
 * The schedule, checked by the server as it is typed (POST /schedules/preview): in words, and the next five
 * expected times, from the server's own schedule code. A saved monitor's unchanged schedule shows the times it
 * really expects (GET /monitors/:monitorId/expected).
 */
export function ScheduleField(props: {
  draft: ScheduleDraft;
  onChange: (change: Partial<ScheduleDraft>) => void;
  errors: FieldErrors;
  /** Seconds, when the start grace typed can be read. */
  startGrace: number | undefined;
  saved?: Monitor;
}) {
  const { draft, onChange, saved } = props;
  const schedule = scheduleOf(draft);
  const body = schedule ? { schedule, ...(props.startGrace !== undefined && { startGrace: props.startGrace }) } : null;
  const key = body ? JSON.stringify(body) : undefined;
  const preview = usePreview(key, () => api<SchedulePreview>('POST', 'schedules/preview', body));
  const unchanged = saved && schedule && JSON.stringify(schedule) === JSON.stringify(saved.schedule);
  const expected = usePreview(unchanged ? `expected ${saved.monitorId}` : undefined, () =>
    api<ExpectedTimes>('GET', `monitors/${id(saved!.monitorId)}/expected`),
  );
  const refused = preview.state === 'refused' ? preview.error : undefined;
  const refusedField = refused && fieldOf(refused);
  const errorOf = (field: keyof FieldErrors) =>
    refused && (refusedField === field || (field === 'schedule' && !refusedField?.startsWith('schedule')))
      ? refused.message
      : props.errors[field];
  return (
    <fieldset className="schedule">
      <legend>Schedule</legend>
      <div className="kinds" role="radiogroup" aria-label="Kind of schedule">
        {KINDS.map(([kind, label]) => (
          <label key={kind} className="check">
            <input type="radio" name="kind" checked={draft.kind === kind} onChange={() => onChange({ kind })} />
            {label}
          </label>
        ))}
      </div>
      {draft.kind === 'none' && (
        <p className="muted">No run is expected: the monitor knows only what its job's pings tell it.</p>
      )}
      {draft.kind === 'cron' && (
        <div className="row">
          <Field
            id="cron"
            label="Cron expression"
            hint="5 fields: minute hour day-of-month month day-of-week, as in a crontab"
            error={errorOf('schedule.cron')}
          >
            {(input) => (
              <input
                {...input}
                value={draft.cron}
                autoComplete="off"
                spellCheck={false}
                className="cron"
                onChange={(e) => onChange({ cron: e.currentTarget.value })}
              />
            )}
          </Field>
          <Field
            id="timezone"
            label="Timezone"
            hint="IANA name, e.g. Europe/Berlin"
            error={errorOf('schedule.timezone')}
          >
            {(input) => (
              <input
                {...input}
                value={draft.timezone}
                list="timezones"
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => onChange({ timezone: e.currentTarget.value })}
              />
            )}
          </Field>
          <Timezones />
        </div>
      )}
      {draft.kind === 'every' && (
        <DurationField
          id="every"
          label="Every"
          value={draft.every}
          onChange={(every) => onChange({ every })}
          error={errorOf('schedule.every')}
        />
      )}
      {errorOf('schedule') && <p className="field-error error">{errorOf('schedule')}</p>}
      {body && (preview.state === 'waiting' || preview.state === 'shown') && (
        <div className="preview" aria-live="polite" aria-busy={preview.state === 'waiting'}>
          {preview.state === 'waiting' && <p className="muted">Checking the schedule…</p>}
          {preview.state === 'shown' && (
            <>
              <p className="words">{preview.data.description}</p>
              <ExpectedList
                timezone={expected.state === 'shown' ? expected.data.timezone : preview.data.timezone}
                times={expected.state === 'shown' ? expected.data.times : preview.data.expected}
                fromNow={expected.state !== 'shown'}
              />
            </>
          )}
        </div>
      )}
    </fieldset>
  );
}
