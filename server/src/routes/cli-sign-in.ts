import { createHash } from 'node:crypto';
import Jwt from '@hapi/jwt';
import Joi from 'joi';
import type { Request, ServerRoute } from '@hapi/hapi';
import type { CliCode, LoginResponse } from '@pingmon/sdk/wire';
import { bearerOf, signedInUserOf } from '../auth.js';
import { isUniqueViolation } from '../db/index.js';
import { findLiveSession } from '../db/sessions.js';
import { findUser } from '../db/users.js';
import { apiError } from '../errors.js';
import { idFrom } from '../ids.js';
import { clientOf, startSession } from './auth.js';
import type { RouteContext } from './context.js';
import { CliCode as CliCodeSchema, LoginResponse as LoginSchema, replies } from './responses.js';
import { invalidRequest } from './validation.js';

// `pingmon login --browser` (docs/cli.md#pingmon-login): the CLI listens on 127.0.0.1 and has the user open the
// dashboard's /cli-sign-in page, signed in however the server allows (the identity provider included). There the
// user allows it: the page gets a short-lived code bound to the CLI's PKCE challenge (RFC 7636) and hands it to the
// CLI's listener, which trades it, with the verifier only it holds, for a session of its own. No token travels in
// an address.

const CODE = { aud: 'pingmon-cli', iss: 'pingmon', algorithm: 'HS256', ttlSeconds: 120 } as const;

/** A PKCE value: 43 to 128 characters of base64url (RFC 7636 §4.1). */
const pkce = (what: string) =>
  Joi.string()
    .pattern(/^[A-Za-z0-9_~.-]{43,128}$/)
    .required()
    .messages({ '*': `${what} must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" or "~"` });

export const cliCodeBody = Joi.object({
  challenge: pkce('challenge').description('base64url(SHA-256(verifier)) of the CLI asking'),
}).options({ stripUnknown: true });

export const cliTokenBody = Joi.object({
  code: Joi.string().max(2000).required().messages({ '*': 'code must be the code the dashboard handed over' }),
  verifier: pkce('verifier'),
  device: Joi.string()
    .trim()
    .max(200)
    .allow('')
    .description('What signs in, shown with the session (e.g. "pingmon CLI on db-1")'),
}).options({ stripUnknown: true });

export function cliSignInRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'POST',
      path: '/auth/cli/code',
      options: {
        id: 'createCliCode',
        description: 'Allow a CLI to sign in as you: a code for it, valid 2 minutes, bound to its challenge',
        tags: ['auth'],
        plugins: { access: 'self' },
        response: replies({ 200: CliCodeSchema }, [403]),
        validate: { payload: cliCodeBody, failAction: invalidRequest },
      },
      handler: (request: Request): CliCode => {
        // A person at the dashboard, not a token: a token could otherwise renew itself for ever through codes.
        if (bearerOf(request) !== undefined)
          throw apiError(
            403,
            'dashboard_only',
            "Only the dashboard's session makes a sign-in code for the CLI: open the address " +
              '`pingmon login --browser` prints, and choose Allow there.',
          );
        const { userId, accountId, sessionId } = signedInUserOf(request);
        const { challenge } = request.payload as { challenge: string };
        const iat = Math.floor(Date.now() / 1000);
        const claims = {
          sub: userId,
          acc: accountId,
          sid: sessionId,
          chl: challenge,
          aud: CODE.aud,
          iss: CODE.iss,
          iat,
        };
        // Never past the session it opens: that session's row is what makes the code single-use.
        const ttl = Math.min(CODE.ttlSeconds, ctx.config.tokenTtlSeconds);
        const code = Jwt.token.generate(
          { ...claims, exp: iat + ttl },
          { key: ctx.jwtSecret, algorithm: CODE.algorithm },
        );
        return { code, expiresInSeconds: ttl };
      },
    },
    {
      method: 'POST',
      path: '/auth/cli/token',
      options: {
        id: 'exchangeCliCode',
        auth: false,
        description: "Trade the dashboard's code and the verifier of its challenge for a user token",
        tags: ['auth'],
        response: replies({ 200: LoginSchema }, [401]),
        validate: { payload: cliTokenBody, failAction: invalidRequest },
      },
      handler: (request: Request) => exchange(ctx, request),
    },
  ];
}

async function exchange(ctx: RouteContext, request: Request): Promise<LoginResponse> {
  const { code, verifier, device } = request.payload as { code: string; verifier: string; device?: string };
  const claims = verified(code, ctx.jwtSecret);
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  if (!claims || claims.chl !== challenge) throw badCode();
  // The session that allowed it must still be live: signing out, or a new password, ends its codes too.
  const allowedBy = await findLiveSession(ctx.db.sql, claims.sid);
  if (allowedBy?.userId !== claims.sub) throw badCode();
  const user = await findUser(ctx.db.sql, claims.acc, claims.sub);
  if (!user) throw badCode();
  const client = clientOf(ctx, request);
  // The session's id comes from the code: a code traded twice would open the same session, which the key refuses.
  const sessionId = idFrom('ses', claims.iat * 1000, createHash('sha256').update(code).digest());
  try {
    return await startSession(ctx, user, Date.now(), { ...client, userAgent: device || client.userAgent }, sessionId);
  } catch (err) {
    if (isUniqueViolation(err)) throw badCode();
    throw err;
  }
}

interface CodeClaims {
  sub: string;
  acc: string;
  sid: string;
  chl: string;
  iat: number;
}

function verified(code: string, secret: string): CodeClaims | undefined {
  try {
    const artifacts = Jwt.token.decode(code);
    Jwt.token.verify(
      artifacts,
      { key: secret, algorithm: CODE.algorithm },
      { aud: CODE.aud, iss: CODE.iss, sub: false },
    );
    const { sub, acc, sid, chl, exp, iat } = artifacts.decoded.payload as Record<string, unknown>;
    const strings = [sub, acc, sid, chl].every((value) => typeof value === 'string');
    if (!strings || typeof exp !== 'number' || typeof iat !== 'number') return undefined;
    return { sub, acc, sid, chl, iat } as CodeClaims;
  } catch {
    return undefined;
  }
}

function badCode() {
  return apiError(
    401,
    'invalid_cli_code',
    'This sign-in code is wrong, expired (2 minutes), used already, not for this verifier, or its browser session ' +
      'has ended: ' +
      'run `pingmon login --browser` again.',
  );
}
