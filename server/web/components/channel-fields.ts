import type {
  Channel,
  ChannelKindInfo,
  ChannelKindOption,
  CreateChannelRequest,
  UpdateChannelRequest,
} from '@pingmon/sdk/wire';
import { formatDuration } from '@pingmon/sdk/wire';
import { readDuration } from './monitor-fields.js';

// The channel form's values as typed (text), read into the API's body for the channel's kind (GET /channel-kinds),
// and the field a refusal names. Durations are typed in the CLI's grammar, as on the monitor form.

export interface ChannelDraft {
  name: string;
  url: string;
  secret: string;
  removeSecret: boolean;
  /** Each option as typed: an object as JSON, a boolean as "true" or "false"; "" leaves it out. */
  options: Record<string, string>;
  repeatEvery: string;
  escalateAfter: string;
}

/** A field's key: the channel's own fields, and `options.<name>` for the kind's. */
export type FieldErrors = Record<string, string>;

/** How the API shows a value it never shows back (a template's header values). */
const HIDDEN = '"…"';
/** Longer strings (a template's body) are typed in a text area. */
export const LONG_TEXT = 1_000;

const seconds = (value: number | null) => (value === null ? '' : formatDuration(value));

export function draftOf(kind: ChannelKindInfo, saved?: Channel): ChannelDraft {
  const options = kind.options.map((option) => [option.name, textOf(option, saved?.options[option.name])]);
  return {
    name: saved?.name ?? '',
    // An e-mail channel's recipients are shown whole; other URLs masked, so they start empty (kept unless typed).
    url: saved?.type === 'email' ? saved.url.replace(/^mailto:/i, '').replaceAll(',', ', ') : '',
    secret: '',
    removeSecret: false,
    options: Object.fromEntries(options),
    repeatEvery: seconds(saved?.repeatEvery ?? null),
    escalateAfter: seconds(saved?.escalateAfter ?? null),
  };
}

function textOf(option: ChannelKindOption, value: unknown): string {
  if (value === undefined || value === null) return '';
  return option.type === 'object' ? JSON.stringify(value, null, 2) : String(value);
}

/** The URL to send: recipients typed as "a@example.com, b@example.com" (or as the mailto: URL) become one mailto:. */
function urlOf(kind: ChannelKindInfo, text: string): string {
  const url = text.trim();
  return kind.type === 'email' && url ? `mailto:${url.replace(/^mailto:/i, '')}` : url;
}

function optionValue(option: ChannelKindOption, raw: string): { value?: unknown; error?: string } {
  const text = option.type === 'string' && (option.maxLength ?? 0) > LONG_TEXT ? raw : raw.trim();
  if (text.trim() === '') return {};
  const listed = option.values?.find((value) => String(value) === text);
  if (listed !== undefined) return { value: listed };
  if (option.type === 'boolean') return { value: text === 'true' };
  if (option.type === 'number' || option.type === 'integer') {
    const number = Number(text);
    return Number.isFinite(number) ? { value: number } : { error: `${option.name}: "${text}" is not a number.` };
  }
  if (option.type !== 'object') return { value: text };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { value };
  } catch (err) {
    return { error: `${option.name}: not JSON: ${(err as Error).message}.` };
  }
  return { error: `${option.name}: a JSON object of names to values, such as {"name": "value"}.` };
}

/** The options typed, or their errors. */
function optionsOf(kind: ChannelKindInfo, d: ChannelDraft, errors: FieldErrors): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const option of kind.options) {
    const read = optionValue(option, d.options[option.name] ?? '');
    if (read.error) errors[`options.${option.name}`] = read.error;
    else if (read.value !== undefined) options[option.name] = read.value;
  }
  return options;
}

function durations(d: ChannelDraft, errors: FieldErrors) {
  const read = (field: 'repeatEvery' | 'escalateAfter') => {
    const value = readDuration(d[field], true);
    if (value !== null && typeof value === 'object') errors[field] = value.error;
    return typeof value === 'number' ? value : null;
  };
  return { repeatEvery: read('repeatEvery'), escalateAfter: read('escalateAfter') };
}

type Read<T> = { body: T } | { errors: FieldErrors };

/** POST /channels: what is typed, and nothing left empty (the kind's defaults apply). */
export function createBody(kind: ChannelKindInfo, d: ChannelDraft): Read<CreateChannelRequest> {
  const errors: FieldErrors = {};
  const options = optionsOf(kind, d, errors);
  const { repeatEvery, escalateAfter } = durations(d, errors);
  if (Object.keys(errors).length > 0) return { errors };
  const body: CreateChannelRequest = { type: kind.type };
  const url = urlOf(kind, d.url);
  if (d.name.trim()) body.name = d.name.trim();
  if (url) body.url = url;
  if (d.secret) body.secret = d.secret;
  if (Object.keys(options).length > 0) body.options = options;
  if (repeatEvery !== null) body.repeatEvery = repeatEvery;
  if (escalateAfter !== null) body.escalateAfter = escalateAfter;
  return { body };
}

/** PATCH /channels/:channelId: only what differs from the channel as it was read (`initial`). */
export function updateBody(
  kind: ChannelKindInfo,
  d: ChannelDraft,
  initial: ChannelDraft,
  saved: Channel,
): Read<UpdateChannelRequest> {
  const errors: FieldErrors = {};
  const options = optionsOf(kind, d, errors);
  const optionsChanged = kind.options.some(({ name }) => d.options[name] !== initial.options[name]);
  for (const { name } of kind.options) {
    // Options are replaced as a whole: a value never shown back would be saved as its mask.
    if (optionsChanged && d.options[name]?.includes(HIDDEN)) {
      errors[`options.${name}`] =
        `${name}: its values are never shown back (they may hold a credential): type them again to change ` +
        'any option, or leave every option as it was.';
    }
  }
  const read = durations(d, errors);
  if (Object.keys(errors).length > 0) return { errors };
  const body: UpdateChannelRequest = {};
  if (d.name.trim() !== saved.name) body.name = d.name.trim();
  if (d.url !== initial.url && d.url.trim()) body.url = urlOf(kind, d.url);
  if (d.removeSecret) body.secret = null;
  else if (d.secret) body.secret = d.secret;
  if (optionsChanged) body.options = options;
  if (read.repeatEvery !== saved.repeatEvery) body.repeatEvery = read.repeatEvery;
  if (read.escalateAfter !== saved.escalateAfter) body.escalateAfter = read.escalateAfter;
  return { body };
}

/**
 * The field a refusal names: its message starts with it ("options.chatId: …", "\"url\" must …", "secret: …"), or
 * says what the kind needs ("A Telegram channel needs \"secret\": …").
 */
export function fieldOf(kind: ChannelKindInfo, message: string): string | undefined {
  const needs = /needs "(\w+)"/.exec(message)?.[1];
  if (needs) return needs;
  const text = message.replace(/^options\./, '').replace(/^"/, '');
  const starts = (name: string) => text.startsWith(name) && !/\w/.test(text.charAt(name.length));
  const option = kind.options.find(({ name }) => starts(name));
  if (option) return `options.${option.name}`;
  return ['name', 'url', 'secret', 'repeatEvery', 'escalateAfter'].find(starts);
}

/** "chatId" as a label: "Chat ID". */
export function labelOf(name: string): string {
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return (words.charAt(0).toUpperCase() + words.slice(1)).replace(/\bid\b/g, 'ID');
}

/** A kind's description as a sentence: some start lower-case, written to follow "needs \"url\": ". */
export function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
