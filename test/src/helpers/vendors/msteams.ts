import { createRequire } from 'node:module';
import type * as AdaptiveCardsModule from 'adaptivecards';
import { isHttpUrl, jsonBody, utf8Bytes } from './common.js';
import type { Json, VendorRequest } from './common.js';

// The package's ES build imports its own files without extensions, which Node refuses: its bundle loads as one file.
const AdaptiveCards = createRequire(import.meta.url)(
  'adaptivecards/dist/adaptivecards.js',
) as typeof AdaptiveCardsModule;

/** Teams' limit on a message, the card included. */
const TEAMS_MAX_BYTES = 28 * 1024;
/** The newest Adaptive Card schema Teams renders. */
const TEAMS_MAX_VERSION = 1.5;

/**
 * A Teams Workflows webhook ("Send webhook alerts to a channel"): a POST of JSON, a message whose attachments are
 * Adaptive Cards, each parsed and validated by the adaptivecards library as a host renders it.
 */
export function checkMsteams(req: VendorRequest): string[] {
  const problems: string[] = [];
  if (req.method !== 'POST') problems.push(`method ${req.method}, not POST`);
  const bytes = utf8Bytes(req.body);
  if (bytes > TEAMS_MAX_BYTES) problems.push(`${bytes} bytes, over Teams' ${TEAMS_MAX_BYTES}`);
  const body = jsonBody(req, problems);
  if (body === null) return problems;
  if (body.type !== 'message') problems.push(`type is ${JSON.stringify(body.type)}, not "message"`);
  const attachments = body.attachments;
  if (!Array.isArray(attachments) || attachments.length === 0) {
    problems.push('no attachments');
    return problems;
  }
  for (const [i, attachment] of (attachments as Json[]).entries()) {
    if (attachment.contentType !== 'application/vnd.microsoft.card.adaptive') {
      problems.push(`attachments[${i}].contentType is ${JSON.stringify(attachment.contentType)}`);
    }
    if (attachment.contentUrl !== undefined && attachment.contentUrl !== null) {
      problems.push(`attachments[${i}].contentUrl is not null`);
    }
    problems.push(...cardProblems(attachment.content).map((p) => `attachments[${i}]: ${p}`));
  }
  return problems;
}

function cardProblems(content: unknown): string[] {
  if (content === null || typeof content !== 'object') return ['content is not an object'];
  const card = content as Json;
  const problems: string[] = [];
  if (card.type !== 'AdaptiveCard') problems.push(`content.type is ${JSON.stringify(card.type)}`);
  const version = typeof card.version === 'string' ? Number(card.version) : NaN;
  if (!(version >= 1 && version <= TEAMS_MAX_VERSION)) {
    problems.push(`version ${JSON.stringify(card.version)} is not 1.0 to ${TEAMS_MAX_VERSION}`);
  }
  const parsed = new AdaptiveCards.AdaptiveCard();
  const context = new AdaptiveCards.SerializationContext();
  parsed.parse(card, context);
  for (let i = 0; i < context.eventCount; i++) problems.push(`parse: ${context.getEventAt(i).message}`);
  for (const event of parsed.validateProperties().validationEvents) problems.push(`validation: ${event.message}`);
  problems.push(...elementProblems(card));
  return problems;
}

/** What the library lets through but Teams shows wrongly or refuses: empty text, a link that is no http(s) URL. */
function elementProblems(node: unknown, path = 'content'): string[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => elementProblems(item, `${path}[${i}]`));
  if (node === null || typeof node !== 'object') return [];
  const element = node as Json;
  const problems: string[] = [];
  if ((element.type === 'TextBlock' || element.type === 'TextRun') && !element.text) {
    problems.push(`${path}: a ${element.type} without text`);
  }
  if (element.type === 'Action.OpenUrl' && !isHttpUrl(element.url)) problems.push(`${path}: url is no http(s) URL`);
  if (element.type === 'FactSet' && (!Array.isArray(element.facts) || element.facts.length === 0)) {
    problems.push(`${path}: a FactSet without facts`);
  }
  for (const [key, value] of Object.entries(element)) problems.push(...elementProblems(value, `${path}.${key}`));
  return problems;
}
