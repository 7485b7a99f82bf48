import { STATUS_CODES } from 'node:http';
import { createRequire } from 'node:module';
import type { AuthSettings, RequestRoute, Server } from '@hapi/hapi';
import Joi from 'joi';
import type { Description } from 'joi';
import joiToJson from 'joi-to-json';
import { SESSION_COOKIE, SESSION_HEADER } from './auth.js';
import { ErrorBody } from './routes/responses.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };
// A CommonJS module whose module.exports is the function: its types describe it as an ES module.
const parse = joiToJson as unknown as typeof joiToJson.parse;

declare module '@hapi/hapi' {
  interface PluginSpecificConfiguration {
    /** What the OpenAPI document says of a route beyond its own settings. */
    openapi?: {
      /** The bodies of a route that reads its body itself (the pings), by media type. */
      payload?: Record<string, Joi.Schema>;
      /** The query of a route that reads its query itself. */
      query?: Joi.ObjectSchema;
    };
  }
}

export type JsonSchema = Record<string, unknown>;
type Security = Array<Record<string, string[]>>;

export interface OpenApiDocument {
  openapi: string;
  info: JsonSchema;
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

/** How each strategy of auth.ts is presented: any one entry of its list will do; the keys of one entry go together. */
const SECURITY: Record<string, Security> = {
  // A read or write key is accepted where its scope covers the route's access level (docs/api.md#roles).
  user: [{ userToken: [] }, { sessionCookie: [], sessionHeader: [] }, { apiKey: [] }, { apiKeyBearer: [] }],
  'api-key': [{ apiKey: [] }, { apiKeyBearer: [] }],
};

const SECURITY_SCHEMES: Record<string, JsonSchema> = {
  userToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A user token from POST /auth/login, as Authorization: Bearer <token>.',
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: "The dashboard's session, set by POST /auth/session; used only when no other credential is sent.",
  },
  sessionHeader: {
    type: 'apiKey',
    in: 'header',
    name: SESSION_HEADER,
    description: 'Any value. A request signed in by the session cookie must carry it (a page of another site cannot).',
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'An account API key (pm_…): a ping key on the ping routes, a read or write key on the others.',
  },
  apiKeyBearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'API key',
    description: 'The account API key as Authorization: Bearer pm_….',
  },
};

/**
 * The OpenAPI 3.1 document of the routes under `prefix`, made from what the server itself runs on: each route's
 * path, auth, joi validation (params, query, payload) and response schemas (routes/responses.ts).
 */
export function openApiDocument(server: Server, prefix: string): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = {};
  const paths: OpenApiDocument['paths'] = {};
  const routes = server.table().filter((route) => route.path.startsWith(`${prefix}/`));
  for (const route of routes.sort((a, b) => a.path.localeCompare(b.path))) {
    const path = route.path.slice(prefix.length);
    (paths[path] ??= {})[route.method] = operation(server, route, schemas);
  }
  for (const schema of Object.values(schemas)) tidy(schema);
  return {
    openapi: '3.1.0',
    info: {
      title: 'pingmon API',
      version,
      description: "Made by the server from its own routes and validation. docs/api.md tells what's behind them.",
    },
    servers: [{ url: prefix }],
    paths,
    components: { schemas, securitySchemes: SECURITY_SCHEMES },
  };
}

function operation(server: Server, route: RequestRoute, schemas: Record<string, JsonSchema>): JsonSchema {
  const { id, description, notes, tags, validate, plugins, response } = route.settings;
  const toJson = (schema: Joi.Schema) => jsonSchema(schema, schemas, validate?.options);
  const names = [...route.path.matchAll(/\{(\w+)\??\}/g)].map((match) => match[1]!);
  const pathSchema = Joi.isSchema(validate?.params) ? toJson(validate.params) : {};
  const parameters = [
    ...names.map((name) => ({
      name,
      in: 'path',
      required: true,
      // Every monitorId in a path takes the slug too (routes/monitor-refs.ts).
      ...(name === 'monitorId' && { description: 'The monitor id (mon_…) or its slug' }),
      schema: propertiesOf(pathSchema)[name] ?? { type: 'string' },
    })),
    ...queryParameters(validate?.query ?? plugins?.openapi?.query, toJson),
  ];
  const body = requestBody(validate?.payload, plugins?.openapi?.payload, toJson);
  const security = securityOf(server, route);
  // Besides the statuses the route declares: the errors its settings make likely, and any other as `default`.
  const errors = new Set<number>();
  if (body || parameters.length > 0) errors.add(400);
  if (security.length > 0) errors.add(401);
  // A role or a key scope below the route's access level (access-check.ts).
  if (plugins?.access) errors.add(403);
  if (names.length > 0) errors.add(404);
  const responses = responsesOf(response?.status ?? {}, errors, toJson);
  return {
    // The route's hapi id: the name of the SDK's method for it, where it has one.
    ...(id && { operationId: id }),
    ...(description && { summary: description }),
    ...(notes && { description: [notes].flat().join('\n\n') }),
    ...(tags && { tags }),
    // Who may call it (docs/api.md#roles): read, write, admin or self.
    ...(plugins?.access && { 'x-pingmon-access': plugins.access }),
    security,
    ...(parameters.length > 0 && { parameters }),
    ...(body && { requestBody: body }),
    responses,
  };
}

function responsesOf(
  declared: Record<string, unknown>,
  errors: Set<number>,
  toJson: (schema: Joi.Schema) => JsonSchema,
): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  for (const [code, schema] of Object.entries(declared)) {
    const reply: JsonSchema = { description: STATUS_CODES[code] ?? code };
    // No content, or a redirect: declared `false`, which hapi compiles with a joi of its own.
    const bodiless = code === '204' || code.startsWith('3');
    if (!bodiless && Joi.isSchema(schema)) reply.content = { 'application/json': { schema: toJson(schema) } };
    responses[code] = reply;
  }
  const error = { 'application/json': { schema: toJson(ErrorBody) } };
  for (const code of errors) responses[code] ??= { description: STATUS_CODES[code], content: error };
  responses.default = { description: 'The error shape of docs/api.md', content: error };
  return responses;
}

/** An empty list for a route without auth: a document-wide default would not apply to it. */
function securityOf(server: Server, route: RequestRoute): Security {
  // false on a route without auth, though hapi's types do not say so.
  const configured = route.settings.auth as AuthSettings | false | undefined;
  const auth = configured === false ? undefined : (configured ?? server.auth.settings.default);
  if (!auth) return [];
  const security = (auth.strategies ?? []).flatMap((name) => {
    const presented = SECURITY[name];
    if (!presented) throw new Error(`The auth strategy ${name} has no security scheme in openapi.ts`);
    return presented;
  });
  return auth.mode === 'required' ? security : [...security, {}];
}

function queryParameters(schema: unknown, toJson: (schema: Joi.Schema) => JsonSchema) {
  if (!Joi.isSchema(schema)) return [];
  const query = toJson(schema);
  const required = (query.required ?? []) as string[];
  return Object.entries(propertiesOf(query)).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    schema,
  }));
}

function requestBody(
  payload: unknown,
  documented: Record<string, Joi.Schema> | undefined,
  toJson: (schema: Joi.Schema) => JsonSchema,
): JsonSchema | undefined {
  // hapi hands a missing body to validation as null.
  if (Joi.isSchema(payload)) {
    const content = { 'application/json': { schema: toJson(payload) } };
    return { required: payload.validate(null).error !== undefined, content };
  }
  if (!documented) return undefined;
  const content = Object.fromEntries(
    Object.entries(documented).map(([type, schema]) => [type, { schema: toJson(schema) }]),
  );
  return { required: false, content };
}

function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  return (schema.properties ?? {}) as Record<string, JsonSchema>;
}

/**
 * joi-to-json's own xor and without say nothing of null: an object that may be null (a monitor's schedule)
 * would be refused as null. These apply to objects only.
 */
const OBJECTS_ONLY = {
  xor: (schema: JsonSchema, dependency: { peers: string[] }) => {
    schema.if = { type: 'object' };
    schema.then = { oneOf: dependency.peers.map((peer) => ({ required: [peer] })) };
  },
  without: (schema: JsonSchema, dependency: { key: string; peers: string[] }) => {
    const others = { not: { anyOf: dependency.peers.map((peer) => ({ required: [peer] })) } };
    schema.dependentSchemas = { ...(schema.dependentSchemas as JsonSchema), [dependency.key]: others };
  },
};

/** A joi schema as the document shows it; the ones it holds with an id go into `components`, referenced. */
export function documentSchema(schema: Joi.Schema, components: Record<string, JsonSchema>): JsonSchema {
  const json = jsonSchema(schema, components);
  for (const component of Object.values(components)) tidy(component);
  return json;
}

/** A joi schema as JSON Schema 2020-12; the ones it holds with an id go into `components`, referenced. */
function jsonSchema(schema: Joi.Schema, components: Record<string, JsonSchema>, options?: object): JsonSchema {
  const description = forDocument(schema.describe(), (options ?? {}) as Preferences);
  const described = { describe: () => description } as unknown as Joi.Schema;
  const json = parse(described, 'open-api-3.1', components, { logicalOpParser: OBJECTS_ONLY }) as JsonSchema;
  delete json.schemas;
  return tidy(json);
}

type Preferences = { stripUnknown?: boolean | { objects?: boolean } };
type Node = Description & {
  preferences?: Preferences;
  flags?: { unknown?: boolean; presence?: string };
  whens?: Array<{ ref?: unknown; then?: Node; otherwise?: Node }>;
};

/**
 * What joi-to-json would get wrong, put the way it reads right:
 * - an object validated with stripUnknown takes keys it does not know (and drops them): to a client it is open,
 *   and joi-to-json, which reads allowUnknown only, would call it closed;
 * - a value whose schema depends on another key (a channel's url on its type) is any of its branches: joi-to-json
 *   would make it exactly one of them (oneOf), and an http URL is both a string and a URI.
 */
function forDocument(node: Node, inherited: Preferences): Node {
  const preferences = { ...inherited, ...node.preferences };
  const strip = preferences.stripUnknown;
  const open = strip === true || (typeof strip === 'object' && strip.objects === true);
  if (node.type === 'object' && node.flags?.unknown === undefined && open)
    node.flags = { ...node.flags, unknown: true };
  if (node.type === 'object') node.metas = [...(node.metas ?? []), ...propertyCounts(node)];
  const [when, ...more] = node.whens ?? [];
  if (node.type === 'any' && when?.ref !== undefined && more.length === 0) {
    const branches = [when.then, when.otherwise].filter((branch): branch is Node => branch !== undefined);
    const required = branches.every((branch) => branch.flags?.presence === 'required');
    Object.assign(node, { type: 'alternatives', matches: branches.map((schema) => ({ schema })), whens: undefined });
    if (required) node.flags = { ...node.flags, presence: 'required' };
  }
  const children: Node[] = [
    ...Object.values((node.keys ?? {}) as Record<string, Node>),
    ...((node.items ?? []) as Node[]),
    ...((node.matches ?? []) as Array<{ schema?: Node }>).flatMap((match) => (match.schema ? [match.schema] : [])),
  ];
  for (const child of children) forDocument(child, preferences);
  return node;
}

/** An object's min and max key counts, which joi-to-json drops, carried through it as x- metas (see tidy). */
function propertyCounts(node: Node): Array<Record<string, number>> {
  const rules = (node.rules ?? []) as Array<{ name: string; args?: { limit?: number } }>;
  return rules
    .filter((rule) => (rule.name === 'min' || rule.name === 'max') && typeof rule.args?.limit === 'number')
    .map((rule) => ({ [`x-${rule.name}Properties`]: rule.args!.limit! }));
}

/**
 * joi-to-json lists an object's key pattern (/^/) as a property too, beside its patternProperties; and the key
 * counts of propertyCounts arrive as x- keys.
 */
function tidy(schema: JsonSchema): JsonSchema {
  const patterns = schema.patternProperties as JsonSchema | undefined;
  const properties = schema.properties as JsonSchema | undefined;
  if (patterns && properties) {
    for (const key of Object.keys(properties)) {
      if (key.startsWith('/') && key.slice(1, key.lastIndexOf('/')) in patterns) delete properties[key];
    }
  }
  for (const count of ['minProperties', 'maxProperties']) {
    if (`x-${count}` in schema) {
      schema[count] = schema[`x-${count}`];
      delete schema[`x-${count}`];
    }
  }
  for (const value of Object.values(schema)) {
    if (value !== null && typeof value === 'object') tidy(value as JsonSchema);
  }
  return schema;
}
