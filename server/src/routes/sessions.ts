import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { EndedSessions, SessionList } from '@pingmon/sdk/wire';
import { signedInUserOf } from '../auth.js';
import { endOtherSessions, endOwnSession, listLiveSessions } from '../db/sessions.js';
import { apiError } from '../errors.js';
import { presentSession } from '../presenter.js';
import type { RouteContext } from './context.js';
import { EndedSessions as EndedSchema, SessionList as SessionListSchema, replies } from './responses.js';
import type { WithParams } from './validation.js';
import { invalidRequest, pathParams } from './validation.js';

// The signed-in user's own sessions (docs/api.md#sessions): each login, dashboard sign-in or CLI login is one.
export function sessionRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/me/sessions',
      options: {
        id: 'listSessions',
        description: 'Your live sessions, newest first, the current one marked',
        tags: ['auth'],
        plugins: { access: 'self' },
        response: replies({ 200: SessionListSchema }),
      },
      handler: (request: Request) => list(ctx, request),
    },
    {
      method: 'DELETE',
      path: '/me/sessions/{sessionId}',
      options: {
        id: 'revokeSession',
        description: 'End one of your sessions: its token is refused from the next request on',
        tags: ['auth'],
        plugins: { access: 'self' },
        response: replies({ 204: false }, [404]),
        validate: { params: pathParams('sessionId'), failAction: invalidRequest },
      },
      handler: (request: Request<WithParams<'sessionId'>>, h: ResponseToolkit) => revoke(ctx, request, h),
    },
    {
      method: 'DELETE',
      path: '/me/sessions',
      options: {
        id: 'revokeOtherSessions',
        description: 'Sign out everywhere else: every session of yours ends but this one',
        tags: ['auth'],
        plugins: { access: 'self' },
        response: replies({ 200: EndedSchema }),
      },
      handler: (request: Request) => revokeOthers(ctx, request),
    },
  ];
}

async function list(ctx: RouteContext, request: Request): Promise<SessionList> {
  const user = signedInUserOf(request);
  const sessions = await listLiveSessions(ctx.db.sql, user, Date.now());
  return { sessions: sessions.map((session) => presentSession(session, user.sessionId)) };
}

async function revoke(ctx: RouteContext, request: Request<WithParams<'sessionId'>>, h: ResponseToolkit) {
  const { sessionId } = request.params;
  // Another user's session, or one ended or expired, is not found alike: nothing tells one from the other.
  if (!(await endOwnSession(ctx.db.sql, { ...signedInUserOf(request), sessionId }, Date.now())))
    throw apiError(
      404,
      'session_not_found',
      `You have no live session ${sessionId}: list yours with GET /api/v1/me/sessions (or \`pingmon sessions list\`).`,
    );
  return h.response().code(204);
}

async function revokeOthers(ctx: RouteContext, request: Request): Promise<EndedSessions> {
  const user = signedInUserOf(request);
  return { ended: await endOtherSessions(ctx.db.sql, user, user.sessionId, Date.now()) };
}
