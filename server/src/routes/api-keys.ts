import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { ApiKeyList, CreateApiKeyRequest, CreatedApiKey } from '@pingmon/sdk/wire';
import { userOf } from '../auth.js';
import { findApiKey, insertApiKey, listApiKeys, revokeApiKey } from '../db/api-keys.js';
import { apiError } from '../errors.js';
import { newId } from '../ids.js';
import { presentApiKey } from '../presenter.js';
import { newApiKey } from '../secrets.js';
import type { RouteContext } from './context.js';
import { pageOf, pageQuery, pageStart } from './pagination.js';
import { ApiKeyList as ApiKeyListSchema, CreatedApiKey as CreatedApiKeySchema, replies } from './responses.js';
import type { WithParams } from './validation.js';
import { invalidRequest, pathParams } from './validation.js';

export function apiKeyRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/api-keys',
      options: {
        id: 'listApiKeys',
        description: "The account's API keys",
        tags: ['api-keys'],
        response: replies({ 200: ApiKeyListSchema }),
        validate: { query: Joi.object(pageQuery), options: { allowUnknown: true }, failAction: invalidRequest },
      },
      handler: (request: Request) => list(ctx, request),
    },
    {
      method: 'POST',
      path: '/api-keys',
      options: {
        id: 'createApiKey',
        description: 'Create an API key (shown this once)',
        tags: ['api-keys'],
        response: replies({ 201: CreatedApiKeySchema }),
        validate: {
          payload: Joi.object({
            name: Joi.string().trim().min(1).max(100).default('unnamed'),
            provision: Joi.boolean().default(true).messages({ '*': 'provision must be true or false' }),
          })
            .options({ stripUnknown: true })
            .allow(null)
            .default({}),
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
  const { name, provision } = (request.payload ?? {
    name: 'unnamed',
    provision: true,
  }) as Required<CreateApiKeyRequest>;
  const keyId = newId('key');
  const key = newApiKey();
  const stored = { keyId, accountId, name, prefix: key.prefix, keyHash: key.hash, provision, now: Date.now() };
  await insertApiKey(ctx.db.sql, stored);
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
