import type { Request } from '@hapi/hapi';
import type { Access } from './access.js';
import type { Caller } from './auth.js';
import type { ApiKeyGrant } from './db/api-keys.js';
import type { Asker, Refusal } from './domain/access.js';
import { accessRefusal, wholeAccountRefusal } from './domain/access.js';
import { apiError } from './errors.js';

declare module '@hapi/hapi' {
  interface PluginSpecificConfiguration {
    /**
     * How a route without a monitor in its path answers a key limited to some monitors: `filtered`, its handler
     * keeps to the key's monitors (lists). Left out, such a key is refused: the route concerns the whole account.
     */
    keyMonitors?: 'filtered';
  }
}

/** The level of a route that declares none: the strictest, so that a route left undeclared is no way in. */
const UNDECLARED: Access = 'admin';

/**
 * The access check of every route (docs/api.md#roles), written once: after authentication (roleCheck), the caller's
 * role or key scope against the route's `plugins.access`; before the handler (keyMonitorCheck, after
 * routes/monitor-refs.ts has turned slugs into ids), a key limited to some monitors against the monitor the request
 * names.
 */
export function roleCheck(request: Request): void {
  const caller = callerOf(request);
  if (caller === undefined) return;
  const access = request.route.settings.plugins?.access ?? UNDECLARED;
  const refusal = accessRefusal(access, askerOf(caller), actionOf(request));
  if (refusal) throw errorOf(refusal);
}

export function keyMonitorCheck(request: Request): void {
  const limits = limitsOf(request);
  if (limits === null) return;
  const named = monitorNamed(request);
  if (named === undefined) {
    if (request.route.settings.plugins?.keyMonitors === 'filtered') return;
    throw errorOf(wholeAccountRefusal(actionOf(request)));
  }
  if (!limits.includes(named))
    throw apiError(
      404,
      'monitor_not_found',
      `No monitor ${named} among the monitors this API key is limited to. ` +
        'GET /api/v1/api-keys lists the monitors of each key.',
    );
}

function callerOf(request: Request): Caller | undefined {
  return (request.auth.credentials as { caller?: Caller } | null)?.caller;
}

function askerOf(caller: Caller): Asker {
  return caller.kind === 'user' ? { kind: 'user', role: caller.role } : { kind: 'key', scope: caller.scope };
}

/** The monitors the request's key is limited to; null for a user, or a key of every monitor. */
function limitsOf(request: Request): readonly string[] | null {
  const credentials = request.auth.credentials as { caller?: Caller; grant?: ApiKeyGrant } | null;
  return credentials?.caller?.monitorIds ?? credentials?.grant?.monitorIds ?? null;
}

/** The monitor of the request's path, else of its query (`GET /alerts?monitorId=`). */
function monitorNamed(request: Request): string | undefined {
  const inPath = (request.params as { monitorId?: string } | null)?.monitorId;
  if (inPath !== undefined) return inPath;
  const inQuery = (request.query as { monitorId?: unknown }).monitorId;
  return typeof inQuery === 'string' ? inQuery : undefined;
}

function actionOf(request: Request): string {
  return `${request.method.toUpperCase()} ${request.route.path}`;
}

function errorOf(refusal: Refusal) {
  return apiError(refusal.status, refusal.code, refusal.message);
}
