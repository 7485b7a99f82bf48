import type { FormEvent } from 'react';
import { useState } from 'react';
import type { Channel, ChannelList, ChannelTestResult, ChannelType, CreateChannelRequest } from '@pingmon/sdk/wire';
import { clean } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';
import { nameText } from '../format.js';
import { useAction } from '../components/action.js';
import { Failure, Problem } from '../components/problem.js';
import { usePoll } from '../use-poll.js';
import { useTitle } from '../title.js';

const TYPES: ChannelType[] = ['slack', 'discord', 'webhook', 'email'];

/** Where alerts are sent: Slack, Discord, a webhook or e-mail; each can be tested, paused or removed. */
export function ChannelsPage() {
  useTitle('Channels');
  const { data, error, reload } = usePoll('channels', () => api<ChannelList>('GET', 'channels'));
  return (
    <>
      <h1>Channels</h1>
      <Problem error={error} stale={data !== undefined} />
      {data?.channels.length === 0 && <p className="empty">No channels: alerts are recorded but sent nowhere.</p>}
      <ul className="items channels">
        {data?.channels.map((channel) => (
          <ChannelItem key={channel.channelId} channel={channel} changed={reload} />
        ))}
      </ul>
      <NewChannel created={reload} />
    </>
  );
}

function ChannelItem({ channel: c, changed }: { channel: Channel; changed: () => void }) {
  const action = useAction();
  const [tested, setTested] = useState<ChannelTestResult>();
  const path = `channels/${id(c.channelId)}`;
  const name = nameText(c.name);
  const test = () => action.run(async () => setTested(await api<ChannelTestResult>('POST', `${path}/test`)));
  const toggle = async () => {
    if (await action.run(() => api('PATCH', path, { enabled: !c.enabled }))) changed();
  };
  const remove = async () => {
    if (window.confirm(`Delete the channel ${name}?`) && (await action.run(() => api('DELETE', path)))) changed();
  };
  return (
    <li>
      <div>
        <strong>{name}</strong> <span className="muted">{c.type}</span> <code className="url">{c.url}</code>
        {!c.enabled && <span className="badge badge-paused">disabled</span>}
        <div className="muted">
          {c.monitorIds === null ? 'Every monitor' : `${c.monitorIds.length} monitor(s)`}
          {c.hasSecret && ' · signed'}
        </div>
      </div>
      <div className="buttons">
        <button type="button" disabled={action.busy} onClick={() => void test()}>
          Test<span className="sr-only"> {name}</span>
        </button>
        <button type="button" disabled={action.busy} onClick={() => void toggle()}>
          {c.enabled ? 'Disable' : 'Enable'}
          <span className="sr-only"> {name}</span>
        </button>
        <button type="button" disabled={action.busy} onClick={() => void remove()}>
          Delete<span className="sr-only"> {name}</span>
        </button>
      </div>
      {tested && (
        <p className={tested.delivered ? 'ok' : 'error'} role="status">
          {tested.delivered
            ? `Test message delivered (${tested.statusCode === null ? 'sent' : `HTTP ${tested.statusCode}`}, ` +
              `${tested.durationMs} ms).`
            : `Test message not delivered: ${clean(tested.error ?? `HTTP ${tested.statusCode}`)}`}
        </p>
      )}
      <Failure message={action.error} />
    </li>
  );
}

function NewChannel({ created }: { created: () => void }) {
  const action = useAction();
  const [type, setType] = useState<ChannelType>('slack');
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    const url = String(fields.get('url'));
    // Recipients are typed as "a@example.com, b@example.com", or pasted as the mailto: URL the channel list shows; the
    // API takes them as one mailto: URL (and trims them).
    const target = type === 'email' ? `mailto:${url.trim().replace(/^mailto:/i, '')}` : url;
    const request: CreateChannelRequest = { type, url: target };
    const name = String(fields.get('name') ?? '').trim();
    const secret = String(fields.get('secret') ?? '');
    if (name) request.name = name;
    if (type === 'webhook' && secret) request.secret = secret;
    if (await action.run(() => api('POST', 'channels', request))) {
      form.reset();
      created();
    }
  };
  return (
    <form className="stacked" onSubmit={(e) => void submit(e)} aria-label="Add a channel">
      <h2>Add a channel</h2>
      <label>
        Type
        <select name="type" value={type} onChange={(e) => setType(e.currentTarget.value as ChannelType)}>
          {TYPES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <label>
        Name <span className="muted">(optional)</span>
        <input name="name" maxLength={100} />
      </label>
      {type === 'email' ? (
        <label>
          Recipients <span className="muted">(addresses, separated by commas)</span>
          <input name="url" type="text" required placeholder="ops@example.com, oncall@example.com" />
        </label>
      ) : (
        <label>
          {type === 'webhook' ? 'URL' : 'Incoming webhook URL'}
          <input name="url" type="url" required placeholder="https://" />
        </label>
      )}
      {type === 'webhook' && (
        <label>
          Signing secret <span className="muted">(optional)</span>
          <input name="secret" type="password" autoComplete="off" />
        </label>
      )}
      <button type="submit" disabled={action.busy}>
        Add channel
      </button>
      <Failure message={action.error} />
    </form>
  );
}
