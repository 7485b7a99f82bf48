import { createHash } from 'node:crypto';
import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { LoginRequest, LoginResponse, SessionResponse } from '@pingmon/sdk/wire';
import {
  bearerOf,
  issueUserToken,
  requireSessionHeader,
  SESSION_COOKIE,
  sessionCookie,
  sessionIdOf,
  sessionOf,
} from '../auth.js';
import { findAccount } from '../db/accounts.js';
import { clearLoginAttempts, countLoginAttempt } from '../db/login-attempts.js';
import { endSession, insertSession } from '../db/sessions.js';
import { findUserByEmail } from '../db/users.js';
import { apiError, waitFor } from '../errors.js';
import { newId } from '../ids.js';
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
          const cookie = sessionCookie(ctx.viaHttps(request), ctx.config.tokenTtlSeconds * 1000);
          return h.response(session satisfies SessionResponse).state(SESSION_COOKIE, token, cookie);
        },
      },
    },
    {
      // Signing out works with an expired token too: it ends the session the token names, and the cookie.
      method: 'DELETE',
      path: '/auth/session',
      options: {
        id: 'logout',
        auth: false,
        description: 'Sign out: the session of the bearer token or of the session cookie ends',
        tags: ['auth'],
        response: replies({ 204: false }, [403]),
        handler: async (request: Request, h: ResponseToolkit) => {
          const bearer = bearerOf(request);
          // A bearer token cannot be sent by another site's page, so only the cookie needs the header.
          if (bearer === undefined) requireSessionHeader(request);
          const token = bearer ?? sessionOf(request);
          const sessionId = token === undefined ? undefined : sessionIdOf(token, ctx.jwtSecret);
          if (sessionId !== undefined) await endSession(ctx.db.sql, sessionId, Date.now());
          const reply = h.response().code(204);
          return bearer === undefined ? reply.unstate(SESSION_COOKIE) : reply;
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
  const credentials = { userId: record.userId, accountId: account.accountId, sessionId: newId('ses', now) };
  const { token, expiresAt } = issueUserToken(ctx.jwtSecret, credentials, now, ctx.config.tokenTtlSeconds);
  await insertSession(ctx.db.sql, { ...credentials, createdAt: now, expiresAt });
  return { token, expiresAt: iso(expiresAt), user: presentUser(record), account: presentAccount(account) };
}
