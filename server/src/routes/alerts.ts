import Joi from 'joi';
import type { Request, ServerRoute } from '@hapi/hapi';
import type { AlertList } from '@pingmon/sdk/wire';
import { userOf } from '../auth.js';
import { listAlerts } from '../db/alerts.js';
import { listDeliveries } from '../db/deliveries.js';
import { presentAlert } from '../presenter.js';
import type { RouteContext } from './context.js';
import { requireMonitor } from './monitors.js';
import { pageOf, pageQuery, pageStart } from './pagination.js';
import { AlertList as AlertListSchema, replies } from './responses.js';
import { invalidRequest } from './validation.js';

export const listQuery = Joi.object({ ...pageQuery, monitorId: Joi.string().min(1).max(64) });

export function alertRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/alerts',
      options: {
        id: 'listAlerts',
        plugins: { access: 'read', keyMonitors: 'filtered' },
        description: 'Recent alerts and their deliveries, newest first',
        tags: ['alerts'],
        response: replies({ 200: AlertListSchema }),
        validate: { query: listQuery, options: { allowUnknown: true }, failAction: invalidRequest },
      },
      handler: (request: Request) => list(ctx, request),
    },
  ];
}

async function list(ctx: RouteContext, request: Request): Promise<AlertList> {
  const { limit, cursor, monitorId } = request.query as { limit: number; cursor?: string; monitorId?: string };
  const { accountId, monitorIds } = userOf(request);
  if (monitorId !== undefined) await requireMonitor(ctx, accountId, monitorId);
  const page = { limit: limit + 1, monitorId, monitorIds, after: pageStart(cursor) };
  const fetched = await listAlerts(ctx.db.sql, accountId, page);
  const shown = pageOf(fetched, limit, (alert) => ({ at: alert.createdAt, id: alert.alertId }));
  const deliveries = await listDeliveries(
    ctx.db.sql,
    shown.items.map((a) => a.alertId),
  );
  const alerts = shown.items.map((alert) => presentAlert(alert, deliveries.get(alert.alertId) ?? []));
  return { alerts, nextCursor: shown.nextCursor };
}
