import type { Request, ServerRoute } from '@hapi/hapi';
import type { MeResponse } from '@pingmon/sdk/wire';
import { userOf } from '../auth.js';
import { findAccount } from '../db/accounts.js';
import { findUser } from '../db/users.js';
import { apiError } from '../errors.js';
import { presentAccount, presentUser } from '../presenter.js';
import type { RouteContext } from './context.js';

export function meRoutes(ctx: RouteContext): ServerRoute[] {
  return [{ method: 'GET', path: '/me', handler: (request: Request) => me(ctx, request) }];
}

async function me(ctx: RouteContext, request: Request): Promise<MeResponse> {
  const { userId, accountId } = userOf(request);
  const [user, account] = await Promise.all([
    findUser(ctx.db.sql, accountId, userId),
    findAccount(ctx.db.sql, accountId),
  ]);
  if (!user || !account) throw apiError(401, 'invalid_token', 'The user of this token no longer exists. Log in again.');
  return { user: presentUser(user), account: presentAccount(account) };
}
