import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import Joi from 'joi';
import {
  ERROR_MESSAGE_MAX_CHARS,
  HOST_MAX_CHARS,
  LOG_MAX_CHARS,
  META_KEY_MAX_CHARS,
  META_MAX_KEYS,
  RUN_ID_PATTERN,
  UNSTORABLE_TEXT,
  isStorable,
  storableText,
  truncate,
} from '@pingmon/sdk/wire';
import type { Meta, PingKind } from '@pingmon/sdk/wire';
import type { PingSettings } from '../domain/monitor-settings.js';
import { refuse } from '../domain/ping-body.js';
import { documentSchema } from '../openapi.js';
import type { JsonSchema } from '../openapi.js';
import type { BodyError, ParsedBody, PingInput } from '../domain/ping-body.js';
import type { GivenSettings, SettingsRefusal } from './monitor-bodies.js';
import { monitorRefusal, PING_MONITOR_BODY, settingsGiven } from './monitor-bodies.js';

/** A timestamp as a ping must send it: an ISO 8601 date-time with its offset. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

// Names are refused if they hold NUL or a lone surrogate (unstorable), host names also control characters (shown
// as they are). Written to read the same with and without the u flag: joi runs it without, the document's JSON
// Schema with (where a whole pair is one code point).
const PAIR = '[\\ud800-\\udbff][\\udc00-\\udfff]';
const HOST_TEXT = new RegExp(`^(?:[^\\u0000-\\u001f\\u007f-\\u009f\\ud800-\\udfff]|${PAIR})*$`);
const META_KEY = new RegExp(`^(?:[^\\u0000\\ud800-\\udfff]|${PAIR}){1,${META_KEY_MAX_CHARS}}$`);

/** The most `redactions` a run stores (a PostgreSQL integer). */
const REDACTIONS_MAX = 2 ** 31 - 1;

const startKeys = {
  runId: Joi.string().pattern(RUN_ID_PATTERN).allow(null).description('Your own id for the run, e.g. a UUID'),
  timestamp: Joi.string()
    .pattern(ISO_TIME)
    .allow(null)
    .description('The time the ping stands for, when sent late (at most 7 days old)'),
  host: Joi.string()
    .max(HOST_MAX_CHARS)
    .pattern(HOST_TEXT)
    .allow(null, '')
    .description("The job's host (os.hostname()): shown on the run, groups one host's missed alerts"),
  monitor: PING_MONITOR_BODY,
};
const successKeys = {
  ...startKeys,
  meta: Joi.object()
    .pattern(META_KEY, Joi.number().unsafe())
    .max(META_MAX_KEYS)
    .allow(null)
    .description('Numeric metadata: a flat object of finite numbers'),
  redactions: Joi.number()
    .integer()
    .min(0)
    .max(REDACTIONS_MAX)
    .allow(null)
    .description('How many secrets the client replaced with [redacted] before sending; stored on the run'),
};
const failKeys = {
  ...successKeys,
  errorMessage: Joi.string().allow(null, '').description(`Its first ${ERROR_MESSAGE_MAX_CHARS} characters are kept`),
  logOutput: Joi.string().allow(null, '').description(`Its first ${LOG_MAX_CHARS} characters are kept`),
};
// No conversion: a meta value "10" is refused, not read as 10. Unknown keys are ignored (DESIGN §5).
const body = (keys: Joi.PartialSchemaMap, id: string) =>
  Joi.object(keys).unknown().allow(null).prefs({ convert: false }).id(id);

/** The JSON body of each ping kind: the OpenAPI document shows these, and parsePingBody validates with them. */
export const PING_BODIES: Record<PingKind, Joi.ObjectSchema> = {
  start: body(startKeys, 'StartPingBody'),
  success: body(successKeys, 'SuccessPingBody'),
  fail: body(failKeys, 'FailPingBody'),
};
/**
 * The same schemas as the document shows them, compiled: they decide on the hot path (joi took 6 to 12 µs a ping,
 * these under 1); joi only words a refusal.
 */
const ACCEPTS = compiled(PING_BODIES);

function compiled(bodies: Record<PingKind, Joi.ObjectSchema>): Record<PingKind, ValidateFunction> {
  const components: Record<string, JsonSchema> = {};
  const refs = Object.entries(bodies).map(([kind, schema]) => [kind, documentSchema(schema, components)] as const);
  // Not checked against the meta-schema here (100 ms at start): openapi.test.ts compiles the document strictly.
  const ajv = new Ajv2020({ allowUnionTypes: true, validateSchema: false });
  ajv.addVocabulary(['components']);
  ajv.addSchema({ $id: 'openapi', components: { schemas: components } });
  const validate = ([kind, ref]: readonly [string, JsonSchema]) => [kind, ajv.compile({ $ref: `openapi${ref.$ref}` })];
  return Object.fromEntries(refs.map(validate)) as Record<PingKind, ValidateFunction>;
}

/** A fail ping sent as text/plain: the whole body is its log. */
export const PLAIN_LOG_BODY = Joi.string().description('The whole body is the log');

/**
 * Reads a raw ping body. JSON is accepted whatever the content type says (curl -d sends form encoding);
 * a fail ping sent as text/plain takes the whole body as its log.
 */
export function parsePingBody(
  kind: PingKind,
  contentType: string | undefined,
  raw: Buffer | string | null,
): ParsedBody {
  const text = raw === null ? '' : raw.toString();
  if (kind === 'fail' && contentType?.toLowerCase().startsWith('text/plain')) {
    return { ok: true, input: text === '' ? {} : { logOutput: storableText(text, LOG_MAX_CHARS) } };
  }
  if (text.trim() === '') return { ok: true, input: {} };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refuse(
      'invalid_json',
      'The request body is not valid JSON. Send a JSON object with Content-Type: application/json (or no body at all).',
    );
  }
  if (!ACCEPTS[kind](json)) {
    const detail = PING_BODIES[kind].validate(json).error?.details[0];
    if (detail?.path[0] === 'monitor') {
      const settings = pingSettings((json as { monitor: unknown }).monitor);
      if (!settings.ok) return settings;
    }
    // Were joi ever to take what the document's schema refused, the refusal stands, in general words.
    return refuse(...(detail ? refusal(detail.path, detail.type, detail.context?.value) : UNMATCHED));
  }
  if (json === null) return { ok: true, input: {} };
  const body = json as Record<string, unknown>;
  // The one limit the document gives in words only: a date that exists.
  if (typeof body.timestamp === 'string' && !Number.isFinite(Date.parse(body.timestamp))) {
    return refuse(...refusal(['timestamp'], 'date', body.timestamp));
  }
  const input = inputOf(kind, body);
  if (body.monitor === undefined || body.monitor === null) return { ok: true, input };
  const settings = pingSettings(body.monitor);
  return settings.ok ? { ok: true, input: { ...input, monitor: settings.settings } } : settings;
}

/** A ping's `monitor`, read as POST /monitors reads its body (routes/monitor-bodies.ts). */
function pingSettings(given: unknown): { ok: true; settings: PingSettings } | { ok: false; error: BodyError } {
  const { value, error } = PING_MONITOR_BODY.validate(given);
  if (error) return refusedSettings(monitorRefusal(error));
  const { name, ...rest } = (value ?? {}) as GivenSettings & { name?: string };
  const checked = settingsGiven(rest);
  if (!checked.ok) return refusedSettings(checked.refusal);
  return { ok: true, settings: { ...(name !== undefined && { name }), settings: checked.settings } };
}

function refusedSettings(refusal: SettingsRefusal): { ok: false; error: BodyError } {
  return refuse(
    'invalid_settings',
    `The monitor settings are refused: ${refusal.message.replace(/\.?$/, '.')} Nothing was recorded.`,
  );
}

/** The fields of a valid body that its kind reads, with texts cut to their limits. */
function inputOf(kind: PingKind, body: Record<string, unknown>): PingInput {
  const input: PingInput = {};
  const given = (key: string) => body[key] !== undefined && body[key] !== null && body[key] !== '';
  if (given('runId')) input.runId = body.runId as string;
  if (given('timestamp')) input.timestamp = Date.parse(body.timestamp as string);
  if (given('host')) input.host = body.host as string;
  if (kind === 'start') return input;
  if (given('meta')) input.meta = body.meta as Meta;
  if (given('redactions')) input.redactions = body.redactions as number;
  if (kind === 'success') return input;
  if (given('errorMessage')) input.errorMessage = storableText(body.errorMessage as string, ERROR_MESSAGE_MAX_CHARS);
  if (given('logOutput')) input.logOutput = storableText(body.logOutput as string, LOG_MAX_CHARS);
  return input;
}

type Refusal = [BodyError['code'], string];
const UNMATCHED: Refusal = [
  'invalid_body',
  'The request body is not a ping body: GET /api/v1/openapi.json shows what each ping takes.',
];

/** What joi refused (at `path`, of `type`, `value`), told the way a person sending the ping can fix it. */
function refusal(path: Joi.ValidationErrorItem['path'], type: string, value: unknown): Refusal {
  switch (path[0]) {
    case undefined:
      return ['invalid_body', 'The request body must be a JSON object, e.g. {"meta": {"rows": 10}}.'];
    case 'runId':
      return ['invalid_run_id', 'runId must be 8 to 64 characters of letters, digits, "_" or "-" (a UUID works).'];
    case 'timestamp':
      return [
        'invalid_timestamp',
        'timestamp must be an ISO 8601 date-time with its offset, e.g. "2026-11-22T03:20:00.000Z".',
      ];
    case 'host':
      return [
        'invalid_host',
        `host must be the name of the job's host: 1 to ${HOST_MAX_CHARS} characters without control characters ` +
          `(got ${shown(value)}); leave it out if there is none.`,
      ];
    case 'meta':
      return ['invalid_meta', metaRefusal(path, type, value)];
    case 'redactions':
      return [
        'invalid_body',
        `redactions must be a whole number from 0 to ${REDACTIONS_MAX} (got ${shown(value)}): how many secrets ` +
          'the client replaced with [redacted]; leave it out if none.',
      ];
    case 'monitor':
      return UNMATCHED;
    default:
      return ['invalid_body', `${String(path[0])} must be a string.`];
  }
}

function metaRefusal(path: Joi.ValidationErrorItem['path'], type: string, value: unknown): string {
  if (path.length === 1 && type === 'object.max') {
    return `meta has ${Object.keys(value as object).length} keys; at most ${META_MAX_KEYS} are allowed.`;
  }
  if (path.length === 1) return 'meta must be an object of numbers, e.g. {"rowsProcessed": 120}.';
  const key = String(path[1]);
  // A key the key schema refused comes back as one the object does not allow.
  if (type === 'object.unknown' && (key.length === 0 || key.length > META_KEY_MAX_CHARS)) {
    return `meta key "${key.slice(0, META_KEY_MAX_CHARS)}" must be 1 to ${META_KEY_MAX_CHARS} characters long.`;
  }
  if (type === 'object.unknown' && !isStorable(key)) {
    return `meta key ${JSON.stringify(key)} must not contain ${UNSTORABLE_TEXT}.`;
  }
  return `meta.${key} must be a finite number (got ${shown(value)}).`;
}

/**
 * A JSON value as a message names it: a number, a boolean or the start of a text as sent, an array or object by its
 * kind alone. Never serialized whole: it may be megabytes long, or nested deeper than JSON.stringify can recurse.
 */
function shown(value: unknown): string {
  if (typeof value === 'string') {
    return JSON.stringify(value.length > SHOWN_CHARS ? `${truncate(value, SHOWN_CHARS)}…` : value);
  }
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  return String(value);
}

const SHOWN_CHARS = 40;
