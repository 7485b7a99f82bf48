import type { Channel, ChannelKindInfo } from '@pingmon/sdk/wire';
import { formatDuration } from '@pingmon/sdk/wire';
import type { ChannelDraft } from './channel-fields.js';
import { sentence } from './channel-fields.js';
import { DurationField, Field } from './field.js';

// Where a channel sends, its credential and when: the URL (or the kind's default) and the secret, as its kind says,
// and its repeats and escalation.

interface FieldProps {
  id: string;
  error?: string;
  refusal?: string;
}

type Change = (part: Partial<ChannelDraft>, field: string) => void;

const optional = <span className="muted"> (optional)</span>;

export function ChannelUrl(props: {
  kind: ChannelKindInfo;
  saved?: Channel;
  field: FieldProps;
  value: string;
  change: Change;
}) {
  const { kind, saved } = props;
  const email = kind.type === 'email';
  // Other URLs are shown masked (they are credentials): an edit leaves the URL as it is unless one is typed.
  const kept = saved && !email;
  const label = email ? 'Recipients' : 'URL';
  const hint = [
    sentence(kind.url.describe),
    email ? 'Addresses, separated by commas.' : '',
    kept ? `Now ${saved.url}: leave empty to keep it.` : '',
  ];
  const placeholder = kept
    ? saved.url
    : (kind.url.default ?? (email ? 'ops@example.com, oncall@example.com' : 'https://'));
  return (
    <Field
      {...props.field}
      label={
        <>
          {label}
          {(kind.url.default !== null || kept) && optional}
        </>
      }
      hint={hint.filter(Boolean).join(' ')}
    >
      {(input) => (
        <input
          {...input}
          type={email ? 'text' : 'url'}
          autoComplete="off"
          spellCheck={false}
          maxLength={2000}
          value={props.value}
          placeholder={placeholder}
          onChange={(e) => props.change({ url: e.currentTarget.value }, 'url')}
        />
      )}
    </Field>
  );
}

/** The secret, never shown back: an edit replaces it when one is typed, or removes it where the kind allows none. */
export function ChannelSecret(props: {
  kind: ChannelKindInfo;
  saved?: Channel;
  field: FieldProps;
  draft: ChannelDraft;
  change: Change;
}) {
  const { kind, saved, draft } = props;
  if (kind.secret.need === 'none') return null;
  const replacing = saved?.hasSecret === true;
  const removable = replacing && kind.secret.need === 'optional';
  const hint = [kind.secret.describe && sentence(kind.secret.describe), replacing && 'Empty: the secret is kept.'];
  return (
    <>
      <Field
        {...props.field}
        label={
          <>
            {replacing ? 'New secret' : 'Secret'}
            {(replacing || kind.secret.need === 'optional') && optional}
          </>
        }
        hint={hint.filter(Boolean).join(' ')}
      >
        {(input) => (
          <input
            {...input}
            type="password"
            autoComplete="new-password"
            required={kind.secret.need === 'required' && !replacing}
            disabled={draft.removeSecret}
            value={draft.secret}
            onChange={(e) => props.change({ secret: e.currentTarget.value }, 'secret')}
          />
        )}
      </Field>
      {removable && (
        <label className="check">
          <input
            type="checkbox"
            checked={draft.removeSecret}
            onChange={(e) => props.change({ removeSecret: e.currentTarget.checked, secret: '' }, 'secret')}
          />
          Remove the secret
        </label>
      )}
    </>
  );
}

/** Repeats while an incident stays open, and escalation: durations in the CLI's grammar. */
export function ChannelTiming(props: {
  kind: ChannelKindInfo;
  draft: ChannelDraft;
  field: (name: string) => FieldProps;
  change: Change;
}) {
  const { kind, draft, field, change } = props;
  const own = kind.repeatEvery === null ? 'no repeats' : `the kind's own, every ${formatDuration(kind.repeatEvery)}`;
  return (
    <>
      <DurationField
        {...field('repeatEvery')}
        label="Repeat every"
        value={draft.repeatEvery}
        onChange={(repeatEvery) => change({ repeatEvery }, 'repeatEvery')}
        empty={`Empty: ${own}. Else the incident's alert is sent again at this interval while it stays open.`}
      />
      <DurationField
        {...field('escalateAfter')}
        label="Escalate after"
        value={draft.escalateAfter}
        onChange={(escalateAfter) => change({ escalateAfter }, 'escalateAfter')}
        empty="Empty: told at once. Else told of an incident only once it has stayed open this long."
      />
    </>
  );
}
