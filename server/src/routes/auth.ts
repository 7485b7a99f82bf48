import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { LoginRequest, LoginResponse, SessionResponse, SignInMethods } from '@pingmon/sdk/wire';
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
import { endSession, insertSession } from '../db/sessions.js';
import type { UserRecord } from '../db/users.js';
import { findUserByEmail } from '../db/users.js';
import { apiError } from '../errors.js';
import { newId } from '../ids.js';
import { iso, presentAccount, presentUser } from '../presenter.js';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../secrets.js';
import type { RouteContext } from './context.js';
import { countPasswordAttempt, passwordAccepted } from './password-attempts.js';
import {
  LoginResponse as LoginSchema,
  SessionResponse as SessionSchema,
  SignInMethods as SignInMethodsSchema,
  replies,
} from './responses.js';
import { passSecondFactor } from './second-factor.js';
import { invalidRequest } from './validation.js';

export const loginBody = Joi.object({
  email: Joi.string().trim().max(254).required(),
  password: Joi.string().max(1024).required(),
  code: Joi.string()
    .trim()
    .max(64)
    .allow('')
    .description('The code of your second factor (or a recovery code), when you have one'),
}).options({ stripUnknown: true });
const credentials = { payload: loginBody, failAction: invalidRequest };

export function authRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/auth/methods',
      options: {
        id: 'signInMethods',
        auth: false,
        description: 'How users sign in to this server: with a password, through an identity provider, or both',
        tags: ['auth'],
        response: replies({ 200: SignInMethodsSchema }),
        handler: (): SignInMethods => ({
          password: ctx.config.passwordSignIn,
          provider: ctx.provider ? { name: ctx.provider.name, start: '/api/v1/auth/oidc/start' } : null,
        }),
      },
    },
    {
      method: 'POST',
      path: '/auth/login',
      options: {
        id: 'login',
        auth: false,
        description: 'Log in: a user token',
        tags: ['auth'],
        response: replies({ 200: LoginSchema }, [401, 403, 429]),
        validate: credentials,
        handler: (request: Request) => login(ctx, request.payload as LoginRequest, clientOf(ctx, request)),
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
          const { token, ...session } = await login(ctx, request.payload as LoginRequest, clientOf(ctx, request));
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

/** Who signs in: their address and User-Agent, kept with the session they open. */
export interface Client {
  address: string;
  userAgent: string | null;
}

export function clientOf(ctx: RouteContext, request: Request): Client {
  const agent: unknown = request.headers['user-agent'];
  return { address: ctx.clientAddress(request), userAgent: typeof agent === 'string' && agent !== '' ? agent : null };
}

async function login(ctx: RouteContext, input: LoginRequest, client: Client): Promise<LoginResponse> {
  refusePasswords(ctx);
  const now = Date.now();
  const email = input.email.toLowerCase();
  const attempt = await countPasswordAttempt(ctx, email, client.address, now);
  const record = await findUserByEmail(ctx.db.sql, email);
  // An unknown email costs as much time as a wrong password, so timing does not tell which emails exist.
  const valid = await verifyPassword(input.password, record?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!record || !valid) throw wrongCredentials();
  // Still within the attempt counted above: a wrong code counts as a wrong password, and only a full sign-in clears.
  await passSecondFactor(ctx, record, input.code);
  await passwordAccepted(ctx, attempt);
  return startSession(ctx, record, now, client);
}

/** Opens a session for a user whose password was just checked, or just set: the answer of a login. */
export async function startSession(
  ctx: RouteContext,
  record: UserRecord,
  now: number,
  client: Client,
  sessionId = newId('ses', now),
): Promise<LoginResponse> {
  const account = await findAccount(ctx.db.sql, record.accountId);
  if (!account) throw new Error(`user ${record.userId} has no account`);
  const credentials = { userId: record.userId, accountId: account.accountId, sessionId };
  const { token, expiresAt } = issueUserToken(ctx.jwtSecret, credentials, now, ctx.config.tokenTtlSeconds);
  const session = { ...credentials, createdAt: now, expiresAt, ...client };
  // A new password set while this one was checked ended the user's sessions: this one must not outlive it.
  const opened = await insertSession(ctx.db.sql, session, record.passwordHash);
  if (!opened) throw wrongCredentials();
  return { token, expiresAt: iso(expiresAt), user: presentUser(record), account: presentAccount(account) };
}

/** With password sign-in turned off (PINGMON_PASSWORD_SIGN_IN=false), no password opens a session. */
export function refusePasswords(ctx: RouteContext): void {
  if (ctx.config.passwordSignIn) return;
  throw apiError(
    403,
    'password_sign_in_off',
    `Password sign-in is turned off on this server: sign in through ${ctx.provider?.name ?? 'the identity provider'} ` +
      'in the dashboard; the CLI signs in through it with `pingmon login --browser`. Scripts use an API key ' +
      'with the read or write scope instead (PINGMON_TOKEN).',
  );
}

function wrongCredentials() {
  return apiError(401, 'invalid_credentials', 'Wrong email or password.');
}
