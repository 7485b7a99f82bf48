import { readFileSync } from 'node:fs';
import { Errors, Flags } from '@oclif/core';
import { durationFlag } from './duration-flag.js';

// A channel's kind-specific settings as `channels add|update|preview` take them (docs/cli.md#pingmon-channels-add):
// --options-file first, then --option KEY=VALUE, then a template's own flags, each later one winning key by key.
// Values stay text: the server reads a number from text where the kind wants one, and an id stays as typed.

/** A template channel's flags: its request as the user writes it. */
export const templateFlags = {
  'body-file': Flags.string({
    description: "template only: the request's body, with {{placeholders}}, read from FILE (- for standard input)",
    helpValue: 'FILE',
  }),
  'content-type': Flags.option({
    description: "template only: the body's type, which says how values are escaped (default json)",
    options: ['json', 'form', 'text'] as const,
  })(),
  method: Flags.option({ description: 'template only: POST (default) or PUT', options: ['POST', 'PUT'] as const })(),
  header: Flags.string({
    description: 'template only: a header of the request, with {{placeholders}} if need be; repeatable',
    helpValue: "'NAME: VALUE'",
    multiple: true,
  }),
};

export const optionFlags = {
  option: Flags.string({
    description:
      "one of the kind's options (docs/alerts.md), as text, e.g. chatId=-1001234567890 or priority=4; repeatable",
    helpValue: 'KEY=VALUE',
    multiple: true,
  }),
  'options-file': Flags.string({
    description: "the kind's options as a JSON object, from FILE (- for standard input): an Alertmanager's labels…",
    helpValue: 'FILE',
  }),
  ...templateFlags,
};

export const timingFlags = {
  repeat: durationFlag({
    description: 'while an incident stays open, send its alert again every DURATION (at least 1m)',
  }),
  'escalate-after': durationFlag({
    description:
      'tell this channel of an incident only once it has been open DURATION (at least 1m), and then of its end',
  }),
};

/** A CLIError, as oclif's own flag checks throw: the command line is wrong, exit 2. */
const usage = (message: string) => new Errors.CLIError(message, { exit: 2 });

export interface OptionFlagValues {
  option?: string[];
  'options-file'?: string;
  'body-file'?: string;
  'content-type'?: string;
  method?: string;
  header?: string[];
}

export const TEMPLATE_FLAGS = Object.keys(templateFlags).map((name) => `--${name}`);

/** Whether any of a template's own flags is given. */
export function templateFlagsGiven(flags: OptionFlagValues): boolean {
  return Object.keys(templateFlags).some((name) => flags[name as keyof OptionFlagValues] !== undefined);
}

/** The options the flags give, or undefined when they give none; a usage error (exit 2) names the flag at fault. */
export function optionsOf(flags: OptionFlagValues): Record<string, unknown> | undefined {
  if (flags['options-file'] === '-' && flags['body-file'] === '-')
    throw usage('only one of --options-file and --body-file can be read from standard input (-)');
  const options: Record<string, unknown> =
    flags['options-file'] === undefined ? {} : optionsFile(flags['options-file']);
  const given = new Set<string>();
  for (const pair of flags.option ?? []) {
    const [, key, value] = /^([^=]+)=(.*)$/s.exec(pair) ?? [];
    if (key === undefined || value === undefined)
      throw usage(`--option must be KEY=VALUE, e.g. --option chatId=-1001234567890 (got "${pair}")`);
    if (given.has(key)) throw usage(`--option ${key} is given twice`);
    given.add(key);
    options[key] = value;
  }
  if (flags['body-file'] !== undefined) options.body = readText('--body-file', flags['body-file']);
  if (flags['content-type'] !== undefined) options.contentType = flags['content-type'];
  if (flags.method !== undefined) options.method = flags.method;
  if (flags.header !== undefined) options.headers = { ...objectOrEmpty(options.headers), ...headersOf(flags.header) };
  const none = flags['options-file'] === undefined && given.size === 0 && !templateFlagsGiven(flags);
  return none ? undefined : options;
}

function optionsFile(path: string): Record<string, unknown> {
  const text = readText('--options-file', path);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw usage(`--options-file ${path} is not JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw usage(`--options-file ${path} must hold a JSON object, e.g. {"labels": {"team": "data"}}`);
  return value as Record<string, unknown>;
}

function readText(flag: string, path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (err) {
    throw usage(`cannot read ${flag} ${path}: ${(err as Error).message}`);
  }
}

function headersOf(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const [, name, value] = /^([^:]+):(.*)$/s.exec(line) ?? [];
    if (name === undefined || value === undefined || name.trim() === '')
      throw usage(`--header must be 'NAME: VALUE', e.g. --header 'X-Incident: {{incidentKey}}' (got "${line}")`);
    headers[name.trim()] = value.trim();
  }
  return headers;
}

function objectOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
