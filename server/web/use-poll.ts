import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from './api.js';

/** How often an open page reads its data again. */
export const REFRESH_MS = 5_000;

export interface Polled<T> {
  data: T | undefined;
  error: ApiError | undefined;
  /** Reads again now (after a change made on the page). */
  reload: () => void;
}

/**
 * Reads `load` now and every REFRESH_MS while the page is open and visible, replacing the data in place: what the
 * page holds in its own state (an expanded log, a form being typed) stays as it is. A new `key` starts over.
 */
export function usePoll<T>(key: string, load: () => Promise<T>): Polled<T> {
  const [state, setState] = useState<{ key: string; data?: T; error?: ApiError }>({ key });
  const loader = useRef(load);
  loader.current = load;
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let live = true;
    const tick = async () => {
      if (document.visibilityState !== 'hidden') {
        try {
          const data = await loader.current();
          if (live) setState({ key, data });
        } catch (err) {
          const error = err instanceof ApiError ? err : new ApiError(0, 'error', String(err));
          if (live) setState((old) => ({ key, data: old.key === key ? old.data : undefined, error }));
        }
      }
      if (live) timer = setTimeout(() => void tick(), REFRESH_MS);
    };
    void tick();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const current = state.key === key;
  return { data: current ? state.data : undefined, error: current ? state.error : undefined, reload };
}
