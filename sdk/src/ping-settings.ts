import { PingmonError } from './errors.js';
import type { MonitorSettings } from './types.js';

// A start ping may carry its monitor's settings (`"monitor": {…}`, the fields of POST /monitors): the server makes
// or updates the monitor with them. Settings it refuses never cost the run: the start is sent again without them.

/** The settings a start carries: only those given change (docs/api.md). */
export interface PingSettings extends Partial<MonitorSettings> {
  name?: string;
}

/**
 * Whether a start that carried settings was refused for them, as far as the answer tells: pingmon's own 4xx other
 * than those about the key (401), the monitor (404), the time or the rate (408, 409, 429), which the same start
 * without its settings would get too.
 */
export function settingsRefused(err: PingmonError): boolean {
  const aboutTheRest = [401, 404, 408, 409, 429];
  return err.status >= 400 && err.status < 500 && !aboutTheRest.includes(err.status) && !/^http_/.test(err.code);
}

/** A body that carried settings, without them; undefined when it carried none. */
export function withoutSettings<T extends object>(body: T): T | undefined {
  if (!('monitor' in body) || body.monitor === undefined) return undefined;
  const rest: Record<string, unknown> = { ...body };
  delete rest.monitor;
  return rest as T;
}

/** What is reported when the settings were refused and the start goes again without them. */
export function settingsRefusal(err: PingmonError): PingmonError {
  return new PingmonError({
    ...{ status: err.status, code: err.code, method: err.method, url: err.url, cause: err },
    message: `the monitor settings were refused (${err.message}): the run is reported without them`,
  });
}
