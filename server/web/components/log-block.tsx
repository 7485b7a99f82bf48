import { useEffect, useId, useState } from 'react';
import { clean, LOG_COLLAPSE_OVER } from '@pingmon/sdk/wire';

/** Characters of a collapsed log shown above the Expand button. */
const PREVIEW_CHARS = 300;
/** Lines past which an expanded log scrolls in a box of its own instead of growing the page. */
const LONG_LOG_LINES = 1000;
/** How long "Copied" stays shown. */
const SAID_MS = 4000;

/**
 * A run's log (SPEC §6): text only, its terminal escapes removed; longer than 400 characters it starts collapsed
 * with an Expand button, and can collapse again. It stays as the reader left it while the page refreshes.
 * Copy puts the text shown on the clipboard; Download saves the log as stored, as `fileName`.
 */
export function LogBlock({ content, fileName }: { content: string; fileName: string }) {
  const text = clean(content);
  const collapsible = text.length > LOG_COLLAPSE_OVER;
  const [expanded, setExpanded] = useState(false);
  const blockId = useId();
  const open = !collapsible || expanded;
  // The preview ends at a line's end when one is near enough.
  const lineEnd = text.lastIndexOf('\n', PREVIEW_CHARS);
  const preview = text.slice(0, lineEnd > PREVIEW_CHARS / 2 ? lineEnd : PREVIEW_CHARS);
  const long = open && lineCount(text) > LONG_LOG_LINES;
  const { said, copy } = useCopy(text);
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
        <button type="button" onClick={(e) => void copy(e.currentTarget)}>
          Copy
        </button>
        <button type="button" onClick={() => download(content, fileName)}>
          Download
        </button>
        <span role="status" className={said === 'Copied' ? 'ok' : 'error'}>
          {said}
        </span>
      </div>
      <pre id={blockId} className={open ? `log-text${long ? ' long' : ''}` : 'log-text collapsed'} tabIndex={0}>
        {open ? text : `${preview}…`}
      </pre>
      {!open && (
        <p className="muted">{(text.length - preview.length).toLocaleString('en-US')} more characters hidden.</p>
      )}
    </section>
  );
}

function lineCount(text: string): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

/** Copies `text`, then says "Copied" for a few seconds (or how to copy by hand, when the browser refuses). */
function useCopy(text: string): { said: string | undefined; copy: (button: HTMLButtonElement) => Promise<void> } {
  const [said, setSaid] = useState<string>();
  useEffect(() => {
    if (said === undefined) return;
    const timer = setTimeout(() => setSaid(undefined), SAID_MS);
    return () => clearTimeout(timer);
  }, [said]);
  const copy = async (button: HTMLButtonElement) => {
    const done = await copyText(text);
    button.focus(); // the fallback's selection took the focus
    setSaid(done ? 'Copied' : 'Not copied: select the log and press Ctrl+C (⌘C).');
  };
  return { said, copy };
}

/**
 * The clipboard API needs a secure context (HTTPS or localhost): over plain HTTP, the older way of copying a
 * selection still works in current browsers.
 */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.readOnly = true;
    area.className = 'offscreen';
    document.body.append(area);
    area.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

/** The log as stored (its escapes too: it is a file, not the page), saved by the browser as `fileName`. */
function download(content: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // Revoked once the browser has surely read it (a click starts the download, but not at once).
  setTimeout(() => URL.revokeObjectURL(url), 40_000);
}
