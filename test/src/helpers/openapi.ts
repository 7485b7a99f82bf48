import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { Reply } from './http.js';

export interface Operation {
  operationId?: string;
  security: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * An ajv for JSON Schema 2020-12 (OpenAPI 3.1's dialect), strict: a keyword it does not know, or a type it cannot
 * tell, fails the compile. (strictRequired is left off: `required` inside oneOf names keys declared beside it.)
 */
export function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true });
  // Every time the API answers is ISO 8601 UTC with milliseconds (docs/api.md).
  ajv.addFormat('date-time', ISO_MS);
  ajv.addFormat('uri', true);
  return ajv;
}

/** A JSON pointer into the document, as a URI fragment. */
function pointer(...parts: string[]): string {
  return parts.map((part) => encodeURIComponent(part.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/');
}

/**
 * Checks bodies against the schemas the document gives each route and status, with ajv, and remembers which
 * routes it has seen succeed and the last body of each (method, path, status).
 */
export class DocumentChecker {
  private readonly ajv = strictAjv();
  /** `GET /monitors/{monitorId}` of every operation seen answering 2xx. */
  readonly succeeded = new Set<string>();
  readonly samples = new Map<string, unknown>();

  constructor(readonly doc: OpenApiDocument) {
    // The document's own fields are not schema keywords: they hold the schemas, which are compiled one by one.
    this.ajv.addVocabulary(['openapi', 'info', 'servers', 'paths', 'components']);
    this.ajv.addSchema(doc as object, 'openapi.json');
  }

  /** The compiled schema at a pointer into the document. */
  schema(...parts: string[]): ValidateFunction {
    const validate = this.ajv.getSchema(`openapi.json#/${pointer(...parts)}`);
    if (!validate) throw new Error(`no schema at ${parts.join(' ')}`);
    return validate;
  }

  /** The document's path (template) that a request path is, the way hapi picks: literal segments first. */
  template(path: string): string {
    const bare = path.split('?')[0]!;
    const matching = Object.keys(this.doc.paths).filter((template) =>
      new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`).test(bare),
    );
    const params = (template: string) => (template.match(/\{/g) ?? []).length;
    const best = matching.sort((a, b) => params(a) - params(b))[0];
    if (!best) throw new Error(`no path of the document is ${bare}`);
    return best;
  }

  /**
   * What is wrong with a reply to `method path` by the document: nothing ([]) when its status is documented for
   * that route (or falls under `default`) and its body is valid against that status's schema; a 204 has no body.
   * The request's JSON body, when the request succeeded, is checked against the route's request schema too.
   */
  problems(method: string, path: string, reply: Reply, sent?: unknown): string[] {
    const template = this.template(path);
    const verb = method.toLowerCase();
    const operation = this.doc.paths[template]?.[verb];
    if (!operation) return [`${method} ${template} is not in the document`];
    const status = String(reply.status);
    const documented = status in operation.responses ? status : 'default';
    const response = operation.responses[documented];
    const name = `${method} ${template} ${status}`;
    if (!response) return [`${name}: not documented and no default`];
    // A redirect is a success of the routes that answer one (a browser's sign-in).
    if (reply.status >= 200 && reply.status < 400) this.succeeded.add(`${method} ${template}`);
    this.samples.set(name, reply.body);
    const found: string[] = [];
    if (reply.status === 204 || (reply.status >= 300 && reply.status < 400)) {
      if (reply.text !== '') found.push(`${name}: a body on a ${status}`);
      if (response.content) found.push(`${name}: the document gives a ${status} content`);
    } else {
      const validate = this.schema(
        'paths',
        template,
        verb,
        'responses',
        documented,
        'content',
        'application/json',
        'schema',
      );
      if (!validate(reply.body)) found.push(`${name}: ${describe(validate.errors)}`);
    }
    const json = operation.requestBody?.content['application/json'];
    if (json && reply.status < 300 && sent !== undefined && typeof sent !== 'string') {
      const validate = this.schema('paths', template, verb, 'requestBody', 'content', 'application/json', 'schema');
      if (!validate(sent)) found.push(`${method} ${template} request body: ${describe(validate.errors)}`);
    }
    return found;
  }
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`).join('; ');
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const content = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    required: ['schema'],
    properties: { schema: { type: ['object', 'boolean'] } },
  },
};

/** The structure of an OpenAPI 3.1 document, as far as this API uses it (the OpenAPI 3.1 schema, cut down). */
export const OPENAPI_SKELETON = {
  type: 'object',
  required: ['openapi', 'info', 'paths', 'components'],
  properties: {
    openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' },
    info: {
      type: 'object',
      required: ['title', 'version'],
      properties: { title: { type: 'string' }, version: { type: 'string' }, description: { type: 'string' } },
    },
    servers: { type: 'array', items: { type: 'object', required: ['url'], properties: { url: { type: 'string' } } } },
    paths: {
      type: 'object',
      propertyNames: { pattern: '^/' },
      additionalProperties: {
        type: 'object',
        propertyNames: { enum: METHODS },
        additionalProperties: { $ref: '#/$defs/operation' },
      },
    },
    components: {
      type: 'object',
      properties: {
        schemas: { type: 'object', additionalProperties: { type: ['object', 'boolean'] } },
        securitySchemes: { type: 'object', additionalProperties: { $ref: '#/$defs/securityScheme' } },
      },
    },
  },
  $defs: {
    operation: {
      type: 'object',
      required: ['responses'],
      properties: {
        summary: { type: 'string' },
        description: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        security: {
          type: 'array',
          items: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        },
        parameters: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name', 'in', 'schema'],
            properties: {
              name: { type: 'string' },
              in: { enum: ['query', 'header', 'path', 'cookie'] },
              required: { type: 'boolean' },
              schema: { type: ['object', 'boolean'] },
            },
            // A path parameter must say it is required.
            if: { properties: { in: { const: 'path' } } },
            then: { required: ['required'], properties: { required: { const: true } } },
          },
        },
        requestBody: {
          type: 'object',
          required: ['content'],
          properties: { required: { type: 'boolean' }, content },
        },
        responses: {
          type: 'object',
          minProperties: 1,
          propertyNames: { pattern: '^([1-5](\\d\\d|XX)|default)$' },
          additionalProperties: {
            type: 'object',
            required: ['description'],
            properties: { description: { type: 'string' }, content },
          },
        },
      },
    },
    securityScheme: {
      type: 'object',
      required: ['type'],
      properties: { type: { enum: ['apiKey', 'http', 'mutualTLS', 'oauth2', 'openIdConnect'] } },
      allOf: [
        {
          if: { properties: { type: { const: 'apiKey' } } },
          then: { required: ['name', 'in'], properties: { in: { enum: ['query', 'header', 'cookie'] } } },
        },
        { if: { properties: { type: { const: 'http' } } }, then: { required: ['scheme'] } },
      ],
    },
  },
};
