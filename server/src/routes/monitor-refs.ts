import type { Request, Server } from '@hapi/hapi';
import { isSlug } from '@pingmon/sdk/wire';
import type { ApiKeyGrant } from '../db/api-keys.js';
import { findMonitorId } from '../db/monitors.js';
import type { Sql } from '../db/sql.js';
import type { UserCredentials } from '../auth.js';

/**
 * A monitor's slug is accepted wherever its id is (DESIGN §16): before any handler, a `monitorId` in the path or
 * the query that is a slug of the caller's account becomes that monitor's id. A slug the account does not have is
 * left as it is, for the handler's own answer (a 404 naming it; a ping's settings may create it).
 */
export function registerMonitorRefs(server: Server, sql: Sql): void {
  // Not async: a request naming no slug (every ping by id) passes without a promise or a lookup.
  server.ext('onPreHandler', (request, h) => {
    const params = request.params as Partial<Record<'monitorId', string>> | null;
    const query = request.query as Partial<Record<'monitorId', unknown>>;
    const inPath = params?.monitorId !== undefined && isSlug(params.monitorId);
    const inQuery = typeof query.monitorId === 'string' && isSlug(query.monitorId);
    const accountId = inPath || inQuery ? accountOf(request) : undefined;
    if (accountId === undefined) return h.continue;
    return (async () => {
      if (inPath) params!.monitorId = (await findMonitorId(sql, accountId, params!.monitorId!)) ?? params!.monitorId;
      if (inQuery) {
        query.monitorId = (await findMonitorId(sql, accountId, query.monitorId as string)) ?? query.monitorId;
      }
      return h.continue;
    })();
  });
}

function accountOf(request: Request): string | undefined {
  const credentials = request.auth.credentials as { grant?: ApiKeyGrant; user?: UserCredentials } | null;
  return credentials?.grant?.accountId ?? credentials?.user?.accountId;
}
