import type { FormEvent } from 'react';
import { useEffect, useRef, useState } from 'react';
import type { Monitor } from '@pingmon/sdk/wire';
import { SLUG_RULE, slugify } from '@pingmon/sdk/wire';
import { api, ApiError, id } from '../api.js';
import { Link, monitorPath, navigate } from '../router.js';
import { DurationField, Field } from './field.js';
import type { FieldErrors, FieldName, MonitorDraft } from './monitor-fields.js';
import { bodyOf, changesOf, draftOf, fieldOf, readDuration } from './monitor-fields.js';
import { ScheduleField } from './schedule-field.js';
import { AlertSettings, SnoozeField, snoozeChange } from './alert-settings.js';
import '../styles/manage.css';

const MAX_GRACE = 31 * 86_400;
const MADE = ' Made from the name when left empty.';

/**
 * Creates a monitor, or edits `saved`: every setting of POST /monitors and PATCH /monitors/:monitorId. An edit
 * sends only what changed. A refusal is shown next to the field it names; then the page goes to the monitor.
 */
export function MonitorForm({ saved }: { saved?: Monitor }) {
  const [draft, setDraft] = useState<MonitorDraft>(() => draftOf(saved));
  const [snooze, setSnooze] = useState(() => snoozeChange.initial(saved));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const change = (part: Partial<MonitorDraft>, fields: FieldName[]) => {
    setDraft((old) => ({ ...old, ...part }));
    // A field's refusal goes once it is changed: what is typed now has not been refused.
    if (fields.some((field) => errors[field])) {
      setErrors((old) => {
        const left = { ...old };
        for (const field of fields) delete left[field];
        return left;
      });
    }
  };
  const grace = readDuration(draft.startGrace, false);
  const startGrace =
    typeof grace === 'number' && Number.isInteger(grace) && grace >= 1 && grace <= MAX_GRACE ? grace : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    const read = bodyOf(draft);
    if ('errors' in read) return setErrors(read.errors);
    const { slug, ...rest } = read.body;
    const body = saved
      ? { ...changesOf(read.body, saved), ...snoozeChange.of(snooze, saved) }
      : slug
        ? read.body
        : rest;
    if (saved && Object.keys(body).length === 0) return setFailure('Nothing was changed.');
    setBusy(true);
    try {
      const path = saved ? `monitors/${id(saved.monitorId)}` : 'monitors';
      const monitor = await api<Monitor>(saved ? 'PATCH' : 'POST', path, body);
      navigate(monitorPath(monitor.slug));
    } catch (err) {
      const error = err instanceof ApiError ? err : new ApiError(0, 'error', String(err));
      const field = fieldOf(error);
      if (field) setErrors({ [field]: error.message });
      else setFailure(error.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={form} className="monitor-form" onSubmit={(e) => void submit(e)} noValidate>
      <Field id="name" label="Name" error={errors.name}>
        {(input) => (
          <input
            {...input}
            value={draft.name}
            maxLength={200}
            required
            onChange={(e) => change({ name: e.currentTarget.value }, ['name'])}
          />
        )}
      </Field>
      <Field
        id="slug"
        label="Slug"
        hint={`Its name in ping URLs (/api/v1/ping/SLUG/start) and commands: ${SLUG_RULE}.${saved ? '' : MADE}`}
        error={errors.slug}
      >
        {(input) => (
          <input
            {...input}
            value={draft.slug}
            placeholder={saved ? undefined : slugify(draft.name || 'monitor')}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => change({ slug: e.currentTarget.value }, ['slug'])}
          />
        )}
      </Field>
      <ScheduleField
        draft={draft}
        onChange={(part) => change(part, ['schedule', 'schedule.cron', 'schedule.timezone', 'schedule.every'])}
        errors={errors}
        startGrace={startGrace}
        saved={saved}
      />
      <DurationField
        id="startGrace"
        label="Start grace"
        value={draft.startGrace}
        onChange={(startGrace) => change({ startGrace }, ['startGrace'])}
        error={errors.startGrace}
      />
      <AlertSettings draft={draft} errors={errors} change={change} />
      {saved && <SnoozeField value={snooze} onChange={setSnooze} error={errors.snoozedUntil} />}
      {failure && (
        <p className="error" role="alert">
          {failure}
        </p>
      )}
      <div className="buttons">
        <button type="submit" className="primary" disabled={busy}>
          {saved ? 'Save changes' : 'Create monitor'}
        </button>
        <Link to={saved ? monitorPath(saved.slug) : '/'}>Cancel</Link>
      </div>
    </form>
  );
}
