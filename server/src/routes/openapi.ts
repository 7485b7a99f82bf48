import Joi from 'joi';
import type { Request, ServerRoute } from '@hapi/hapi';
import type { OpenApiDocument } from '../openapi.js';
import { openApiDocument } from '../openapi.js';
import { replies } from './responses.js';

/**
 * GET /openapi.json: the OpenAPI 3.1 document of the API, made at the first request (every route is in place by
 * then) and kept: the routes do not change while the server runs.
 */
export function openApiRoutes(): ServerRoute[] {
  let document: OpenApiDocument | undefined;
  return [
    {
      method: 'GET',
      path: '/openapi.json',
      options: {
        id: 'getOpenApi',
        auth: false,
        description: 'The OpenAPI 3.1 document of this API',
        tags: ['meta'],
        response: replies({ 200: Joi.object().unknown().id('OpenApiDocument') }),
      },
      handler: (request: Request) =>
        (document ??= openApiDocument(request.server, request.route.realm.modifiers.route.prefix ?? '')),
    },
  ];
}
