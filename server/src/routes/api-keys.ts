import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { ApiKeyList, CreateApiKeyRequest, CreatedApiKey, KeyScope } from '@pingmon/sdk/wire';
import { KEY_SCOPES } from '@pingmon/sdk/wire';
import { userOf } from '../auth.js';
import { findApiKey, insertApiKey, listApiKeys, revokeApiKey } from '../db/api-keys.js';
import { findMonitor } from '../db/monitors.js';
import { apiError } from '../errors.js';
import { newId } from '../ids.js';
import { presentApiKey } from '../presenter.js';
import { newApiKey } from '../secrets.js';
import type { RouteContext } from './context.js';
import { pageOf, pageOnly, pageStart } from './pagination.js';
import { ApiKeyList as ApiKeyListSchema, CreatedApiKey as CreatedApiKeySchema, replies } from './responses.js';
import type { WithParams } from './validation.js';
import { invalidRequest, pathParams } from './validation.js';

export const keyBody = Joi.object({
  name: Joi.string().trim().min(1).max(100).default('unnamed'),
  scope: Joi.string()
    .valid(...KEY_SCOPES)
    .default('ping')
    .meta({ type: 'KeyScope' })
    .messages({ '*': `scope must be one of ${KEY_SCOPES.join(', ')}` })
    .description('ping (the default): pings only; read: reads the management API; write: changes it too'),
  provision: Joi.boolean()
    .messages({ '*': 'provision must be true or false' })
    .description('Ping keys only. false: a ping-only key, whose pings never create or change a monitor'),
  monitorIds: Joi.array()
    .items(Joi.string().max(64))
    .min(1)
    .max(100)
    .unique()
    .allow(null)
    .messages({ '*': 'monitorIds must be a list of 1 to 100 monitor ids or slugs, or null for every monitor' })
    .description('The monitors (ids or slugs) the key is limited to; left out or null: every monitor'),
})
  .options({ stripUnknown: true })
  .allow(null)
  .default({});

export function apiKeyRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/api-keys',
      options: {
        id: 'listApiKeys',
        plugins: { access: 'admin' },
        description: "The account's API keys",
        tags: ['api-keys'],
        response: replies({ 200: ApiKeyListSchema }),
        validate: { query: pageOnly, options: { allowUnknown: true }, failAction: invalidRequest },
      },
      handler: (request: Request) => list(ctx, request),
    },
    {
      method: 'POST',
      path: '/api-keys',
      options: {
        id: 'createApiKey',
        plugins: { access: 'admin' },
        description: 'Create an API key (shown this once)',
        tags: ['api-keys'],
        response: replies({ 201: CreatedApiKeySchema }),
        validate: {
          payload: keyBody,
          failAction: invalidRequest,
        },
      },
      handler: (request: Request, h: ResponseToolkit) => create(ctx, request, h),
    },
    {
      method: 'DELETE',
      path: '/api-keys/{keyId}',
      options: {
        id: 'revokeApiKey',
        plugins: { access: 'admin' },
        description: 'Revoke an API key',
        tags: ['api-keys'],
        response: replies({ 204: false }),
        validate: { params: pathParams('keyId'), failAction: invalidRequest },
      },
      handler: (request: Request<WithParams<'keyId'>>, h: ResponseToolkit) => revoke(ctx, request, h),
    },
  ];
}

async function list(ctx: RouteContext, request: Request): Promise<ApiKeyList> {
  const { limit, cursor } = request.query as { limit: number; cursor?: string };
  const fetched = await listApiKeys(ctx.db.sql, userOf(request).accountId, {
    limit: limit + 1,
    after: pageStart(cursor),
  });
  const page = pageOf(fetched, limit, (key) => ({ at: key.createdAt, id: key.keyId }));
  return { apiKeys: page.items.map(presentApiKey), nextCursor: page.nextCursor };
}

async function create(ctx: RouteContext, request: Request, h: ResponseToolkit) {
  const { accountId } = userOf(request);
  const input = (request.payload ?? { name: 'unnamed', scope: 'ping' }) as CreateApiKeyRequest & {
    name: string;
    scope: KeyScope;
  };
  const { name, scope } = input;
  if (scope !== 'ping' && input.provision !== undefined)
    throw apiError(
      400,
      'invalid_request',
      `provision is for ping keys: a ${scope} key never pings. Leave provision out, or make a ping key.`,
    );
  // Slugs are ids by now (routes/monitor-refs.ts): one left as given names no monitor of the account.
  const monitorIds = input.monitorIds ? [...input.monitorIds].sort() : null;
  for (const monitorId of monitorIds ?? []) {
    if (!(await findMonitor(ctx.db.sql, accountId, monitorId)))
      throw apiError(400, 'unknown_monitor', `monitorIds: no monitor ${monitorId} in your account.`);
  }
  const keyId = newId('key');
  const key = newApiKey();
  const provision = scope === 'ping' && input.provision !== false;
  const stored = { keyId, accountId, name, prefix: key.prefix, keyHash: key.hash, scope, provision, monitorIds };
  await insertApiKey(ctx.db.sql, { ...stored, now: Date.now() });
  const created: CreatedApiKey = { ...presentApiKey((await findApiKey(ctx.db.sql, accountId, keyId))!), key: key.key };
  return h.response(created).code(201);
}

/** Revoked keys stop working within the API key cache time (5 s). */
async function revoke(ctx: RouteContext, request: Request<WithParams<'keyId'>>, h: ResponseToolkit) {
  const { accountId } = userOf(request);
  const { keyId } = request.params;
  if (!(await revokeApiKey(ctx.db.sql, accountId, keyId, Date.now()))) {
    const key = await findApiKey(ctx.db.sql, accountId, keyId);
    if (!key) throw apiError(404, 'api_key_not_found', `No API key ${keyId} in your account.`);
  }
  return h.response().code(204);
}
