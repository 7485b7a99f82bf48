import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from './api.js';

/** How often an open page reads its data again. */
export const REFRESH_MS = 5_000;

export interface Polled<T> {
  data: T | undefined;
  error: ApiError | undefined;
  /** True while a new key's first read is on its way (`data` is still the previous key's). */
  loading: boolean;
  /** Reads again now (after a change made on the page). */
  reload: () => void;
}

/**
 * Reads `load` now and every REFRESH_MS while the page is visible (and at once when it becomes visible again),
 * replacing the data in place: what the page holds in its own state (an expanded log, a form being typed) stays as
 * it is. A new `key` (the next page of a list) reads at once; meanwhile the previous key's data stays shown, so the
 * page does not jump. Components showing another thing (another monitor) are keyed by it, and start empty.
 */
export function usePoll<T>(key: string, load: () => Promise<T>): Polled<T> {
  const [state, setState] = useState<{ key: string; data?: T; error?: ApiError }>({ key });
  const loader = useRef(load);
  loader.current = load;
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let live = true;
    let first = true;
    let busy = false;
    const tick = async () => {
      // One read at a time: a tab shown again while a read is on its way waits for that one.
      if (busy) return;
      busy = true;
      clearTimeout(timer);
      if (first || document.visibilityState !== 'hidden') {
        first = false;
        try {
          const data = await loader.current();
          if (live) setState({ key, data });
        } catch (err) {
          const error = err instanceof ApiError ? err : new ApiError(0, 'error', String(err));
          if (live) setState((old) => ({ key, data: old.data, error }));
        }
      }
      busy = false;
      if (live) timer = setTimeout(() => void tick(), REFRESH_MS);
    };
    const shown = () => document.visibilityState === 'visible' && void tick();
    document.addEventListener('visibilitychange', shown);
    void tick();
    return () => {
      live = false;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', shown);
    };
  }, [key, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const current = state.key === key;
  return { data: state.data, error: current ? state.error : undefined, loading: !current, reload };
}
