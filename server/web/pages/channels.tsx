import { useState } from 'react';
import type { Channel, ChannelKindInfo, ChannelKindList, ChannelList, ChannelTestResult } from '@pingmon/sdk/wire';
import { clean, formatDuration } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';
import { nameText } from '../format.js';
import { useAction } from '../components/action.js';
import { ChannelForm } from '../components/channel-form.js';
import { Failure, Problem } from '../components/problem.js';
import { usePoll } from '../use-poll.js';
import { useTitle } from '../title.js';

/** Where alerts are sent, of any kind; each can be edited, tested, paused or removed. */
export function ChannelsPage() {
  useTitle('Channels');
  const { data, error, reload } = usePoll('channels', () => api<ChannelList>('GET', 'channels'));
  const kinds = usePoll('channel-kinds', () => api<ChannelKindList>('GET', 'channel-kinds'));
  // A new form once a channel is added: it starts empty again.
  const [added, setAdded] = useState(0);
  const list = kinds.data?.kinds;
  return (
    <>
      <h1>Channels</h1>
      <Problem error={error ?? kinds.error} stale={data !== undefined} />
      {data?.channels.length === 0 && <p className="empty">No channels: alerts are recorded but sent nowhere.</p>}
      <ul className="items channels">
        {data?.channels.map((channel) => (
          <ChannelItem key={channel.channelId} channel={channel} kinds={list} changed={reload} />
        ))}
      </ul>
      <section aria-labelledby="new-channel-title">
        <h2 id="new-channel-title">New channel</h2>
        {list && list.length > 0 && (
          <ChannelForm
            key={added}
            kinds={list}
            done={() => {
              setAdded((n) => n + 1);
              reload();
            }}
          />
        )}
      </section>
    </>
  );
}

function ChannelItem(props: { channel: Channel; kinds: ChannelKindInfo[] | undefined; changed: () => void }) {
  const { channel: c, kinds, changed } = props;
  const action = useAction();
  const [tested, setTested] = useState<ChannelTestResult>();
  const [editing, setEditing] = useState(false);
  const path = `channels/${id(c.channelId)}`;
  const name = nameText(c.name);
  const kind = kinds?.find((k) => k.type === c.type);
  const test = () => action.run(async () => setTested(await api<ChannelTestResult>('POST', `${path}/test`)));
  const toggle = async () => {
    if (await action.run(() => api('PATCH', path, { enabled: !c.enabled }))) changed();
  };
  const remove = async () => {
    if (window.confirm(`Delete the channel ${name}?`) && (await action.run(() => api('DELETE', path)))) changed();
  };
  const button = (label: string, act: () => unknown) => (
    <button type="button" disabled={action.busy} onClick={() => void act()}>
      {label}
      <span className="sr-only"> {name}</span>
    </button>
  );
  return (
    <li>
      <div>
        <strong>{name}</strong> <span className="muted kind">{kind?.label ?? c.type}</span>{' '}
        <code className="url">{c.url}</code>
        {!c.enabled && <span className="badge badge-paused">disabled</span>}
        <div className="muted">{detailsOf(c)}</div>
      </div>
      <div className="buttons">
        {kind && button(editing ? 'Close' : 'Edit', () => setEditing(!editing))}
        {button('Test', test)}
        {button(c.enabled ? 'Disable' : 'Enable', toggle)}
        {button('Delete', remove)}
      </div>
      {editing && kind && kinds && (
        <ChannelForm
          kinds={kinds}
          saved={c}
          done={() => {
            setEditing(false);
            changed();
          }}
          cancel={() => setEditing(false)}
        />
      )}
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

function detailsOf(c: Channel): string {
  return [
    c.monitorIds === null ? 'Every monitor' : `${c.monitorIds.length} monitor(s)`,
    c.hasSecret && 'with a secret',
    c.repeatEvery !== null && `repeats every ${formatDuration(c.repeatEvery)}`,
    c.escalateAfter !== null && `after ${formatDuration(c.escalateAfter)} open`,
  ]
    .filter(Boolean)
    .join(' · ');
}
