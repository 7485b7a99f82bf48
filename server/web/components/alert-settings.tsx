import type { FailAlerts, Monitor } from '@pingmon/sdk/wire';
import { DurationField, Field } from './field.js';
import type { FieldErrors, FieldName, MonitorDraft } from './monitor-fields.js';

type Change = (part: Partial<MonitorDraft>, fields: FieldName[]) => void;

/** When the monitor is down and what it sends then (docs/schedules.md#settings). */
export function AlertSettings({ draft, errors, change }: { draft: MonitorDraft; errors: FieldErrors; change: Change }) {
  const threshold = (field: 'failureThreshold' | 'recoveryThreshold', label: string, hint: string) => (
    <Field id={field} label={label} hint={hint} error={errors[field]}>
      {(input) => (
        <input
          {...input}
          type="number"
          min={1}
          max={100}
          step={1}
          inputMode="numeric"
          value={draft[field]}
          onChange={(e) => change({ [field]: e.currentTarget.value } as Partial<MonitorDraft>, [field])}
        />
      )}
    </Field>
  );
  return (
    <>
      <DurationField
        id="maxRuntime"
        label="Max runtime"
        value={draft.maxRuntime}
        empty="Empty: no limit. A run still running after it is finished as failed (timed out)."
        onChange={(maxRuntime) => change({ maxRuntime }, ['maxRuntime'])}
        error={errors.maxRuntime}
      />
      <div className="row">
        {threshold(
          'failureThreshold',
          'Failure threshold',
          'Failed, missed or timed-out runs in a row before it is down',
        )}
        {threshold('recoveryThreshold', 'Recovery threshold', 'Successes in a row that close an incident')}
      </div>
      <Field id="failAlerts" label="Fail alerts" error={errors.failAlerts}>
        {(input) => (
          <select
            {...input}
            value={draft.failAlerts}
            onChange={(e) => change({ failAlerts: e.currentTarget.value as FailAlerts }, ['failAlerts'])}
          >
            <option value="every">Every failed run alerts</option>
            <option value="first">Only the first failed run of an incident alerts</option>
          </select>
        )}
      </Field>
      <DurationField
        id="renotifyAfter"
        label="Remind while down, every"
        value={draft.renotifyAfter}
        empty="Empty: no reminders."
        onChange={(renotifyAfter) => change({ renotifyAfter }, ['renotifyAfter'])}
        error={errors.renotifyAfter}
      />
      <label className="check">
        <input
          type="checkbox"
          checked={draft.paused}
          aria-describedby={errors.paused ? 'paused-error' : undefined}
          onChange={(e) => change({ paused: e.currentTarget.checked }, ['paused'])}
        />
        Paused: records its pings, raises no alert
      </label>
      {errors.paused && (
        <span id="paused-error" className="field-error error">
          {errors.paused}
        </span>
      )}
    </>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A snooze as the datetime-local field holds it: the browser's local time to the minute; "" for none. */
function localInput(iso: string | null): string {
  if (iso === null) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export const snoozeChange = {
  initial: (saved: Monitor | undefined) => localInput(saved?.snoozedUntil ?? null),
  /** `{snoozedUntil}` when the field says other than the monitor's snooze; nothing otherwise. */
  of(value: string, saved: Monitor): { snoozedUntil?: string | null } {
    if (value === localInput(saved.snoozedUntil)) return {};
    const at = new Date(value);
    return { snoozedUntil: value === '' ? null : Number.isNaN(at.getTime()) ? value : at.toISOString() };
  },
};

/** Until when it is snoozed (the monitor page snoozes for 1h, 4h or 1d with one button). */
export function SnoozeField(props: { value: string; onChange: (value: string) => void; error?: string }) {
  return (
    <Field
      id="snoozedUntil"
      label="Snoozed until"
      hint="Your local time. No alert until then; one at the end if it is still down. Empty: not snoozed."
      error={props.error}
    >
      {(input) => (
        <input
          {...input}
          type="datetime-local"
          value={props.value}
          onChange={(e) => props.onChange(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}
