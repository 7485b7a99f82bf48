import type { FormEvent } from 'react';
import { useEffect, useRef, useState } from 'react';
import type { Channel, ChannelKindInfo } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';
import { nameText } from '../format.js';
import { Field } from './field.js';
import type { ChannelDraft, FieldErrors } from './channel-fields.js';
import { createBody, draftOf, fieldOf, updateBody } from './channel-fields.js';
import { ChannelSecret, ChannelTiming, ChannelUrl } from './channel-target.js';
import { OptionField } from './option-field.js';
import '../styles/manage.css';

/**
 * Creates a channel of any kind, or edits `saved`: the fields its kind needs (GET /channel-kinds). An edit sends only
 * what changed. The server's refusal is shown under the form, and the field it names is marked and focused.
 */
export function ChannelForm(props: {
  kinds: ChannelKindInfo[];
  saved?: Channel;
  done: () => void;
  cancel?: () => void;
}) {
  const { kinds, saved } = props;
  const [type, setType] = useState(saved?.type ?? kinds[0]!.type);
  const kind = kinds.find((k) => k.type === type) ?? kinds[0]!;
  const [initial] = useState(() => draftOf(kind, saved));
  const [draft, setDraft] = useState<ChannelDraft>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<{ message: string; field?: string }>();
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors, failure]);

  const prefix = saved ? `channel-${saved.channelId}-` : 'new-channel-';
  const failureId = `${prefix}failure`;
  const change = (part: Partial<ChannelDraft>, field: string) => {
    setDraft((old) => ({ ...old, ...part }));
    if (errors[field]) setErrors(({ [field]: _gone, ...left }) => left);
    if (failure?.field === field) setFailure(undefined);
  };
  const field = (name: string) => ({
    id: `${prefix}${name.replace('.', '-')}`,
    error: errors[name],
    refusal: failure?.field === name ? failureId : undefined,
  });
  const choose = (next: string) => {
    const nextKind = kinds.find((k) => k.type === next)!;
    setType(nextKind.type);
    setDraft((old) => ({ ...draftOf(nextKind), name: old.name }));
    setErrors({});
    setFailure(undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    const read = saved ? updateBody(kind, draft, initial, saved) : createBody(kind, draft);
    if ('errors' in read) return setErrors(read.errors);
    if (saved && Object.keys(read.body).length === 0) return setFailure({ message: 'Nothing was changed.' });
    setBusy(true);
    try {
      if (saved) await api('PATCH', `channels/${id(saved.channelId)}`, read.body);
      else await api('POST', 'channels', read.body);
      props.done();
    } catch (err) {
      const message = (err as Error).message;
      setFailure({ message, field: fieldOf(kind, message) });
    } finally {
      setBusy(false);
    }
  };

  const label = saved ? `Edit ${nameText(saved.name)}` : 'New channel';
  return (
    <form ref={form} className="channel-form" aria-label={label} onSubmit={(e) => void submit(e)} noValidate>
      {!saved && (
        <Field id={`${prefix}type`} label="Type" hint={kind.incidents ? incidentsHint(kind.label) : undefined}>
          {(input) => (
            <select {...input} value={type} onChange={(e) => choose(e.currentTarget.value)}>
              {kinds.map((k) => (
                <option key={k.type} value={k.type}>
                  {k.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field
        {...field('name')}
        label={
          saved ? (
            'Name'
          ) : (
            <>
              Name <span className="muted">(optional)</span>
            </>
          )
        }
      >
        {(input) => (
          <input
            {...input}
            value={draft.name}
            maxLength={100}
            placeholder={saved ? undefined : `${type} channel`}
            onChange={(e) => change({ name: e.currentTarget.value }, 'name')}
          />
        )}
      </Field>
      <ChannelUrl kind={kind} saved={saved} field={field('url')} value={draft.url} change={change} />
      <ChannelSecret kind={kind} saved={saved} field={field('secret')} draft={draft} change={change} />
      {kind.options.map((option) => (
        <OptionField
          key={`${type} ${option.name}`}
          {...field(`options.${option.name}`)}
          option={option}
          value={draft.options[option.name] ?? ''}
          onChange={(value) =>
            change({ options: { ...draft.options, [option.name]: value } }, `options.${option.name}`)
          }
        />
      ))}
      <ChannelTiming kind={kind} draft={draft} field={field} change={change} />
      {failure && (
        <p id={failureId} className="error" role="alert">
          {failure.message}
        </p>
      )}
      <div className="buttons">
        <button type="submit" className="primary" disabled={busy}>
          {saved ? 'Save changes' : 'Add channel'}
        </button>
        {props.cancel && (
          <button type="button" onClick={props.cancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function incidentsHint(label: string): string {
  return `Opens an incident in ${label} for each of pingmon's, and resolves it on recovery.`;
}
