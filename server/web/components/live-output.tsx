import { useEffect, useRef, useState } from 'react';
import type { RunOutput } from '@pingmon/sdk/wire';
import { clean } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';

/** How often a running run's output is read: the wrapper sends it about once a second. */
const POLL_MS = 1_000;
/** What the page keeps: the server's window, the newest 64 KiB. */
const KEPT_CHARS = 65_536;

/**
 * A running run's output as it arrives (docs/dashboard.md#live-output): read from where the last read ended,
 * once a second while the tab is shown, kept to the last 64 KiB. When the run ends, `ended` is called (the page
 * reads the run again and shows its stored log in place of this).
 */
export function LiveOutput({ monitorId, runId, ended }: { monitorId: string; runId: string; ended: () => void }) {
  const [text, setText] = useState('');
  const [cut, setCut] = useState(false);
  const endedRef = useRef(ended);
  endedRef.current = ended;
  const box = useRef<HTMLPreElement>(null);

  useEffect(() => {
    let live = true;
    let after = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const path = `monitors/${id(monitorId)}/runs/${id(runId)}/output`;
    const tick = async () => {
      if (document.visibilityState !== 'hidden') {
        try {
          const output = await api<RunOutput>('GET', `${path}?after=${after}`);
          if (!live) return;
          if (output.from > after) setCut(true);
          after = output.next;
          if (output.text !== '') setText((old) => (old + output.text).slice(-KEPT_CHARS));
          if (!output.running) return endedRef.current();
        } catch {
          // Read again at the next tick: the page's own poll shows the server's trouble.
        }
      }
      if (live) timer = setTimeout(() => void tick(), POLL_MS);
    };
    void tick();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [monitorId, runId]);

  // Kept scrolled to the newest line, unless the reader scrolled up.
  useEffect(() => {
    const pre = box.current;
    if (pre && pre.scrollHeight - pre.scrollTop - pre.clientHeight < 80) pre.scrollTop = pre.scrollHeight;
  }, [text]);

  return (
    <section className="log" aria-label="Live output">
      <div className="log-head">
        <h3>Live output</h3>
        <span className="muted">{cut ? 'the newest 64 KiB, ' : ''}read once a second while the run runs</span>
      </div>
      <pre ref={box} className="log-text live" tabIndex={0}>
        {text === '' ? <span className="muted">No output yet.</span> : clean(text)}
      </pre>
    </section>
  );
}
