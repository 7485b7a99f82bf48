import type { ReqRef, Request, ResponseObject, Server } from '@hapi/hapi';
import type { Boom } from '@hapi/boom';
import { bearerOf, sessionIdOf, sessionOf } from './auth.js';
import type { Caller } from './auth.js';
import type { TargetType, Seen } from './audit-targets.js';
import { changesOf, seenMonitor, TARGETS } from './audit-targets.js';
import type { ApiKeyGrant } from './db/api-keys.js';
import { findApiKey } from './db/api-keys.js';
import type { AuditActor, AuditChange, AuditEntryRecord, AuditTarget } from './db/audit-entries.js';
import { insertAuditEntry } from './db/audit-entries.js';
import { findLiveSession } from './db/sessions.js';
import { findUser, findUserByEmail } from './db/users.js';
import { newId } from './ids.js';
import type { RouteContext } from './routes/context.js';
import type { RequestStep } from './request-steps.js';
import type { ProvisionChange } from './use-cases/provision-monitor.js';

/** An audited route (keyed by its `options.id` in AUDITED). */
interface Audited {
  /** The action, or the action an edit's changes make (a monitor paused, resumed, snoozed or edited). */
  action: string | ((changes: AuditChange[]) => string);
  /** What it changes; left out: the user acting (a password, a sign-in); null: the account as a whole. */
  target?: TargetType | null;
  /** An edit: the target is read before and after, and the entry says which fields changed (none: no entry). */
  edit?: true;
  /** Refused with 401, recorded as this action all the same (a failed sign-in). */
  failed?: string;
}

/**
 * Every change the API makes that the audit trail records (docs/api.md#audit-trail), by route id. Adding one is a
 * line here; a new kind of target is an entry of TARGETS (audit-targets.ts).
 */
const AUDITED: Readonly<Record<string, Audited>> = {
  createMonitor: { action: 'monitor.created', target: 'monitor' },
  updateMonitor: { action: monitorEdit, target: 'monitor', edit: true },
  deleteMonitor: { action: 'monitor.deleted', target: 'monitor' },
  createRule: { action: 'rule.added', target: 'rule' },
  deleteRule: { action: 'rule.removed', target: 'rule' },
  createChannel: { action: 'channel.added', target: 'channel' },
  updateChannel: { action: 'channel.updated', target: 'channel', edit: true },
  deleteChannel: { action: 'channel.removed', target: 'channel' },
  testChannel: { action: 'channel.tested', target: 'channel' },
  createApiKey: { action: 'api_key.created', target: 'api_key' },
  revokeApiKey: { action: 'api_key.revoked', target: 'api_key' },
  createMaintenanceWindow: { action: 'maintenance_window.added', target: 'maintenance_window' },
  deleteMaintenanceWindow: { action: 'maintenance_window.removed', target: 'maintenance_window' },
  changePassword: { action: 'user.password_changed' },
  login: { action: 'user.signed_in', failed: 'user.sign_in_failed' },
  createSession: { action: 'user.signed_in', failed: 'user.sign_in_failed' },
  exchangeCliCode: { action: 'user.signed_in' },
  logout: { action: 'user.signed_out' },
  revokeSession: { action: 'user.session_revoked' },
  revokeOtherSessions: { action: 'user.other_sessions_revoked' },
  confirmSecondFactor: { action: 'user.second_factor_enabled' },
  disableSecondFactor: { action: 'user.second_factor_disabled' },
  inviteUser: { action: 'user.invited', target: 'invite' },
  revokeInvite: { action: 'invite.revoked', target: 'invite' },
  acceptInvite: { action: 'user.joined' },
  setUserRole: { action: 'user.role_changed', target: 'user', edit: true },
  removeUser: { action: 'user.removed', target: 'user' },
  setStatusPage: { action: 'status_page.updated', target: null },
};

function monitorEdit(changes: AuditChange[]): string {
  const only = changes.length === 1 ? changes[0]! : undefined;
  if (only?.field === 'paused') return only.to === true ? 'monitor.paused' : 'monitor.resumed';
  if (only?.field === 'snoozedUntil') return 'monitor.snoozed';
  return 'monitor.updated';
}

/** Who a request's credentials speak for, without a name yet: the only place that knows the credentials' shape. */
export function actorOf(request: Request): { accountId: string; type: AuditActor['type']; id: string } | undefined {
  const credentials = request.auth.credentials as { caller?: Caller; grant?: ApiKeyGrant } | null;
  const caller = credentials?.caller;
  if (caller?.kind === 'user') return { accountId: caller.accountId, type: 'user', id: caller.userId };
  if (caller?.kind === 'key') return { accountId: caller.accountId, type: 'api_key', id: caller.keyId };
  if (credentials?.grant)
    return { accountId: credentials.grant.accountId, type: 'api_key', id: credentials.grant.keyId };
  return undefined;
}

/** What a handler tells the mechanism of a change it alone knows of: a monitor a ping's settings made or changed. */
export type AuditNote = ProvisionChange;

declare module '@hapi/hapi' {
  interface PluginsStates {
    audit?: { before?: Seen; accountId?: string; actor?: AuditActor; note?: AuditNote };
  }
}

/** Records the change a provisioning ping made (use-cases/provision-monitor.ts), whatever the ping's own fate. */
export function noteChange<Refs extends ReqRef>(request: Request<Refs>, note: AuditNote): void {
  request.plugins.audit = { ...request.plugins.audit, note };
}

type Trail = NonNullable<Request['plugins']['audit']>;

/**
 * Writes the audit trail's entries, once for every route: after an audited route answered 2xx (or a sign-in 401),
 * and for what a handler noted. Written after the change committed, before the reply goes: a failed write is logged
 * and never turns a change already made into an error (in each change's transaction it would be in every handler).
 * Answers the step that reads an edit's target before the handler (server.ts runs it with the other checks).
 */
export function registerAudit(server: Server, ctx: RouteContext): RequestStep {
  const guarded = (request: Request, work: () => Promise<void>) =>
    work().catch((err: unknown) =>
      server.log(['audit', 'error'], `audit entry of ${request.route.settings.id} not written: ${String(err)}`),
    );
  server.ext('onPreResponse', (request, h) => {
    const audited = AUDITED[request.route.settings.id ?? ''];
    if (!audited && request.plugins.audit?.note === undefined) return h.continue;
    return guarded(request, () => write(ctx, request, audited)).then(() => h.continue);
  });
  // The step before the handler, reading what an edit changes. Not async: a route not audited (every ping) passes
  // without a promise.
  return (request) => {
    const audited = AUDITED[request.route.settings.id ?? ''];
    if (audited) return guarded(request, () => readBefore(ctx, request, audited));
  };
}

async function readBefore(ctx: RouteContext, request: Request, audited: Audited): Promise<void> {
  const trail: Trail = (request.plugins.audit = {});
  if (request.route.settings.id === 'logout') {
    const token = bearerOf(request) ?? sessionOf(request);
    const sessionId = token === undefined ? undefined : sessionIdOf(token, ctx.jwtSecret);
    const session = sessionId === undefined ? undefined : await findLiveSession(ctx.db.sql, sessionId);
    if (session) {
      trail.accountId = session.accountId;
      trail.actor = await namedActor(ctx, session.accountId, 'user', session.userId);
    }
    return;
  }
  const actor = actorOf(request);
  const kind = audited.target == null ? undefined : TARGETS[audited.target];
  const id = kind && (request.params as Record<string, string | undefined>)[kind.idName];
  if (actor && kind && id !== undefined)
    trail.before = await kind.find(ctx.db.sql, actor.accountId, id, request.params as Record<string, string>);
}

function statusOf(request: Request): number {
  const response = request.response as ResponseObject | Boom | null;
  if (!response) return 0;
  return 'isBoom' in response && response.isBoom ? response.output.statusCode : (response as ResponseObject).statusCode;
}

async function write(ctx: RouteContext, request: Request, audited: Audited | undefined): Promise<void> {
  const trail: Trail = request.plugins.audit ?? {};
  const status = statusOf(request);
  const base = { at: ctx.config.clock(), address: ctx.clientAddress(request) };
  if (trail.note) await writeNote(ctx, request, trail.note, base);
  if (!audited) return;
  if (status === 401 && audited.failed !== undefined) return writeFailedSignIn(ctx, request, audited.failed, base);
  if (status < 200 || status > 299) return;
  const who = await whoDid(ctx, request, trail);
  if (!who) return;
  const entry = { ...base, ...who, monitorId: null, changes: null };
  const kind = audited.target == null ? undefined : TARGETS[audited.target];
  if (!kind) {
    const self = who.actor.type === 'user' ? { ...who.actor } : null;
    return insert(ctx, { ...entry, action: actionName(audited, []), target: audited.target === null ? null : self });
  }
  const params = request.params as Record<string, string>;
  const source = (request.response as ResponseObject).source as Record<string, unknown> | null;
  const id = params[kind.idName] ?? (source?.[kind.idName] as string | undefined);
  if (id === undefined) return;
  // A deletion's target is gone: its name was read before. A creation's is read now, and an edit's again.
  const after = trail.before && !audited.edit ? undefined : await kind.find(ctx.db.sql, who.accountId, id, params);
  const seen = after ?? trail.before;
  const changes = audited.edit && trail.before && after ? changesOf(trail.before, after) : null;
  if (audited.edit && changes?.length === 0) return;
  const target: AuditTarget = { type: audited.target!, id, name: seen?.name ?? null };
  const monitorId = audited.target === 'monitor' ? id : (seen?.monitorId ?? null);
  await insert(ctx, { ...entry, action: actionName(audited, changes ?? []), target, monitorId, changes });
}

function actionName(audited: Audited, changes: AuditChange[]): string {
  return typeof audited.action === 'string' ? audited.action : audited.action(changes);
}

type Who = { accountId: string; actor: AuditActor };

/** The actor of a change: the credentials' (named), a sign-in's user (from its reply), a sign-out's (read before). */
async function whoDid(ctx: RouteContext, request: Request, trail: Trail): Promise<Who | undefined> {
  if (trail.actor && trail.accountId) return { accountId: trail.accountId, actor: trail.actor };
  const actor = actorOf(request);
  if (actor) return { accountId: actor.accountId, actor: await namedActor(ctx, actor.accountId, actor.type, actor.id) };
  const signedIn = (request.response as ResponseObject).source as {
    user?: { userId: string; email: string };
    account?: { accountId: string };
  } | null;
  if (!signedIn?.user || !signedIn.account) return undefined;
  const { userId, email } = signedIn.user;
  return { accountId: signedIn.account.accountId, actor: { type: 'user', id: userId, name: email } };
}

async function namedActor(ctx: RouteContext, accountId: string, type: AuditActor['type'], id: string) {
  const name =
    type === 'user'
      ? (await findUser(ctx.db.sql, accountId, id))?.email
      : (await findApiKey(ctx.db.sql, accountId, id))?.prefix;
  return { type, id, name: name ?? id };
}

/** A wrong password for a user of the account: the e-mail tried, never the password. Unknown e-mails: no account. */
async function writeFailedSignIn(ctx: RouteContext, request: Request, action: string, base: Base): Promise<void> {
  const email = (request.payload as { email?: unknown } | null)?.email;
  const user = typeof email === 'string' ? await findUserByEmail(ctx.db.sql, email) : undefined;
  if (!user) return;
  await insert(ctx, { ...base, ...onThemselves(user), action, monitorId: null, changes: null });
}

/** A user acting on themselves (a sign-in): the entry's account, actor and target. */
function onThemselves(user: { userId: string; accountId: string; email: string }) {
  const named = { id: user.userId, name: user.email };
  const actor: AuditActor = { type: 'user', ...named };
  return { accountId: user.accountId, actor, target: { type: 'user', ...named } };
}

/**
 * A sign-in through the identity provider, which answers with a redirect rather than the sign-in's reply, and a
 * role it brought in step with the provider's groups: written by its handler, the user acting on themselves.
 */
export async function auditSignIn(
  ctx: RouteContext,
  request: Request,
  user: { userId: string; accountId: string; email: string },
  action: 'user.signed_in' | 'user.sign_in_failed' | 'user.role_changed',
  changes: AuditChange[] | null = null,
): Promise<void> {
  const entry = {
    at: ctx.config.clock(),
    address: ctx.clientAddress(request),
    ...onThemselves(user),
    action,
    monitorId: null,
    changes,
  };
  await insert(ctx, entry).catch((err: unknown) =>
    request.server.log(['audit', 'error'], `audit entry of ${action} not written: ${String(err)}`),
  );
}

type Base = { at: number; address: string };

async function writeNote(ctx: RouteContext, request: Request, note: AuditNote, base: Base): Promise<void> {
  const actor = actorOf(request);
  if (!actor) return;
  const who = { accountId: actor.accountId, actor: await namedActor(ctx, actor.accountId, actor.type, actor.id) };
  const monitor = note.kind === 'created' ? note.monitor : note.after;
  const target = { type: 'monitor', id: monitor.monitorId, name: monitor.name };
  const changes = note.kind === 'updated' ? changesOf(seenMonitor(note.before), seenMonitor(note.after)) : null;
  if (changes?.length === 0) return;
  const action = changes === null ? 'monitor.created' : monitorEdit(changes);
  await insert(ctx, { ...base, ...who, action, target, monitorId: monitor.monitorId, changes });
}

function insert(ctx: RouteContext, entry: Omit<AuditEntryRecord, 'entryId'>): Promise<void> {
  return insertAuditEntry(ctx.db.sql, { ...entry, entryId: newId('aud', entry.at) });
}
