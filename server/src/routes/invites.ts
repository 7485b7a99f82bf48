import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { CreatedInvite, InviteInfo, InviteList, LoginResponse, Role } from '@pingmon/sdk/wire';
import { signedInUserOf } from '../auth.js';
import { EMAIL } from '../bootstrap.js';
import { findInviteByToken, listPendingInvites, revokeInvite } from '../db/invites.js';
import { findUser } from '../db/users.js';
import type { Refusal } from '../domain/access.js';
import { closedInviteRefusal } from '../domain/invites.js';
import { inviteRoleRefusal } from '../domain/roles.js';
import { apiError } from '../errors.js';
import { mailInvite } from '../invite-mail.js';
import { iso, presentInvite } from '../presenter.js';
import { hashInviteToken, hashPassword } from '../secrets.js';
import { acceptInvite, invite } from '../use-cases/invites.js';
import { clientOf, refusePasswords, startSession } from './auth.js';
import type { RouteContext } from './context.js';
import {
  CreatedInvite as CreatedInviteSchema,
  InviteInfo as InviteInfoSchema,
  InviteList as InviteListSchema,
  LoginResponse as LoginSchema,
  replies,
} from './responses.js';
import { roleField } from './users.js';
import type { WithParams } from './validation.js';
import { invalidRequest, pathParams } from './validation.js';

export const inviteBody = Joi.object({
  email: Joi.string()
    .trim()
    .lowercase()
    .max(254)
    .pattern(EMAIL)
    .required()
    .messages({ '*': 'email must be the e-mail address to invite, e.g. ada@example.com' }),
  role: roleField.required(),
}).options({ stripUnknown: true });

// The token travels in bodies, never in a path: paths reach the request log, and the link keeps it after a #.
const token = Joi.string().max(100).required().messages({ '*': 'token must be the token of the invite link' });
export const inviteTokenBody = Joi.object({ token }).options({ stripUnknown: true });
export const acceptInviteBody = Joi.object({
  token,
  password: Joi.string()
    .min(8)
    .max(1024)
    .required()
    .messages({ '*': 'password must be 8 to 1024 characters: the password you will sign in with' }),
}).options({ stripUnknown: true });

export function inviteRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/users/invites',
      options: {
        id: 'listInvites',
        plugins: { access: 'admin' },
        description: "The account's pending invites",
        tags: ['users'],
        response: replies({ 200: InviteListSchema }),
      },
      handler: (request: Request) => list(ctx, request),
    },
    {
      method: 'POST',
      path: '/users/invites',
      options: {
        id: 'inviteUser',
        plugins: { access: 'admin' },
        description: 'Invite someone: a one-time link (shown once; mailed when SMTP is set)',
        tags: ['users'],
        response: replies({ 201: CreatedInviteSchema }, [403, 409]),
        validate: { payload: inviteBody, failAction: invalidRequest },
      },
      handler: (request: Request, h: ResponseToolkit) => create(ctx, request, h),
    },
    {
      method: 'DELETE',
      path: '/users/invites/{inviteId}',
      options: {
        id: 'revokeInvite',
        plugins: { access: 'admin' },
        description: 'Revoke a pending invite: its link stops working',
        tags: ['users'],
        response: replies({ 204: false }, [404]),
        validate: { params: pathParams('inviteId'), failAction: invalidRequest },
      },
      handler: (request: Request<WithParams<'inviteId'>>, h: ResponseToolkit) => revoke(ctx, request, h),
    },
    {
      method: 'POST',
      path: '/auth/invites/lookup',
      options: {
        id: 'lookupInvite',
        auth: false,
        description: "An invite link's address, role and expiry, while it works",
        tags: ['auth'],
        response: replies({ 200: InviteInfoSchema }, [404, 410]),
        validate: { payload: inviteTokenBody, failAction: invalidRequest },
      },
      handler: (request: Request) => lookup(ctx, request),
    },
    {
      method: 'POST',
      path: '/auth/invites/accept',
      options: {
        id: 'acceptInvite',
        auth: false,
        description: 'Accept an invite by setting a password: the new user, signed in',
        tags: ['auth'],
        response: replies({ 200: LoginSchema }, [403, 404, 409, 410]),
        validate: { payload: acceptInviteBody, failAction: invalidRequest },
      },
      handler: (request: Request) => accept(ctx, request),
    },
  ];
}

async function list(ctx: RouteContext, request: Request): Promise<InviteList> {
  const invites = await listPendingInvites(ctx.db.sql, signedInUserOf(request).accountId, ctx.config.clock());
  return { invites: invites.map(presentInvite), nextCursor: null };
}

async function create(ctx: RouteContext, request: Request, h: ResponseToolkit) {
  const actor = signedInUserOf(request);
  const { email, role } = request.payload as { email: string; role: Role };
  refuseIf(inviteRoleRefusal(actor.role, role));
  const now = ctx.config.clock();
  const outcome = await invite(ctx.db, { accountId: actor.accountId, invitedBy: actor.userId, email, role }, now);
  if (outcome.kind === 'refused') throw refused(outcome.refusal);
  const url = `${baseUrlOf(ctx, request)}/invite#${outcome.token}`;
  const inviter = await findUser(ctx.db.sql, actor.accountId, actor.userId);
  const mail = { to: email, url, role, from: inviter?.email ?? 'A user', expiresAt: outcome.invite.expiresAt };
  const emailed = ctx.mailer ? await mailInvite(ctx.mailer, mail, ctx.config.alertTimeoutMs) : false;
  const created: CreatedInvite = { ...presentInvite(outcome.invite), url, emailed };
  return h.response(created).code(201);
}

async function revoke(ctx: RouteContext, request: Request<WithParams<'inviteId'>>, h: ResponseToolkit) {
  const { inviteId } = request.params;
  if (!(await revokeInvite(ctx.db.sql, signedInUserOf(request).accountId, inviteId, ctx.config.clock())))
    throw apiError(
      404,
      'invite_not_found',
      `No pending invite ${inviteId} in your account (accepted, revoked or never made). ` +
        'GET /api/v1/users/invites lists the pending ones.',
    );
  return h.response().code(204);
}

async function lookup(ctx: RouteContext, request: Request): Promise<InviteInfo> {
  const { token: given } = request.payload as { token: string };
  const found = await findInviteByToken(ctx.db.sql, hashInviteToken(given));
  refuseIf(closedInviteRefusal(found, ctx.config.clock()));
  return { email: found!.email, role: found!.role, expiresAt: iso(found!.expiresAt) };
}

async function accept(ctx: RouteContext, request: Request): Promise<LoginResponse> {
  const { token: given, password } = request.payload as { token: string; password: string };
  // The invite stays open: signing in through the identity provider with its address honours it.
  refusePasswords(ctx);
  const tokenHash = hashInviteToken(given);
  // Checked before the (slow) password hash: a dead link is answered at once.
  refuseIf(closedInviteRefusal(await findInviteByToken(ctx.db.sql, tokenHash), ctx.config.clock()));
  const outcome = await acceptInvite(ctx.db, tokenHash, await hashPassword(password), ctx.config.clock());
  if (outcome.kind === 'refused') throw refused(outcome.refusal);
  // Sessions run on the wall clock, as every login's does.
  return startSession(ctx, outcome.user, Date.now(), clientOf(ctx, request));
}

/** Where users open this server: PINGMON_PUBLIC_URL, else the address this request came to. */
function baseUrlOf(ctx: RouteContext, request: Request): string {
  if (ctx.config.publicUrl) return ctx.config.publicUrl;
  return `${ctx.viaHttps(request) ? 'https' : 'http'}://${request.info.host}`;
}

function refuseIf(refusal: Refusal | undefined): void {
  if (refusal) throw refused(refusal);
}

function refused(refusal: Refusal) {
  return apiError(refusal.status, refusal.code, refusal.message);
}
