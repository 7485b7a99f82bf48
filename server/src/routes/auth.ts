import Joi from 'joi';
import type { Request, ServerRoute } from '@hapi/hapi';
import type { LoginRequest, LoginResponse } from '@pingmon/sdk';
import { issueUserToken } from '../auth.js';
import { findAccount } from '../db/accounts.js';
import { clearLoginFailures, findLoginFailures, recordLoginFailure } from '../db/login-failures.js';
import { findUserByEmail } from '../db/users.js';
import { iso } from '../domain/runs.js';
import { apiError } from '../errors.js';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../secrets.js';
import type { RouteContext } from './context.js';
import { invalidRequest } from './validation.js';

const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 15 * 60_000;

export function authRoutes(ctx: RouteContext): ServerRoute[] {
  return [{
    method: 'POST',
    path: '/auth/login',
    options: {
      auth: false,
      validate: {
        payload: Joi.object({ email: Joi.string().trim().max(254).required(), password: Joi.string().max(1024).required() }).options({ stripUnknown: true }),
        failAction: invalidRequest,
      },
      handler: (request: Request) => login(ctx, request.payload as LoginRequest),
    },
  }];
}

async function login(ctx: RouteContext, input: LoginRequest): Promise<LoginResponse> {
  const now = Date.now();
  const email = input.email.toLowerCase();
  const failures = await findLoginFailures(ctx.db.knex, email);
  if (failures && failures.failures >= MAX_FAILURES && now - failures.firstFailedAt < FAILURE_WINDOW_MS) {
    const retryAfter = Math.ceil((failures.firstFailedAt + FAILURE_WINDOW_MS - now) / 1000);
    throw apiError(429, 'too_many_login_attempts', `Too many failed logins for ${email}. Wait ${retryAfter} seconds before trying again.`, { retryAfter });
  }
  const record = await findUserByEmail(ctx.db.knex, email);
  // An unknown email costs as much time as a wrong password, so timing does not tell which emails exist.
  const valid = await verifyPassword(input.password, record?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!record || !valid) {
    await recordLoginFailure(ctx.db.knex, email, now, FAILURE_WINDOW_MS);
    throw apiError(401, 'invalid_credentials', 'Wrong email or password.');
  }
  if (failures) await clearLoginFailures(ctx.db.knex, email);
  const account = await findAccount(ctx.db.knex, record.accountId);
  if (!account) throw new Error(`user ${record.user.userId} has no account`);
  const { token, expiresAt } = issueUserToken(ctx.jwtSecret, { userId: record.user.userId, accountId: account.accountId }, now, ctx.config.tokenTtlSeconds);
  return { token, expiresAt: iso(expiresAt), user: record.user, account };
}
