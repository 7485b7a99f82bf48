import type { Request, ServerRoute } from '@hapi/hapi';
import type { MeResponse } from '@pingmon/sdk/wire';
import { userGone, userOf } from '../auth.js';
import { findAccount } from '../db/accounts.js';
import { findUser } from '../db/users.js';
import { presentAccount, presentUser } from '../presenter.js';
import type { RouteContext } from './context.js';
import { MeResponse as MeSchema, replies } from './responses.js';

export function meRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/me',
      options: {
        id: 'me',
        description: 'The signed-in user and account',
        tags: ['auth'],
        response: replies({ 200: MeSchema }),
      },
      handler: (request: Request) => me(ctx, request),
    },
  ];
}

async function me(ctx: RouteContext, request: Request): Promise<MeResponse> {
  const { userId, accountId } = userOf(request);
  const [user, account] = await Promise.all([
    findUser(ctx.db.sql, accountId, userId),
    findAccount(ctx.db.sql, accountId),
  ]);
  // Deleted since the token was checked.
  if (!user || !account) throw userGone();
  return { user: presentUser(user), account: presentAccount(account) };
}
