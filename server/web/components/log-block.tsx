import { useId, useState } from 'react';
import { clean, LOG_COLLAPSE_OVER } from '@pingmon/sdk/wire';

/** Characters of a collapsed log shown above the Expand button. */
const PREVIEW_CHARS = 300;

/**
 * A run's log (SPEC §6): text only, its terminal escapes removed; longer than 400 characters it starts collapsed
 * with an Expand button, and can collapse again. It stays as the reader left it while the page refreshes.
 */
export function LogBlock({ content }: { content: string }) {
  const text = clean(content);
  const collapsible = text.length > LOG_COLLAPSE_OVER;
  const [expanded, setExpanded] = useState(false);
  const blockId = useId();
  const open = !collapsible || expanded;
  // The preview ends at a line's end when one is near enough.
  const lineEnd = text.lastIndexOf('\n', PREVIEW_CHARS);
  const preview = text.slice(0, lineEnd > PREVIEW_CHARS / 2 ? lineEnd : PREVIEW_CHARS);
  return (
    <section className="log" aria-label="Log">
      <div className="log-head">
        <h3>Log</h3>
        <span className="muted">{text.length.toLocaleString('en-US')} characters</span>
        {collapsible && (
          <button type="button" aria-expanded={expanded} aria-controls={blockId} onClick={() => setExpanded(!expanded)}>
            {expanded ? 'Collapse' : 'Expand'}
          </button>
        )}
      </div>
      <pre id={blockId} className={open ? 'log-text' : 'log-text collapsed'} tabIndex={0}>
        {open ? text : `${preview}…`}
      </pre>
      {!open && (
        <p className="muted">{(text.length - preview.length).toLocaleString('en-US')} more characters hidden.</p>
      )}
    </section>
  );
}
