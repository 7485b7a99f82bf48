import type { FormEvent } from 'react';
import { useState } from 'react';
import type { ApiKey, ApiKeyList, CreatedApiKey } from '@pingmon/sdk/wire';
import { KEY_SCOPES } from '@pingmon/sdk/wire';
import { api, id, query } from '../api.js';
import { useAction } from '../components/action.js';
import { Pager, usePages } from '../components/pager.js';
import { Failure, Problem } from '../components/problem.js';
import { nameText, when } from '../format.js';
import { usePoll } from '../use-poll.js';
import { useTitle } from '../title.js';

const PAGE = 25;

/**
 * The account's API keys: ping keys (what jobs ping with), read and write keys (the management API for scripts). A
 * new key is shown once, here, and never again.
 */
export function KeysPage() {
  useTitle('API keys');
  const pages = usePages();
  const path = `api-keys${query({ limit: PAGE, cursor: pages.cursor })}`;
  const { data, error, loading, reload } = usePoll(path, () => api<ApiKeyList>('GET', path));
  const action = useAction();
  const [created, setCreated] = useState<CreatedApiKey>();
  const [copied, setCopied] = useState<string>();
  // The clipboard is only there on HTTPS and localhost: elsewhere the key is selected, to copy by hand.
  const copy = async (key: string) => {
    try {
      await navigator.clipboard.writeText(key);
      setCopied('Copied.');
    } catch {
      const text = document.querySelector('.new-key .secret');
      if (text) window.getSelection()?.selectAllChildren(text);
      setCopied('The browser refused the clipboard: the key is selected, copy it with Ctrl-C.');
    }
  };

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const body = { name: String(data.get('name') ?? '').trim() || 'unnamed', scope: data.get('scope') ?? 'ping' };
    if (await action.run(async () => setCreated(await api<CreatedApiKey>('POST', 'api-keys', body)))) {
      form.reset();
      reload();
    }
  };
  const revoke = async (key: ApiKey) => {
    const question = `Revoke the key ${nameText(key.name)} (${key.prefix}…)? Jobs using it stop being recorded.`;
    if (!window.confirm(question)) return;
    if (await action.run(() => api('DELETE', `api-keys/${id(key.keyId)}`))) reload();
  };

  return (
    <>
      <h1>API keys</h1>
      <Problem error={error} stale={data !== undefined} />
      {created && (
        <div className="new-key" role="status">
          <p>
            The new key <strong>{nameText(created.name)}</strong>. Copy it now: it is not shown again.
          </p>
          <code className="secret">{created.key}</code>
          <button type="button" onClick={() => void copy(created.key)}>
            Copy
          </button>
          {copied && <span role="status">{copied}</span>}
          <button
            type="button"
            onClick={() => {
              setCreated(undefined);
              setCopied(undefined);
            }}
          >
            Done
          </button>
        </div>
      )}
      <ul className="items">
        {data?.apiKeys.map((key) => (
          <li key={key.keyId}>
            <div>
              <strong>{nameText(key.name)}</strong> <code>{key.prefix}…</code>
              <div className="muted">
                {scopeText(key)} · created {when(key.createdAt)}
                {key.lastUsedAt && ` · last used ${when(key.lastUsedAt)}`}
                {key.revokedAt && ` · revoked ${when(key.revokedAt)}`}
              </div>
            </div>
            {!key.revokedAt && (
              <button type="button" disabled={action.busy} onClick={() => void revoke(key)}>
                Revoke<span className="sr-only"> {nameText(key.name)}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      <Pager pages={pages} nextCursor={data?.nextCursor} loading={loading} what="API keys" />
      <form className="inline" onSubmit={(e) => void create(e)} aria-label="Create an API key">
        <label>
          Name
          <input name="name" maxLength={100} placeholder="backups host" />
        </label>
        <label>
          Scope
          <select name="scope" defaultValue="ping">
            {KEY_SCOPES.map((scope) => (
              <option key={scope}>{scope}</option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={action.busy}>
          Create key
        </button>
      </form>
      <Failure message={action.error} />
    </>
  );
}

/** What the key may do: "ping", "ping-only", "read, 2 monitors" (docs/api.md#roles). */
function scopeText(key: ApiKey): string {
  const scope = key.scope === 'ping' && !key.provision ? 'ping-only' : key.scope;
  const count = key.monitorIds?.length;
  return count === undefined ? scope : `${scope}, ${count} monitor${count === 1 ? '' : 's'}`;
}
