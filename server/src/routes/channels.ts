import Joi from 'joi';
import type { Boom } from '@hapi/boom';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type {
  Channel,
  ChannelList,
  ChannelPreview,
  ChannelPreviewRequest,
  ChannelTestResult,
  CreateChannelRequest,
  UpdateChannelRequest,
} from '@pingmon/sdk/wire';
import { attemptChannel } from '../alerts/attempt.js';
import { testContent } from '../alerts/payloads.js';
import { CHANNEL_TYPES, kindOf } from '../alerts/channels/index.js';
import type { ChannelKind, ChannelTarget } from '../alerts/channels/kind.js';
import { previewTemplate } from '../alerts/channels/template-check.js';
import type { TemplateOptions } from '../alerts/channels/template-fields.js';
import { userOf } from '../auth.js';
import { UnknownMonitorsError, countChannelTest, deleteChannel, findChannel, listChannels } from '../db/channels.js';
import type { ChannelRecord } from '../domain/channels.js';
import { CHANNEL_TESTS_PER_WINDOW, CHANNEL_TEST_WINDOW_MS, channelTestDecision } from '../domain/channels.js';
import { nonPublicHostOf } from '../domain/addresses.js';
import { verdictOf } from '../domain/delivery.js';
import { apiError, waitFor } from '../errors.js';
import { newId } from '../ids.js';
import { presentChannel } from '../presenter.js';
import { addChannel, changeChannel } from '../use-cases/channels.js';
import type { RouteContext } from './context.js';
import {
  Channel as ChannelSchema,
  ChannelList as ChannelListSchema,
  ChannelPreview as ChannelPreviewSchema,
  ChannelTestResult as ChannelTestSchema,
  replies,
} from './responses.js';
import type { WithParams } from './validation.js';
import { invalidRequest, pathParams } from './validation.js';

const name = Joi.string().trim().min(1).max(100);
// fetch refuses a URL with a user name or password, so such a channel could never be sent to. joi's URI grammar
// is looser than the URL standard fetch parses by (a host "localhost%00", a port 99999): such a URL could never be
// sent to either, nor its host be checked for PINGMON_CHANNELS_PUBLIC_ONLY.
const url = Joi.string()
  .trim()
  .max(2000)
  .uri({ scheme: ['http', 'https'] })
  .custom((value: string, helpers) => {
    if (!URL.canParse(value)) return helpers.error('string.unparsable');
    return /^[a-z]+:\/\/[^/?#]*@/i.test(value) ? helpers.error('string.credentials') : value;
  })
  .messages({
    'string.uriCustomScheme': '"url" must be an http:// or https:// URL',
    'string.unparsable':
      '"url" cannot be parsed as a URL by the URL standard, which alerts are sent by: check its host and port ' +
      '(a percent-encoded character such as %00 in the host, an invalid IP address, a port over 65535)',
    'string.credentials':
      '"url" must not contain a user name or password (user:password@): ' +
      'put a credential in the path or query, as Slack and Discord do',
  });
const secret = Joi.string().min(8).max(256);
const monitorIds = Joi.array()
  .items(Joi.string().min(1).max(64))
  .min(1)
  .max(100)
  .unique()
  .allow(null)
  .messages({ 'array.min': '"monitorIds" must list at least one monitor, or be null for every monitor' })
  .description('Left out or null: every monitor of the account');
const enabled = Joi.boolean().strict();
const options = Joi.object()
  .unknown(true)
  .description("The kind's own settings (docs/alerts.md): a Telegram chatId, a Matrix roomId, a template's body");
const seconds = (what: string) =>
  Joi.number()
    .integer()
    .min(60)
    .max(7 * 86_400)
    .allow(null)
    .messages({ 'number.min': `{{#label}} must be at least 60 seconds ${what}` });
const repeatEvery = seconds('between repeats').description(
  "Seconds between repeats of an open incident's alert; null: the kind's own (Alertmanager: 60), else none",
);
const escalateAfter = seconds('before telling this channel').description(
  'Seconds an incident must stay open before this channel is told of it (escalation); null: at once',
);

export const createBody = Joi.object({
  name,
  type: Joi.string()
    .valid(...CHANNEL_TYPES)
    .meta({ type: 'ChannelType' })
    .required(),
  // Checked by the channel's kind (alerts/channels/): an http(s) URL, an e-mail channel's recipients, or left out
  // for the vendor's API.
  url: Joi.string().description(
    'http(s) for most; e-mail: mailto:ops@example.com,b@example.com; left out: the vendor API (PagerDuty…)',
  ),
  secret: secret.description(
    "The kind's credential (a routing key, a bot token, a webhook's signing secret); never shown again",
  ),
  options,
  repeatEvery,
  escalateAfter,
  monitorIds,
  enabled,
}).options({ stripUnknown: true });
export const updateBody = Joi.object({
  name,
  // Checked against the channel's kind; "" goes back to the vendor's API, where the kind has one.
  url: Joi.string().allow(''),
  secret: secret.allow(null),
  options,
  repeatEvery,
  escalateAfter,
  monitorIds,
  enabled,
  type: Joi.any()
    .forbidden()
    .messages({ 'any.unknown': 'The type of a channel cannot change: create a new channel instead' }),
})
  .min(1)
  .options({ stripUnknown: true })
  .messages({
    'object.min':
      'The body must change at least one of name, url, secret, options, repeatEvery, escalateAfter, monitorIds ' +
      'and enabled',
  })
  .description(
    'At least one field; secret: null removes the secret; options replace the old ones. The type cannot change',
  );

export const previewBody = Joi.object({
  type: Joi.string()
    .valid(...CHANNEL_TYPES)
    .meta({ type: 'ChannelType' })
    .required()
    .description('template: the one kind whose requests the user writes'),
  url: Joi.string().description('Optional: checked as on creation when given'),
  options: options.description("The template's body, contentType, method and headers"),
})
  .options({ stripUnknown: true })
  .description("A template channel's url and options, as POST /channels would take them; nothing is stored or sent");

type ChannelRequest = Request<WithParams<'channelId'>>;

export function channelRoutes(ctx: RouteContext): ServerRoute[] {
  const params = pathParams('channelId');
  return [
    {
      method: 'GET',
      path: '/channels',
      options: {
        id: 'listChannels',
        plugins: { access: 'read' },
        description: "The account's notification channels",
        tags: ['channels'],
        response: replies({ 200: ChannelListSchema }),
      },
      handler: async (request: Request): Promise<ChannelList> => ({
        channels: (await listChannels(ctx.db.sql, userOf(request).accountId)).map(presentChannel),
        nextCursor: null,
      }),
    },
    {
      method: 'POST',
      path: '/channels',
      options: {
        id: 'createChannel',
        plugins: { access: 'write' },
        description: 'Create a notification channel',
        tags: ['channels'],
        response: replies({ 201: ChannelSchema }),
        validate: { payload: createBody, failAction: invalidRequest },
      },
      handler: (request: Request, h: ResponseToolkit) => create(ctx, request, h),
    },
    {
      method: 'PATCH',
      path: '/channels/{channelId}',
      options: {
        id: 'updateChannel',
        plugins: { access: 'write' },
        description: 'Change a notification channel',
        tags: ['channels'],
        response: replies({ 200: ChannelSchema }),
        validate: { params, payload: updateBody, failAction: invalidRequest },
      },
      handler: (request: ChannelRequest) => update(ctx, request),
    },
    {
      method: 'DELETE',
      path: '/channels/{channelId}',
      options: {
        id: 'deleteChannel',
        plugins: { access: 'write' },
        description: 'Delete a notification channel',
        tags: ['channels'],
        response: replies({ 204: false }),
        validate: { params, failAction: invalidRequest },
      },
      handler: (request: ChannelRequest, h: ResponseToolkit) => remove(ctx, request, h),
    },
    {
      method: 'POST',
      path: '/channels/{channelId}/test',
      options: {
        id: 'testChannel',
        plugins: { access: 'write' },
        description: 'Send a test message to a channel now',
        tags: ['channels'],
        response: replies({ 200: ChannelTestSchema }, [429]),
        validate: { params, failAction: invalidRequest },
      },
      handler: (request: ChannelRequest) => test(ctx, request),
    },
    {
      method: 'POST',
      path: '/channels/preview',
      options: {
        id: 'previewChannel',
        plugins: { access: 'read' },
        description: "A template channel's request rendered for a sample alert of every event; nothing is stored",
        tags: ['channels'],
        response: replies({ 200: ChannelPreviewSchema }),
        validate: { payload: previewBody, failAction: invalidRequest },
      },
      handler: (request: Request) => preview(request),
    },
  ];
}

function channelNotFound(channelId: string): Boom {
  return apiError(404, 'channel_not_found', `No channel ${channelId} in your account.`);
}

async function requireChannel(ctx: RouteContext, accountId: string, channelId: string): Promise<ChannelRecord> {
  const channel = await findChannel(ctx.db.sql, accountId, channelId);
  if (!channel) throw channelNotFound(channelId);
  return channel;
}

/** With PINGMON_CHANNELS_PUBLIC_ONLY, a URL that plainly names a non-public host is refused at once. */
function publicUrlOnly(ctx: RouteContext, url: string | undefined): void {
  const host = ctx.config.channelsPublicOnly && url !== undefined ? nonPublicHostOf(url) : undefined;
  if (host === undefined) return;
  throw apiError(
    400,
    'invalid_request',
    `"url" points to ${host}, a private, loopback or otherwise non-public ` +
      'address, and this server only sends alerts to public ones (PINGMON_CHANNELS_PUBLIC_ONLY). Give a public URL.',
  );
}

/** An e-mail channel is refused, created or tested, by a server that could never send its mail. */
function smtpConfigured(ctx: RouteContext, type: ChannelRecord['type']): void {
  if (type !== 'email' || ctx.mailer) return;
  throw apiError(
    400,
    'smtp_not_configured',
    'E-mail channels need an SMTP server, and this pingmon server has none: its operator sets PINGMON_SMTP_URL ' +
      'and PINGMON_SMTP_FROM (docs/configuration.md#e-mail). Use a slack, discord or webhook channel meanwhile.',
  );
}

/** What a channel of its kind is sent with, checked: each refusal says what to give. */
function ofKind(channel: Pick<ChannelRecord, 'type' | 'url' | 'secret' | 'options' | 'channelId'>): ChannelTarget {
  const kind = kindOf(channel.type);
  const refuse = (message: string) => apiError(400, 'invalid_request', message);
  const given = channel.url === '' ? kind.url.default : channel.url;
  if (given === undefined) throw refuse(`A ${kind.label} channel needs "url": ${kind.url.describe}.`);
  const checkedUrl = urlOfKind(kind, given);
  if (kind.secret.need === 'none' && channel.secret !== null) {
    throw apiError(400, 'secret_not_supported', `A ${kind.label} channel cannot have a secret: it has no use for one.`);
  }
  if (kind.secret.need === 'required' && channel.secret === null) {
    throw refuse(`A ${kind.label} channel needs "secret": ${kind.secret.describe}.`);
  }
  const target = {
    channelId: channel.channelId,
    type: channel.type,
    url: checkedUrl,
    secret: channel.secret,
    options: optionsOfKind(kind, channel.options),
  };
  const problem = kind.check?.(target);
  if (problem) throw refuse(problem);
  return target;
}

function urlOfKind(kind: ChannelKind, given: string): string {
  const checked = (kind.url.schema ?? url).validate(given);
  if (checked.error) throw apiError(400, 'invalid_request', `${checked.error.message}.`);
  return checked.value as string;
}

function optionsOfKind(kind: ChannelKind, options: Record<string, unknown>): Record<string, unknown> {
  if (kind.options) {
    const result = kind.options.validate(options);
    if (result.error)
      throw apiError(400, 'invalid_request', `options.${result.error.message.replace(/^"([^"]*)"/, '$1')}.`);
    return result.value as Record<string, unknown>;
  }
  if (Object.keys(options).length > 0)
    throw apiError(400, 'invalid_request', `A ${kind.label} channel takes no options: leave "options" out.`);
  return options;
}

/** Monitor ids that are not the account's make the whole request fail, naming them. */
async function restricting<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof UnknownMonitorsError)) throw err;
    throw apiError(
      400,
      'unknown_monitor',
      `monitorIds names monitors that are not in your account: ${err.monitorIds.join(', ')}.`,
    );
  }
}

async function create(ctx: RouteContext, request: Request, h: ResponseToolkit) {
  const input = request.payload as CreateChannelRequest;
  smtpConfigured(ctx, input.type);
  const now = Date.now();
  const channelId = newId('ch', now);
  const { type } = input;
  const target = ofKind({
    channelId,
    type,
    url: input.url ?? '',
    secret: input.secret ?? null,
    options: input.options ?? {},
  });
  publicUrlOnly(ctx, target.url);
  const channel: ChannelRecord = {
    ...target,
    accountId: userOf(request).accountId,
    name: input.name ?? `${type} channel`,
    repeatEvery: input.repeatEvery ?? null,
    escalateAfter: input.escalateAfter ?? null,
    monitorIds: input.monitorIds ? [...input.monitorIds].sort() : null,
    enabled: input.enabled ?? true,
    createdAt: now,
  };
  await restricting(() => addChannel(ctx.db, channel));
  return h.response(presentChannel(channel)).code(201);
}

async function update(ctx: RouteContext, request: ChannelRequest): Promise<Channel> {
  const { accountId } = userOf(request);
  const { channelId } = request.params;
  const changes = request.payload as UpdateChannelRequest;
  const current = await requireChannel(ctx, accountId, channelId);
  const target = ofKind({ ...current, ...changes });
  if (changes.url !== undefined) {
    changes.url = target.url;
    publicUrlOnly(ctx, changes.url);
  }
  if (changes.options !== undefined) changes.options = target.options;
  const updated = await restricting(() => changeChannel(ctx.db, accountId, channelId, changes));
  if (!updated) throw channelNotFound(channelId);
  return presentChannel(await requireChannel(ctx, accountId, channelId));
}

async function remove(ctx: RouteContext, request: ChannelRequest, h: ResponseToolkit) {
  const { channelId } = request.params;
  if (!(await deleteChannel(ctx.db.sql, userOf(request).accountId, channelId))) throw channelNotFound(channelId);
  return h.response().code(204);
}

/**
 * Sends a test message now, enabled or not, and answers how it went; nothing is recorded but the count of
 * tests, which limits them per channel (each one makes the server send a request where the caller says).
 */
async function test(ctx: RouteContext, request: ChannelRequest): Promise<ChannelTestResult> {
  const { accountId } = userOf(request);
  const { channelId } = request.params;
  const now = Date.now();
  const tests = await countChannelTest(ctx.db.sql, accountId, channelId, now, CHANNEL_TEST_WINDOW_MS);
  if (!tests) throw channelNotFound(channelId);
  const decision = channelTestDecision(tests, now);
  if (!decision.allowed) {
    const seconds = decision.retryAfterSeconds;
    const limit = `${CHANNEL_TESTS_PER_WINDOW} times within ${CHANNEL_TEST_WINDOW_MS / 1000} seconds`;
    throw apiError(
      429,
      'rate_limited',
      `Channel ${channelId} has been tested ${limit}, the most allowed. ${waitFor(seconds)} before testing it again.`,
      { retryAfter: seconds },
    );
  }
  const channel = await requireChannel(ctx, accountId, channelId);
  smtpConfigured(ctx, channel.type);
  const options = { timeoutMs: ctx.config.alertTimeoutMs, publicOnly: ctx.config.channelsPublicOnly };
  const content = testContent(channel.name, now);
  const result = await attemptChannel(channel, content, now, `test-${now}`, { ...options, mailer: ctx.mailer });
  const { statusCode, error, durationMs } = result;
  return { delivered: verdictOf(result) === 'delivered', statusCode, error, durationMs };
}

/** Only a template's request is the user's to write: every other kind's message is pingmon's (docs/alerts.md). */
function preview(request: Request): ChannelPreview {
  const input = request.payload as ChannelPreviewRequest;
  const kind = kindOf(input.type);
  if (kind.type !== 'template') {
    throw apiError(
      400,
      'invalid_request',
      `Previews are for template channels, whose requests you write; a ${kind.label} channel's message is ` +
        "pingmon's own (docs/alerts.md#payloads): send it one with POST /channels/:channelId/test.",
    );
  }
  if (input.url !== undefined) urlOfKind(kind, input.url);
  return previewTemplate(optionsOfKind(kind, input.options ?? {}) as unknown as TemplateOptions);
}
