import type { ReactNode } from 'react';
import { formatDuration } from '@pingmon/sdk/wire';
import { readDuration } from './monitor-fields.js';

/**
 * A labelled form field: its hint and its error below it, both read out with it (aria-describedby); the error also
 * marks the input invalid. `children` gets the props its input needs.
 */
export function Field(props: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  /** The id of a message shown elsewhere (under the form) that refuses this field. */
  refusal?: string;
  children: (input: { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined }) => ReactNode;
}) {
  const { id, label, hint, error, refusal } = props;
  const described = [hint !== undefined && `${id}-hint`, error && `${id}-error`, refusal].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {props.children({ id, 'aria-invalid': Boolean(error || refusal), 'aria-describedby': described || undefined })}
      {hint !== undefined && (
        <span id={`${id}-hint`} className="hint muted">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="field-error error">
          {error}
        </span>
      )}
    </div>
  );
}

/** A duration typed as 90s, 10m, 1h30m, 2d or seconds; says what it read ("= 1h30m, 5400 s") as it is typed. */
export function DurationField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  refusal?: string;
  /** What leaving it empty means ("no limit"); required when not given. */
  empty?: string;
}) {
  const read = readDuration(props.value, props.empty !== undefined);
  const reading =
    read === null ? props.empty : typeof read === 'number' ? `= ${formatDuration(read)}, ${read} seconds` : undefined;
  return (
    <Field
      id={props.id}
      label={
        <>
          {props.label} <span className="muted">(duration: 90s, 10m, 1h30m, 2d, or seconds)</span>
        </>
      }
      hint={reading ?? (typeof read === 'object' && read !== null ? read.error : undefined)}
      error={props.error}
      refusal={props.refusal}
    >
      {(input) => (
        <input
          {...input}
          className="duration"
          value={props.value}
          inputMode="text"
          autoComplete="off"
          spellCheck={false}
          placeholder={props.empty === undefined ? '5m' : 'empty: none'}
          onChange={(e) => props.onChange(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/** The IANA names this browser knows, offered as the timezone is typed. */
export function Timezones() {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return (
    <datalist id="timezones">
      {['UTC', ...zones.filter((zone) => zone !== 'UTC')].map((zone) => (
        <option key={zone} value={zone} />
      ))}
    </datalist>
  );
}
