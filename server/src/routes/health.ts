import type { ServerRoute } from '@hapi/hapi';
import type { RouteContext } from './context.js';

/** Liveness for load balancers: answers when the server and its database do. */
export function healthRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/health',
      options: { auth: false },
      handler: async () => {
        await ctx.db.sql.rows('select 1', []);
        return { status: 'ok', database: ctx.db.dialect };
      },
    },
  ];
}
