import type { FormEvent } from 'react';
import { useEffect, useRef, useState } from 'react';
import type { Monitor } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';
import { nameText } from '../format.js';
import { editPath, Link, navigate } from '../router.js';
import { useAction } from './action.js';
import { Failure } from './problem.js';
import '../styles/manage.css';

/** The monitors page's way to a new monitor. */
export function NewMonitorLink() {
  return (
    <Link to="/monitors/new" className="button-link primary">
      New monitor
    </Link>
  );
}

/** A monitor page's Edit and Delete. */
export function MonitorActions({ monitor }: { monitor: Monitor }) {
  const [asking, setAsking] = useState(false);
  return (
    <div className="monitor-actions buttons">
      <Link to={editPath(monitor.slug)} className="button-link">
        Edit<span className="sr-only"> {nameText(monitor.name)}</span>
      </Link>
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        Delete…
      </button>
      {asking && <DeleteDialog monitor={monitor} onCancel={() => setAsking(false)} />}
    </div>
  );
}

/**
 * Asks before deleting, in a modal dialog (Escape or Cancel keeps the monitor): the slug must be typed, as a
 * deletion takes every run, log, rule and alert with it.
 */
function DeleteDialog({ monitor, onCancel }: { monitor: Monitor; onCancel: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
  const action = useAction();
  useEffect(() => {
    const box = dialog.current!;
    box.showModal();
    return () => box.close();
  }, []);
  const confirmed = typed.trim() === monitor.slug;
  const remove = async (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed) return;
    if (await action.run(() => api('DELETE', `monitors/${id(monitor.monitorId)}`))) navigate('/');
  };
  return (
    <dialog ref={dialog} className="confirm" aria-labelledby="delete-title" onClose={onCancel}>
      <form onSubmit={(e) => void remove(e)}>
        <h2 id="delete-title">Delete {nameText(monitor.name)}?</h2>
        <p>
          This deletes the monitor with all its runs, logs, alert rules and alerts. Pings to it will be refused. There
          is no undo.
        </p>
        <label>
          <span>
            Type its slug, <code>{monitor.slug}</code>, to confirm
          </span>
          <input
            value={typed}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setTyped(e.currentTarget.value)}
          />
        </label>
        <Failure message={action.error} />
        <div className="buttons">
          <button type="submit" className="danger" disabled={!confirmed || action.busy}>
            Delete monitor
          </button>
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
