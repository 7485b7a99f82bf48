import type { Boom } from '@hapi/boom';
import Jwt from '@hapi/jwt';
import type { ReqRef, Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { KeyScope, Role } from '@pingmon/sdk/wire';
import type { ApiKeyGrant } from './db/api-keys.js';
import { findApiKeyGrant, touchApiKey } from './db/api-keys.js';
import type { Sql } from './db/sql.js';
import { findSessionState } from './db/sessions.js';
import { pingRefusal } from './domain/access.js';
import { apiError } from './errors.js';
import { hashApiKey } from './secrets.js';
import { sessionUse } from './session-use.js';

/** Who a user token speaks for, and the session it was issued for (db/sessions.ts). */
export interface TokenClaims {
  userId: string;
  accountId: string;
  sessionId: string;
}

/** A signed-in user: their token's claims, and their role as it is at this request. */
export interface UserCredentials extends TokenClaims {
  kind: 'user';
  role: Role;
  /** A user sees every monitor of the account. */
  monitorIds: null;
}

/** A read or write API key on the management API: an account, and no user. */
export interface KeyCredentials {
  kind: 'key';
  accountId: string;
  userId: null;
  sessionId: null;
  keyId: string;
  scope: KeyScope;
  /** The monitors it is limited to; null: every monitor of the account. */
  monitorIds: readonly string[] | null;
}

/** Who a management request speaks for: a signed-in user, or an API key (whose `userId` is null). */
export type Caller = UserCredentials | KeyCredentials;

/** How often at most a key's last use is written (db/api-keys.ts touchApiKey). */
const KEY_USE_EVERY_MS = 60_000;

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
  user: TokenClaims,
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
 * Registers the two strategies: `api-key` for pings (X-API-Key, or Authorization: Bearer pm_…), which ping keys
 * alone pass, and `user` for the management API: a user token (Authorization: Bearer <user JWT>, or the dashboard's
 * session cookie), or an API key, whose scope the access check (access-check.ts) weighs against the route's level.
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
      if (!grant) throw invalidKey();
      if (grant.scope !== 'ping') {
        const refusal = pingRefusal(grant.scope);
        throw apiError(refusal.status, refusal.code, refusal.message);
      }
      return h.authenticated({ credentials: { grant } });
    },
  }));

  server.auth.scheme('user', () => ({
    authenticate: async (request: Request, h: ResponseToolkit) => {
      const token = bearerOf(request);
      const key = apiKeyOf(request);
      if (key?.startsWith('pm_')) return h.authenticated({ credentials: { caller: await keyCaller(key) } });
      const other = request.headers.authorization !== undefined;
      const session = other ? undefined : sessionOf(request);
      if (session !== undefined)
        return h.authenticated({ credentials: { caller: await sessionUser(request, session) } });
      if (!token)
        throw apiError(
          401,
          'missing_token',
          'Missing user token. ' +
            'Log in with POST /api/v1/auth/login (or `pingmon login`) and send Authorization: Bearer <token>.',
        );
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
      return h.authenticated({ credentials: { caller: await existing(user, ended) } });
    },
  }));

  // Any unrevoked key is let in here: the route's access level decides what its scope may do (access-check.ts).
  const keyCaller = async (key: string): Promise<KeyCredentials> => {
    const grant = await grants(key);
    if (!grant) throw invalidKey();
    const { accountId, keyId, scope, monitorIds } = grant;
    return { kind: 'key', accountId, userId: null, sessionId: null, keyId, scope, monitorIds };
  };

  // A token outlives nothing it speaks for: one query per user request (never on the ping path, which
  // takes API keys) refuses the token of a session ended since (signed out, a new password), of a user
  // deleted since it was issued, or of a deleted account, and reads the user's role as it is now.
  const existing = async (user: TokenClaims, ended: string): Promise<UserCredentials> => {
    const state = await findSessionState(sql, user);
    if (state.kind === 'user_gone') throw userGone();
    if (state.kind === 'ended') throw apiError(401, 'session_ended', ended);
    await used(user.sessionId, Date.now());
    return { kind: 'user', ...user, role: state.role, monitorIds: null };
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

function invalidKey(): Boom {
  return apiError(
    401,
    'invalid_api_key',
    "Invalid or revoked API key. Check the X-API-Key header against your account's keys.",
  );
}

/** The 401 of a valid token whose user or account has been deleted since it was issued. */
export function userGone(): Boom {
  return apiError(401, 'invalid_token', 'The user of this token no longer exists. Log in again.');
}

function verifyUserToken(token: string, secret: string): TokenClaims | 'expired' | undefined {
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
 * only the hash ever reaches the database. A key's last use is written when its grant is read, at most once a
 * minute per key and process, and never awaited: the request it came with waits for nothing more.
 */
function grantCache(sql: Sql, ttlMs: number): (key: string) => Promise<ApiKeyGrant | undefined> {
  const cache = new Map<string, { grant: ApiKeyGrant; expiresAt: number }>();
  const touched = new Map<string, number>();
  const touch = (keyId: string, now: number) => {
    if ((touched.get(keyId) ?? -Infinity) > now - KEY_USE_EVERY_MS) return;
    if (touched.size >= 10_000) touched.clear();
    touched.set(keyId, now);
    // The last use is a hint shown to people: failing to write it must never fail a request.
    touchApiKey(sql, keyId, now, KEY_USE_EVERY_MS).catch(() => touched.delete(keyId));
  };
  return async (key) => {
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && hit.expiresAt > now) return hit.grant;
    const grant = await findApiKeyGrant(sql, hashApiKey(key));
    if (cache.size >= 10_000) cache.clear();
    if (grant && ttlMs > 0) cache.set(key, { grant, expiresAt: now + ttlMs });
    else cache.delete(key);
    if (grant) touch(grant.keyId, now);
    return grant;
  };
}

export function grantOf<Refs extends ReqRef>(request: Request<Refs>): ApiKeyGrant {
  return (request.auth.credentials as { grant: ApiKeyGrant }).grant;
}

/**
 * Who a management request speaks for, and so its account (`accountId`): a user, or a read or write key, whose
 * `userId` is null. Routes of access `self` and `admin` never see a key: signedInUserOf is theirs.
 */
export function userOf<Refs extends ReqRef>(request: Request<Refs>): Caller {
  return (request.auth.credentials as { caller: Caller }).caller;
}

/** The signed-in user of a route of access `self` or `admin`, which no key reaches (access-check.ts). */
export function signedInUserOf<Refs extends ReqRef>(request: Request<Refs>): UserCredentials {
  const caller = userOf(request);
  if (caller.kind !== 'user') throw new Error(`${request.path} reached by an API key: is its access self or admin?`);
  return caller;
}
