import type { Request } from '@hapi/hapi';
import { isSlug } from '@pingmon/sdk/wire';
import type { ApiKeyGrant } from '../db/api-keys.js';
import { findMonitorId } from '../db/monitors.js';
import type { Sql } from '../db/sql.js';
import type { Caller } from '../auth.js';
import type { RequestStep } from '../request-steps.js';

/**
 * A monitor's slug is accepted wherever its id is (DESIGN §16): before any handler, a `monitorId` in the path or
 * the query, or one in a body's `monitorIds` (channels, maintenance windows), that is a slug of the caller's account
 * becomes that monitor's id. A slug the account does not have is left as it is, for the handler's own answer (a 404
 * naming it; a ping's settings may create it).
 */
export function monitorRefs(sql: Sql): RequestStep {
  // Not async: a request naming no slug (every ping by id) passes without a promise or a lookup.
  return (request) => {
    const params = request.params as Partial<Record<'monitorId', string>> | null;
    const query = request.query as Partial<Record<'monitorId', unknown>>;
    const payload = request.payload as { monitorIds?: unknown } | null;
    const inPath = params?.monitorId !== undefined && isSlug(params.monitorId);
    const inQuery = typeof query.monitorId === 'string' && isSlug(query.monitorId);
    const inBody = Array.isArray(payload?.monitorIds) && payload.monitorIds.some((ref) => isSlug(String(ref)));
    const accountId = inPath || inQuery || inBody ? accountOf(request) : undefined;
    if (accountId === undefined) return;
    const idOf = async (ref: string) => (isSlug(ref) ? ((await findMonitorId(sql, accountId, ref)) ?? ref) : ref);
    return (async () => {
      if (inPath) params!.monitorId = await idOf(params!.monitorId!);
      if (inQuery) query.monitorId = await idOf(query.monitorId as string);
      if (inBody) payload!.monitorIds = [...new Set(await Promise.all((payload!.monitorIds as string[]).map(idOf)))];
    })();
  };
}

function accountOf(request: Request): string | undefined {
  const credentials = request.auth.credentials as { grant?: ApiKeyGrant; caller?: Caller } | null;
  return credentials?.grant?.accountId ?? credentials?.caller?.accountId;
}
