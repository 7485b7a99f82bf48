/**
 * What a request must be allowed to do to reach a route (docs/api.md#roles). Every route a user or an API key
 * reaches declares it as `options.plugins.access`:
 *
 * - `read`: viewers and up, `read` and `write` keys (lists, details, logs, previews that change nothing);
 * - `write`: members and up, `write` keys (monitors, rules, channels, maintenance windows);
 * - `admin`: admins and owners, no key (users, API keys, the audit trail, the status page);
 * - `self`: any signed-in user about their own account, no key (password, sessions, second factor).
 *
 * Owners alone may touch owners: that rule is the users routes' own.
 */
export type Access = 'read' | 'write' | 'admin' | 'self';

declare module '@hapi/hapi' {
  interface PluginSpecificConfiguration {
    access?: Access;
  }
}
