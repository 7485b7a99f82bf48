import type { ServerRoute } from '@hapi/hapi';
import type { RouteContext } from './context.js';
import { Health, replies } from './responses.js';

/**
 * Liveness for load balancers: 200 when the server and its database answer, else 503 database_unavailable
 * (the error shape). Checked on every call, so it is 200 again at the first call after the database is back.
 */
export function healthRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/health',
      options: {
        id: 'getHealth',
        auth: false,
        description: 'Is the server up?',
        tags: ['server'],
        response: replies({ 200: Health }, [503]),
      },
      handler: async () => {
        await ctx.db.check();
        return { status: 'ok', database: ctx.db.dialect };
      },
    },
  ];
}
