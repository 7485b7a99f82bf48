import { PingmonError } from './errors.js';

// A ping's monitor settings (docs/api.md#monitor-settings-in-a-ping): what refuses them leaves the ping itself fine,
// to be sent again without them.

/** The codes of a refusal of a ping's `monitor` settings alone. */
export const SETTINGS_REFUSALS: readonly string[] = ['invalid_settings', 'provision_refused', 'monitor_limit_reached'];

/** Whether `err` refused the settings of a ping that carried `body`, not the ping. */
export function refusedSettings(err: unknown, body: object): err is PingmonError {
  return err instanceof PingmonError && 'monitor' in body && SETTINGS_REFUSALS.includes(err.code);
}

/** `body` without its settings. */
export function withoutSettings<T extends object>(body: T): Omit<T, 'monitor'> {
  const { monitor: _, ...plain } = body as T & { monitor?: unknown };
  return plain;
}

/** What is reported of a refusal: its reason, once, and that the ping went without the settings. */
export function settingsRefusal(err: PingmonError): PingmonError {
  const message = `${err.message.replace(/ Nothing was recorded\.$/, '')} The ping is sent without the settings.`;
  return new PingmonError({ ...err, message, cause: err });
}
