/**
 * Resolves with the first truthy value of `check`, polled every few milliseconds; rejects after
 * `timeoutMs` with the last value seen, so a failure says what was there instead.
 */
export async function waitFor<T>(check: () => T | Promise<T>, options: { timeoutMs?: number; what?: string } = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  let last: T | undefined;
  for (;;) {
    last = await check();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${options.what ?? 'a condition'}; last seen: ${JSON.stringify(last)?.slice(0, 500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
