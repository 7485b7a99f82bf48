import type { ChannelKindOption } from '@pingmon/sdk/wire';
import { Field } from './field.js';
import { labelOf, LONG_TEXT } from './channel-fields.js';

type InputProps = { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined };

/**
 * One option of a channel's kind, as GET /channel-kinds describes it: a select for a list of values, a number, a
 * checkbox, or text (a text area for an object, as JSON, and for a long text such as a template's body).
 */
export function OptionField(props: {
  id: string;
  option: ChannelKindOption;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  refusal?: string;
}) {
  const { option } = props;
  const label = (
    <>
      {labelOf(option.name)}
      {!option.required && <span className="muted"> (optional)</span>}
    </>
  );
  return (
    <Field id={props.id} label={label} hint={option.describe ?? undefined} error={props.error} refusal={props.refusal}>
      {(input) => <Control {...props} input={input} />}
    </Field>
  );
}

function Control({ option, value, onChange, input }: Parameters<typeof OptionField>[0] & { input: InputProps }) {
  const { example } = option;
  const placeholder = typeof example === 'object' && example !== null ? JSON.stringify(example) : example?.toString();
  if (option.values) {
    const left = option.default === undefined ? '—' : `${String(option.default)} (the default)`;
    return (
      <select {...input} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {(!option.required || value === '') && <option value="">{option.required ? 'Choose…' : left}</option>}
        {option.values.map((v) => (
          <option key={String(v)} value={String(v)}>
            {String(v)}
          </option>
        ))}
      </select>
    );
  }
  if (option.type === 'boolean') {
    return (
      <input
        {...input}
        type="checkbox"
        checked={value === 'true'}
        onChange={(e) => onChange(e.currentTarget.checked ? 'true' : 'false')}
      />
    );
  }
  if (option.type === 'object' || (option.maxLength ?? 0) > LONG_TEXT) {
    return (
      <textarea
        {...input}
        className="code"
        rows={option.type === 'object' ? 4 : 8}
        spellCheck={false}
        value={value}
        placeholder={placeholder}
        maxLength={option.maxLength ?? undefined}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    );
  }
  const number = option.type === 'number' || option.type === 'integer';
  return (
    <input
      {...input}
      type={number ? 'number' : 'text'}
      step={option.type === 'integer' ? 1 : undefined}
      inputMode={option.type === 'integer' ? 'numeric' : undefined}
      autoComplete="off"
      spellCheck={false}
      value={value}
      placeholder={placeholder ?? (option.default === undefined ? undefined : String(option.default))}
      maxLength={option.maxLength ?? undefined}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}
