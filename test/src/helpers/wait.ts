export interface WaitOptions {
  /** How long to keep polling; 15 s unless told. */
  timeoutMs?: number;
  /** Pause between two checks. */
  intervalMs?: number;
  /** What is waited for, for the error. */
  what?: string;
  /** What the error shows of the last check; by default its value as JSON. */
  show?: (last: unknown) => string;
}

/**
 * The one poll loop of the tests: resolves with the first truthy value of `check`; rejects once
 * `timeoutMs` has passed, with what the last check saw, so a failure says what was there instead.
 */
export async function waitFor<T>(check: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  const show = options.show ?? ((last: unknown) => `last seen: ${JSON.stringify(last)?.slice(0, 500)}`);
  for (;;) {
    const last = await check();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? 'a condition'}; ${show(last)}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 10));
  }
}
