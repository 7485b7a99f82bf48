import { useState } from 'react';

/**
 * A change made from a page (create, delete, test): runs `act`, keeps its error message to show, and is `busy`
 * meanwhile so the button cannot send twice.
 */
export function useAction(): {
  busy: boolean;
  error: string | undefined;
  run: (act: () => Promise<unknown>) => Promise<boolean>;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = async (act: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await act();
      return true;
    } catch (err) {
      setError((err as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
