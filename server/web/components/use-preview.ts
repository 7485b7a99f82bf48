import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../api.js';

/** How long typing must pause before a preview is asked for. */
export const PREVIEW_DELAY_MS = 300;

export type Preview<T> =
  { state: 'idle' } | { state: 'waiting' } | { state: 'shown'; data: T } | { state: 'refused'; error: ApiError };

/**
 * The server's preview of what is being typed: asked PREVIEW_DELAY_MS after the last change of `key` (what is typed,
 * as text), never for `key` undefined (nothing to ask). An answer to what was typed before the latest change is
 * dropped, so the page never shows the preview of an older text.
 */
export function usePreview<T>(key: string | undefined, load: () => Promise<T>): Preview<T> {
  const [preview, setPreview] = useState<Preview<T>>({ state: 'idle' });
  const loader = useRef(load);
  loader.current = load;
  useEffect(() => {
    if (key === undefined) return void setPreview({ state: 'idle' });
    let live = true;
    setPreview((old) => (old.state === 'idle' ? { state: 'waiting' } : old));
    const timer = setTimeout(() => {
      loader.current().then(
        (data) => live && setPreview({ state: 'shown', data }),
        (err) => {
          const error = err instanceof ApiError ? err : new ApiError(0, 'error', String(err));
          if (live) setPreview({ state: 'refused', error });
        },
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key]);
  return preview;
}
