import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { MeResponse } from '@pingmon/sdk/wire';
import { signedInUserOf, userGone } from '../auth.js';
import { findAccount } from '../db/accounts.js';
import { AccountInputError, setPassword } from '../bootstrap.js';
import { findUser } from '../db/users.js';
import { apiError } from '../errors.js';
import { presentAccount, presentUser } from '../presenter.js';
import type { RouteContext } from './context.js';
import { MeResponse as MeSchema, replies } from './responses.js';
import { countPasswordAttempt, passwordAccepted } from './password-attempts.js';
import { invalidRequest } from './validation.js';
import { verifyPassword } from '../secrets.js';
import { secondFactorStatus } from '../use-cases/second-factor.js';

export function meRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/me',
      options: {
        id: 'me',
        plugins: { access: 'self' },
        description: 'The signed-in user and account',
        tags: ['auth'],
        response: replies({ 200: MeSchema }),
      },
      handler: (request: Request) => me(ctx, request),
    },
    {
      method: 'POST',
      path: '/me/password',
      options: {
        id: 'changePassword',
        plugins: { access: 'self' },
        description: 'Change your password: every session of yours ends, this one too',
        tags: ['auth'],
        response: replies({ 204: false }, [400, 403, 429]),
        validate: {
          payload: Joi.object({
            currentPassword: Joi.string().max(1024).required(),
            newPassword: Joi.string().min(8).max(1024).required(),
          }).options({ stripUnknown: true }),
          failAction: invalidRequest,
        },
      },
      handler: (request: Request, h: ResponseToolkit) => changePassword(ctx, request, h),
    },
  ];
}

async function me(ctx: RouteContext, request: Request): Promise<MeResponse> {
  const { userId, accountId } = signedInUserOf(request);
  const [user, account, secondFactor] = await Promise.all([
    findUser(ctx.db.sql, accountId, userId),
    findAccount(ctx.db.sql, accountId),
    secondFactorStatus(ctx.db, { accountId, userId }),
  ]);
  // Deleted since the token was checked.
  if (!user || !account) throw userGone();
  return { user: presentUser(user), account: presentAccount(account), secondFactor };
}

async function changePassword(ctx: RouteContext, request: Request, h: ResponseToolkit) {
  const { userId, accountId } = signedInUserOf(request);
  const input = request.payload as { currentPassword: string; newPassword: string };
  const user = await findUser(ctx.db.sql, accountId, userId);
  if (!user) throw userGone();
  const attempt = await countPasswordAttempt(ctx, user.email, ctx.clientAddress(request), Date.now());
  if (!(await verifyPassword(input.currentPassword, user.passwordHash)))
    throw apiError(403, 'wrong_password', 'The current password is wrong: send the one you sign in with now.');
  await passwordAccepted(ctx, attempt);
  try {
    await setPassword(ctx.db, { email: user.email, password: input.newPassword });
  } catch (err) {
    if (err instanceof AccountInputError) throw apiError(400, 'invalid_request', `${err.message}.`);
    throw err;
  }
  return h.response().code(204);
}
