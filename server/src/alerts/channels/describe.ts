import type { ChannelKindInfo, ChannelKindOption } from '@pingmon/sdk/wire';
import type { ChannelKind } from './kind.js';

// What a kind needs, as a form or a script asks for it: the options are read from the kind's own schema, so what the
// API says a kind takes and what it checks cannot disagree.

/** The part of joi's describe() that says what an option takes. */
interface OptionNode {
  type: string;
  flags?: { presence?: string; only?: boolean; default?: unknown; description?: string };
  allow?: unknown[];
  rules?: Array<{ name: string; args?: { limit?: number } }>;
  matches?: Array<{ schema: OptionNode }>;
  examples?: unknown[];
}

export function describeKind(kind: ChannelKind): ChannelKindInfo {
  const keys = (kind.options?.describe() as { keys?: Record<string, OptionNode> } | undefined)?.keys ?? {};
  return {
    type: kind.type,
    label: kind.label,
    url: { default: kind.url.default ?? null, describe: kind.url.describe },
    secret: { need: kind.secret.need, describe: kind.secret.describe ?? null },
    options: Object.entries(keys).map(([name, node]) => optionOf(name, node)),
    repeatEvery: kind.repeatEverySeconds ?? null,
    incidents: kind.incidents ?? false,
  };
}

function optionOf(name: string, node: OptionNode): ChannelKindOption {
  const flags = node.flags ?? {};
  const option: ChannelKindOption = {
    name,
    type: typeOf(node),
    required: flags.presence === 'required',
    values: flags.only ? (node.allow ?? []).filter(isValue) : null,
    maxLength: (node.type === 'string' && node.rules?.find((rule) => rule.name === 'max')?.args?.limit) || null,
    describe: flags.description ?? null,
  };
  if (isValue(flags.default)) option.default = flags.default;
  if (node.examples?.length) option.example = node.examples[0];
  return option;
}

/** A number or text where the kind takes either (a Telegram chat id): text, which the form sends. */
function typeOf(node: OptionNode): ChannelKindOption['type'] {
  if (node.type === 'alternatives') {
    const types = (node.matches ?? []).map((match) => typeOf(match.schema));
    return types.includes('string') ? 'string' : (types[0] ?? 'string');
  }
  if (node.type === 'number') return node.rules?.some((rule) => rule.name === 'integer') ? 'integer' : 'number';
  if (node.type === 'boolean' || node.type === 'object') return node.type;
  return 'string';
}

function isValue(value: unknown): value is string | number | boolean {
  return ['string', 'number', 'boolean'].includes(typeof value);
}
