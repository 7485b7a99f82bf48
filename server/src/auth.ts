import type { Boom } from '@hapi/boom';
import Jwt from '@hapi/jwt';
import type { ReqRef, Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { ApiKeyGrant } from './db/api-keys.js';
import { findApiKeyGrant } from './db/api-keys.js';
import type { Sql } from './db/sql.js';
import { findSessionState } from './db/sessions.js';
import { apiError } from './errors.js';
import { hashApiKey } from './secrets.js';
import { sessionUse } from './session-use.js';

/** Who a user token speaks for, and the session it was issued for (db/sessions.ts). */
export interface UserCredentials {
  userId: string;
  accountId: string;
  sessionId: string;
}

const JWT = { aud: 'pingmon', iss: 'pingmon', algorithm: 'HS256' } as const;

/** The dashboard's session: the user token in an httpOnly, SameSite=Strict cookie (docs/dashboard.md). */
export const SESSION_COOKIE = 'pingmon_session';
/**
 * A request signed in by the session cookie must carry this header too. A page of another site cannot set a
 * custom header on a request to this one without a CORS preflight this server never grants, so a write can only
 * come from the dashboard itself, whatever a browser does with SameSite.
 */
export const SESSION_HEADER = 'x-pingmon-request';

export function issueUserToken(
  secret: string,
  user: UserCredentials,
  now: number,
  ttlSeconds: number,
): { token: string; expiresAt: number } {
  const iat = Math.floor(now / 1000);
  const exp = iat + ttlSeconds;
  const token = Jwt.token.generate(
    { sub: user.userId, acc: user.accountId, sid: user.sessionId, aud: JWT.aud, iss: JWT.iss, iat, exp },
    { key: secret, algorithm: JWT.algorithm },
  );
  return { token, expiresAt: exp * 1000 };
}

/**
 * Registers the two strategies: `api-key` for pings (X-API-Key, or Authorization: Bearer pm_…)
 * and `user` for everything a person does (Authorization: Bearer <user JWT>).
 */
export function registerAuth(server: Server, sql: Sql, options: { jwtSecret: string; apiKeyCacheMs: number }): void {
  const grants = grantCache(sql, options.apiKeyCacheMs);
  const used = sessionUse(sql);
  // Secure is added per response when the request came over HTTPS (sessionCookie), so http://localhost works too.
  server.state(SESSION_COOKIE, {
    isHttpOnly: true,
    isSameSite: 'Strict',
    isSecure: false,
    path: '/',
    encoding: 'none',
    strictHeader: true,
    ignoreErrors: true,
    clearInvalid: true,
  });

  server.auth.scheme('api-key', () => ({
    authenticate: async (request: Request, h: ResponseToolkit) => {
      const key = apiKeyOf(request);
      if (!key)
        throw apiError(401, 'missing_api_key', 'Missing API key. Send your account API key in the X-API-Key header.');
      const grant = await grants(key);
      if (!grant)
        throw apiError(
          401,
          'invalid_api_key',
          "Invalid or revoked API key. Check the X-API-Key header against your account's keys.",
        );
      return h.authenticated({ credentials: { grant } });
    },
  }));

  server.auth.scheme('user', () => ({
    authenticate: async (request: Request, h: ResponseToolkit) => {
      const token = bearerOf(request);
      const other = request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined;
      const session = other ? undefined : sessionOf(request);
      if (session !== undefined) return h.authenticated({ credentials: { user: await sessionUser(request, session) } });
      if (!token || token.startsWith('pm_') || request.headers['x-api-key']) {
        const sentKey = Boolean(request.headers['x-api-key']) || Boolean(token?.startsWith('pm_'));
        throw apiError(
          401,
          sentKey ? 'user_token_required' : 'missing_token',
          sentKey
            ? 'This endpoint needs a user token, not an API key: ' +
                'log in with POST /api/v1/auth/login (or `pingmon login`) and send Authorization: Bearer <token>.'
            : 'Missing user token. ' +
                'Log in with POST /api/v1/auth/login (or `pingmon login`) and send Authorization: Bearer <token>.',
        );
      }
      const user = verifyUserToken(token, options.jwtSecret);
      if (user === 'expired')
        throw apiError(
          401,
          'token_expired',
          'Your user token has expired. Log in again (POST /api/v1/auth/login, or `pingmon login`).',
        );
      if (!user)
        throw apiError(
          401,
          'invalid_token',
          'Invalid user token. Log in again (POST /api/v1/auth/login, or `pingmon login`).',
        );
      const ended =
        "This token's session has ended (signed out, or the password changed). " +
        'Log in again (POST /api/v1/auth/login, or `pingmon login`).';
      return h.authenticated({ credentials: { user: await existing(user, ended) } });
    },
  }));

  // A token outlives nothing it speaks for: one query per user request (never on the ping path, which
  // takes API keys) refuses the token of a session ended since (signed out, a new password), of a user
  // deleted since it was issued, or of a deleted account.
  const existing = async (user: UserCredentials, ended: string): Promise<UserCredentials> => {
    const state = await findSessionState(sql, user);
    if (state === 'user_gone') throw userGone();
    if (state === 'ended') throw apiError(401, 'session_ended', ended);
    await used(user.sessionId, Date.now());
    return user;
  };

  const sessionUser = async (request: Request, token: string): Promise<UserCredentials> => {
    requireSessionHeader(request);
    const user = verifyUserToken(token, options.jwtSecret);
    if (user === 'expired') throw apiError(401, 'token_expired', 'Your session has expired. Sign in again.');
    if (!user) throw apiError(401, 'invalid_token', 'Your session is not valid on this server. Sign in again.');
    return existing(user, 'Your session has ended (signed out, or the password changed). Sign in again.');
  };

  server.auth.strategy('api-key', 'api-key');
  server.auth.strategy('user', 'user');
  server.auth.default('user');
}

/** How the session cookie is set: Secure when the request came over HTTPS, directly or through a proxy. */
export function sessionCookie(viaHttps: boolean, ttlMs: number): { ttl: number; isSecure: boolean } {
  return { ttl: ttlMs, isSecure: viaHttps };
}

/** The 401 of a valid token whose user or account has been deleted since it was issued. */
export function userGone(): Boom {
  return apiError(401, 'invalid_token', 'The user of this token no longer exists. Log in again.');
}

function verifyUserToken(token: string, secret: string): UserCredentials | 'expired' | undefined {
  const artifacts = signedBy(token, secret);
  if (!artifacts) return undefined;
  try {
    // verifyTime lets a token without `exp` through, and such a token would never expire.
    if (typeof (artifacts.decoded.payload as { exp?: unknown }).exp !== 'number') return undefined;
    try {
      Jwt.token.verifyTime(artifacts);
    } catch {
      return 'expired';
    }
    Jwt.token.verifyPayload(artifacts, { aud: JWT.aud, iss: JWT.iss, sub: false });
  } catch {
    return undefined;
  }
  const { sub, acc, sid } = artifacts.decoded.payload as { sub?: unknown; acc?: unknown; sid?: unknown };
  if (typeof sub !== 'string' || typeof acc !== 'string' || typeof sid !== 'string') return undefined;
  return { userId: sub, accountId: acc, sessionId: sid };
}

/** The session a token signed by this server was issued for, expired or not: signing out ends it whatever its age. */
export function sessionIdOf(token: string, secret: string): string | undefined {
  const sid = (signedBy(token, secret)?.decoded.payload as { sid?: unknown } | undefined)?.sid;
  return typeof sid === 'string' ? sid : undefined;
}

function signedBy(token: string, secret: string): ReturnType<typeof Jwt.token.decode> | undefined {
  try {
    const artifacts = Jwt.token.decode(token);
    Jwt.token.verifySignature(artifacts, { key: secret, algorithm: JWT.algorithm });
    return artifacts;
  } catch {
    return undefined;
  }
}

/** The session cookie's token, when the request has one and no other credentials. */
export function sessionOf(request: Request): string | undefined {
  const token: unknown = (request.state as Record<string, unknown> | null)?.[SESSION_COOKIE];
  return typeof token === 'string' && token !== '' ? token : undefined;
}

/** Refuses a request of the dashboard's session (or one that starts or ends it) without SESSION_HEADER. */
export function requireSessionHeader(request: Request): void {
  if (request.headers[SESSION_HEADER] === undefined)
    throw apiError(
      403,
      'session_header_missing',
      `A request signed in by the dashboard's session cookie must carry the ${SESSION_HEADER} header. ` +
        'Scripts should send Authorization: Bearer <token> instead (POST /api/v1/auth/login).',
    );
}

export function bearerOf(request: Request): string | undefined {
  const header: unknown = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

function apiKeyOf(request: Request): string | undefined {
  const header: unknown = request.headers['x-api-key'];
  if (typeof header === 'string' && header.trim() !== '') return header.trim();
  return bearerOf(request);
}

/**
 * API key lookups are cached for a few seconds (DESIGN §3): a revoked key stops working within that time.
 * The cache lives in memory and is keyed by the key as presented, which saves hashing it on every ping;
 * only the hash ever reaches the database.
 */
function grantCache(sql: Sql, ttlMs: number): (key: string) => Promise<ApiKeyGrant | undefined> {
  const cache = new Map<string, { grant: ApiKeyGrant; expiresAt: number }>();
  return async (key) => {
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && hit.expiresAt > now) return hit.grant;
    const grant = await findApiKeyGrant(sql, hashApiKey(key));
    if (cache.size >= 10_000) cache.clear();
    if (grant && ttlMs > 0) cache.set(key, { grant, expiresAt: now + ttlMs });
    else cache.delete(key);
    return grant;
  };
}

export function grantOf<Refs extends ReqRef>(request: Request<Refs>): ApiKeyGrant {
  return (request.auth.credentials as { grant: ApiKeyGrant }).grant;
}

export function userOf<Refs extends ReqRef>(request: Request<Refs>): UserCredentials {
  return (request.auth.credentials as { user: UserCredentials }).user;
}
