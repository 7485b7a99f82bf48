import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { RecoveryCodes, SecondFactorEnrolment } from '@pingmon/sdk/wire';
import { signedInUserOf, userGone } from '../auth.js';
import { findSecondFactor, savePendingSecondFactor } from '../db/second-factors.js';
import type { UserRecord } from '../db/users.js';
import { findUser } from '../db/users.js';
import { apiError } from '../errors.js';
import { verifyPassword } from '../secrets.js';
import { newTotpSecret, totpUri } from '../totp.js';
import { checkSecondFactor, confirmSecondFactor, removeSecondFactor } from '../use-cases/second-factor.js';
import type { RouteContext } from './context.js';
import { countPasswordAttempt, passwordAccepted } from './password-attempts.js';
import {
  RecoveryCodes as RecoveryCodesSchema,
  SecondFactorEnrolment as EnrolmentSchema,
  replies,
} from './responses.js';
import { invalidRequest } from './validation.js';

// The signed-in user's TOTP second factor (docs/api.md#second-factor). Codes are checked on the server's clock.

const code = Joi.string().trim().min(1).max(64);

export function secondFactorRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'POST',
      path: '/me/second-factor',
      options: {
        id: 'startSecondFactor',
        description: 'Start adding a TOTP second factor: its secret, to confirm with a first code',
        tags: ['auth'],
        plugins: { access: 'self' },
        response: replies({ 200: EnrolmentSchema }, [409]),
      },
      handler: (request: Request) => start(ctx, request),
    },
    {
      method: 'POST',
      path: '/me/second-factor/confirm',
      options: {
        id: 'confirmSecondFactor',
        description: 'Turn the second factor on with its first code: ten recovery codes, shown once',
        tags: ['auth'],
        plugins: { access: 'self' },
        response: replies({ 200: RecoveryCodesSchema }, [400, 403, 409]),
        validate: {
          payload: Joi.object({ code: code.required() }).options({ stripUnknown: true }),
          failAction: invalidRequest,
        },
      },
      handler: (request: Request) => confirm(ctx, request),
    },
    {
      method: 'POST',
      path: '/me/second-factor/disable',
      options: {
        id: 'disableSecondFactor',
        description: 'Turn the second factor off, with your password or a code',
        tags: ['auth'],
        plugins: { access: 'self' },
        response: replies({ 204: false }, [400, 403, 404, 429]),
        validate: {
          payload: Joi.object({ password: Joi.string().max(1024), code })
            .or('password', 'code')
            .options({ stripUnknown: true })
            .messages({ 'object.missing': 'Send your password or a code of your second factor: "password" or "code"' }),
          failAction: invalidRequest,
        },
      },
      handler: (request: Request, h: ResponseToolkit) => disable(ctx, request, h),
    },
  ];
}

async function signedInUser(ctx: RouteContext, request: Request): Promise<UserRecord> {
  const { accountId, userId } = signedInUserOf(request);
  const user = await findUser(ctx.db.sql, accountId, userId);
  if (!user) throw userGone();
  return user;
}

async function start(ctx: RouteContext, request: Request): Promise<SecondFactorEnrolment> {
  const user = await signedInUser(ctx, request);
  const secret = newTotpSecret();
  const pending = { accountId: user.accountId, userId: user.userId, secret, now: ctx.config.clock() };
  if (!(await savePendingSecondFactor(ctx.db.sql, pending))) throw enabledAlready();
  return { secret, uri: totpUri(secret, user.email) };
}

async function confirm(ctx: RouteContext, request: Request): Promise<RecoveryCodes> {
  const { code: typed } = request.payload as { code: string };
  const confirmation = await confirmSecondFactor(ctx.db, signedInUserOf(request), typed, ctx.config.clock());
  if (confirmation === 'not_started')
    throw apiError(409, 'second_factor_not_started', 'Start with POST /api/v1/me/second-factor, then send its code.');
  if (confirmation === 'enabled_already') throw enabledAlready();
  if (confirmation === 'wrong')
    throw apiError(
      403,
      'invalid_second_factor',
      'That code does not match the secret: send the code your authenticator app shows now ' +
        "(if it never matches, check the phone's clock).",
    );
  return confirmation;
}

async function disable(ctx: RouteContext, request: Request, h: ResponseToolkit) {
  const input = request.payload as { password?: string; code?: string };
  const user = await signedInUser(ctx, request);
  if (!(await findSecondFactor(ctx.db.sql, user)))
    throw apiError(404, 'second_factor_not_found', 'You have no second factor: there is nothing to turn off.');
  // A stolen token may not guess the password or a code here any faster than at the login.
  const attempt = await countPasswordAttempt(ctx, user.email, ctx.clientAddress(request), Date.now());
  if (input.password !== undefined) {
    if (!(await verifyPassword(input.password, user.passwordHash)))
      throw apiError(403, 'wrong_password', 'The password is wrong: send the one you sign in with now.');
  } else if ((await checkSecondFactor(ctx.db, user, input.code, ctx.config.clock())) !== 'accepted') {
    throw wrongCode(403);
  }
  await passwordAccepted(ctx, attempt);
  await removeSecondFactor(ctx.db, user);
  return h.response().code(204);
}

/**
 * The second factor of a sign-in whose password was right: passes when the user has none, or when `code` is a
 * good one; else the 401 that says what to send. Called inside the login's throttled attempt, so a wrong code
 * counts as a wrong password does.
 */
export async function passSecondFactor(ctx: RouteContext, user: UserRecord, code: string | undefined): Promise<void> {
  const check = await checkSecondFactor(ctx.db, user, code, ctx.config.clock());
  if (check === 'missing')
    throw apiError(
      401,
      'second_factor_required',
      'This account has a second factor: send the 6-digit code of your authenticator app (or a recovery code) ' +
        'as "code", with the email and password.',
    );
  if (check === 'wrong') throw wrongCode(401);
}

function wrongCode(status: 401 | 403) {
  return apiError(
    status,
    'invalid_second_factor',
    'Wrong or already used code: send the code your authenticator app shows now, or an unused recovery code.',
  );
}

function enabledAlready() {
  return apiError(
    409,
    'second_factor_enabled',
    'Your second factor is on already: turn it off first (POST /api/v1/me/second-factor/disable).',
  );
}
