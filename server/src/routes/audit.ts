import Joi from 'joi';
import type { Request, ServerRoute } from '@hapi/hapi';
import type { AuditEntryList } from '@pingmon/sdk/wire';
import { isSlug } from '@pingmon/sdk/wire';
import { actorOf } from '../audit.js';
import { listAuditEntries } from '../db/audit-entries.js';
import { findMonitorId } from '../db/monitors.js';
import { presentAuditEntry } from '../presenter.js';
import type { RouteContext } from './context.js';
import { pageOf, pageQuery, pageStart } from './pagination.js';
import { AuditEntryList as AuditEntryListSchema, replies } from './responses.js';
import { invalidRequest } from './validation.js';

export const listQuery = Joi.object({
  ...pageQuery,
  actor: Joi.string()
    .max(254)
    .description('Only the entries of this user (id or e-mail) or API key (id or prefix)')
    .messages({ '*': 'actor must be a user id or e-mail, or an API key id or prefix' }),
  action: Joi.string()
    .pattern(/^[a-z_]+(\.[a-z_]+)?$/)
    .max(64)
    .description('Only this action (monitor.paused), or every action of a kind (monitor)')
    .messages({ '*': 'action must be an action such as monitor.paused, or a kind of them such as monitor' }),
  monitor: Joi.string()
    .max(64)
    .description('Only the entries about this monitor (id or slug): its own and its rules')
    .messages({ '*': 'monitor must be a monitor id or slug' }),
  since: Joi.date()
    .iso()
    .description('Only the entries from this time on (ISO 8601)')
    .messages({ '*': 'since must be an ISO 8601 time, e.g. 2026-12-01T00:00:00Z' }),
});

export function auditRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/audit',
      options: {
        id: 'listAudit',
        description: "The account's audit trail, newest first: who changed what, when and from where",
        tags: ['audit'],
        plugins: { access: 'admin' },
        response: replies({ 200: AuditEntryListSchema }),
        validate: { query: listQuery, options: { allowUnknown: true }, failAction: invalidRequest },
      },
      handler: (request: Request) => list(ctx, request),
    },
  ];
}

interface ListQuery {
  limit: number;
  cursor?: string;
  actor?: string;
  action?: string;
  monitor?: string;
  since?: Date;
}

async function list(ctx: RouteContext, request: Request): Promise<AuditEntryList> {
  const { limit, cursor, actor, action, monitor, since } = request.query as unknown as ListQuery;
  const { accountId } = actorOf(request)!;
  // A slug names the monitor it is now; a deleted monitor's entries are found by its id.
  const monitorId =
    monitor !== undefined && isSlug(monitor)
      ? ((await findMonitorId(ctx.db.sql, accountId, monitor)) ?? monitor)
      : monitor;
  const filter = { actor, action, monitorId, since: since?.getTime() };
  const fetched = await listAuditEntries(ctx.db.sql, accountId, filter, { limit: limit + 1, after: pageStart(cursor) });
  const page = pageOf(fetched, limit, (entry) => ({ at: entry.at, id: entry.entryId }));
  return { entries: page.items.map(presentAuditEntry), nextCursor: page.nextCursor };
}
