import type { Request, ResponseToolkit, Server } from '@hapi/hapi';

/** A check (or rewrite) of every request at one point of its lifecycle: it throws to refuse, or returns a promise. */
export type RequestStep = (request: Request) => void | Promise<void>;

/**
 * `steps` in order as one hapi extension at `point`: each extension costs a request about 2,400 instructions (a
 * toolkit, two promises), and most steps pass a ping at once. A step's promise is waited for before the next.
 */
export function extendRequests(
  server: Server,
  point: 'onPostAuth' | 'onPreHandler',
  steps: readonly RequestStep[],
): void {
  server.ext(point, (request: Request, h: ResponseToolkit) => {
    for (let i = 0; i < steps.length; i++) {
      const waiting = steps[i]!(request);
      if (waiting !== undefined) return theRest(waiting, request, steps.slice(i + 1)).then(() => h.continue);
    }
    return h.continue;
  });
}

async function theRest(waiting: Promise<void>, request: Request, steps: readonly RequestStep[]): Promise<void> {
  await waiting;
  for (const step of steps) await step(request);
}
