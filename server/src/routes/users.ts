import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { Role, User, UserList } from '@pingmon/sdk/wire';
import { ROLES } from '@pingmon/sdk/wire';
import { signedInUserOf } from '../auth.js';
import { listUsers } from '../db/users.js';
import { apiError } from '../errors.js';
import { presentUser } from '../presenter.js';
import type { UserChange } from '../use-cases/users.js';
import { changeUser } from '../use-cases/users.js';
import type { RouteContext } from './context.js';
import { replies, User as UserSchema, UserList as UserListSchema } from './responses.js';
import type { WithParams } from './validation.js';
import { invalidRequest, pathParams } from './validation.js';

export const roleField = Joi.string()
  .valid(...ROLES)
  .meta({ type: 'Role' })
  .messages({ '*': `role must be one of ${ROLES.join(', ')}` });

export const updateUserBody = Joi.object({ role: roleField.required() }).options({ stripUnknown: true });

const byId = { params: pathParams('userId'), failAction: invalidRequest };

export function userRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/users',
      options: {
        id: 'listUsers',
        plugins: { access: 'admin' },
        description: "The account's users and their roles",
        tags: ['users'],
        response: replies({ 200: UserListSchema }),
      },
      handler: (request: Request) => list(ctx, request),
    },
    {
      method: 'PATCH',
      path: '/users/{userId}',
      options: {
        id: 'setUserRole',
        plugins: { access: 'admin' },
        description: "Change a user's role (owners alone change owners; the last owner stays one)",
        tags: ['users'],
        response: replies({ 200: UserSchema }, [403, 404, 409]),
        validate: { ...byId, payload: updateUserBody },
      },
      handler: (request: Request<WithParams<'userId'>>) => setRole(ctx, request),
    },
    {
      method: 'DELETE',
      path: '/users/{userId}',
      options: {
        id: 'removeUser',
        plugins: { access: 'admin' },
        description: 'Remove a user: their sessions end at once (owners alone remove owners; never the last)',
        tags: ['users'],
        response: replies({ 204: false }, [403, 404, 409]),
        validate: byId,
      },
      handler: (request: Request<WithParams<'userId'>>, h: ResponseToolkit) => remove(ctx, request, h),
    },
  ];
}

async function list(ctx: RouteContext, request: Request): Promise<UserList> {
  const users = await listUsers(ctx.db.sql, signedInUserOf(request).accountId);
  return { users: users.map(presentUser), nextCursor: null };
}

async function setRole(ctx: RouteContext, request: Request<WithParams<'userId'>>): Promise<User> {
  const { role } = request.payload as { role: Role };
  const outcome = await changeUser(ctx.db, signedInUserOf(request), request.params.userId, role);
  return presentUser(done(outcome, request.params.userId));
}

async function remove(ctx: RouteContext, request: Request<WithParams<'userId'>>, h: ResponseToolkit) {
  done(await changeUser(ctx.db, signedInUserOf(request), request.params.userId, 'removed'), request.params.userId);
  return h.response().code(204);
}

function done(outcome: UserChange, userId: string) {
  if (outcome.kind === 'not_found')
    throw apiError(404, 'user_not_found', `No user ${userId} in your account. GET /api/v1/users lists them.`);
  if (outcome.kind === 'refused') throw apiError(outcome.refusal.status, outcome.refusal.code, outcome.refusal.message);
  return outcome.user;
}
