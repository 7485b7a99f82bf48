import { createHash } from 'node:crypto';
import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { LoginRequest, LoginResponse, SessionResponse } from '@pingmon/sdk/wire';
import { issueUserToken, requireSessionHeader, SESSION_COOKIE, sessionCookie } from '../auth.js';
import { findAccount } from '../db/accounts.js';
import { clearLoginAttempts, countLoginAttempt } from '../db/login-attempts.js';
import { findUserByEmail } from '../db/users.js';
import { apiError, waitFor } from '../errors.js';
import { iso, presentAccount, presentUser } from '../presenter.js';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../secrets.js';
import type { RouteContext } from './context.js';
import { LoginResponse as LoginSchema, SessionResponse as SessionSchema, replies } from './responses.js';
import { invalidRequest } from './validation.js';

/** Attempts one email may make from one address per window; a successful login resets the count. */
const MAX_ATTEMPTS = 5;
const WINDOW_MS = 15 * 60_000;

const credentials = {
  payload: Joi.object({
    email: Joi.string().trim().max(254).required(),
    password: Joi.string().max(1024).required(),
  }).options({ stripUnknown: true }),
  failAction: invalidRequest,
};

export function authRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'POST',
      path: '/auth/login',
      options: {
        id: 'login',
        auth: false,
        description: 'Log in: a user token',
        tags: ['auth'],
        response: replies({ 200: LoginSchema }, [401, 429]),
        validate: credentials,
        handler: (request: Request) => login(ctx, request.payload as LoginRequest, ctx.clientAddress(request)),
      },
    },
    {
      // The dashboard's sign-in: the same login, with the token kept in an httpOnly cookie instead of the body.
      method: 'POST',
      path: '/auth/session',
      options: {
        id: 'createSession',
        auth: false,
        description: 'Sign in to the dashboard: the user token in a session cookie',
        tags: ['auth'],
        response: replies({ 200: SessionSchema }, [401, 403, 429]),
        validate: credentials,
        handler: async (request: Request, h: ResponseToolkit) => {
          requireSessionHeader(request);
          const { token, ...session } = await login(ctx, request.payload as LoginRequest, ctx.clientAddress(request));
          const cookie = sessionCookie(request, ctx.config.tokenTtlSeconds * 1000);
          return h.response(session satisfies SessionResponse).state(SESSION_COOKIE, token, cookie);
        },
      },
    },
    {
      // Signing out works with an expired session too: it only ends the cookie.
      method: 'DELETE',
      path: '/auth/session',
      options: {
        id: 'deleteSession',
        auth: false,
        description: 'Sign out of the dashboard: the session cookie ends',
        tags: ['auth'],
        response: replies({ 204: false }, [403]),
        handler: (request: Request, h: ResponseToolkit) => {
          requireSessionHeader(request);
          return h.response().code(204).unstate(SESSION_COOKIE);
        },
      },
    },
  ];
}

async function login(ctx: RouteContext, input: LoginRequest, address: string): Promise<LoginResponse> {
  const now = Date.now();
  const email = input.email.toLowerCase();
  const key = createHash('sha256').update(`${email} ${address}`).digest('hex');
  // Counted before the password is checked, so parallel guesses are counted too.
  const attempt = await countLoginAttempt(ctx.db.sql, key, now, WINDOW_MS);
  if (attempt.attempts > MAX_ATTEMPTS) {
    const retryAfter = Math.max(1, Math.ceil((attempt.windowStartedAt + WINDOW_MS - now) / 1000));
    throw apiError(
      429,
      'too_many_login_attempts',
      `Too many failed logins for this email from your address. ${waitFor(retryAfter)} before trying again.`,
      { retryAfter },
    );
  }
  const record = await findUserByEmail(ctx.db.sql, email);
  // An unknown email costs as much time as a wrong password, so timing does not tell which emails exist.
  const valid = await verifyPassword(input.password, record?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!record || !valid) throw apiError(401, 'invalid_credentials', 'Wrong email or password.');
  await clearLoginAttempts(ctx.db.sql, key);
  const account = await findAccount(ctx.db.sql, record.accountId);
  if (!account) throw new Error(`user ${record.userId} has no account`);
  const credentials = { userId: record.userId, accountId: account.accountId };
  const { token, expiresAt } = issueUserToken(ctx.jwtSecret, credentials, now, ctx.config.tokenTtlSeconds);
  return { token, expiresAt: iso(expiresAt), user: presentUser(record), account: presentAccount(account) };
}
