import { basename } from 'node:path';
import { numberedSlug, slugify } from '@pingmon/sdk';
import { shellTokens } from './shell-words.js';
import type { Token } from './shell-words.js';

// A slug and a name for a job, from its command: the program (or the script an interpreter runs) it is about,
// past the `cd`, `test` and `nice` around it. `/usr/local/bin/backup-db.sh --full` → `backup-db`.

export interface Proposal {
  slug: string;
  name: string;
}

/** Commands that prepare or guard the job rather than being it. */
const SETUP = /^(cd|test|\[\[?|true|:|export|source|\.|sleep|umask|ulimit|set|mkdir)$/;
/** Commands that run the next word as the job. */
const WRAPPERS = /^(sudo|nice|ionice|nohup|timeout|flock|lckdo|setlock|env|chronic|cronic|exec|time|command|run-one)$/;
/** Of the wrappers, those whose first operand is theirs (a duration, a lock file), not the job. */
const OPERAND_FIRST = /^(timeout|flock|lckdo|setlock)$/;
/** The options of a wrapper that take a value. */
const VALUE_OPTIONS: Record<string, RegExp> = {
  sudo: /^-[ugCDhpRrTU]$/,
  nice: /^-n$/,
  ionice: /^-[cnp]$/,
  flock: /^-[wE]$/,
  timeout: /^-[sk]$/,
};
/** Programs whose first operand is what the job is (a script, a directory of scripts, a jar). */
const RUNNERS = /^(sh|bash|dash|zsh|ksh|python[\d.]*|php[\d.]*|perl|ruby|node(js)?|deno|bun|run-parts|java|Rscript)$/;
const SHELLS = /^(sh|bash|dash|zsh|ksh)$/;
const SEPARATORS = new Set(['&&', '||', ';', ';;', '|', '&', '(', ')', '{', '}', '!', 'then', 'do', 'else']);
const MAX_NAME = 80;

export function propose(command: string): Proposal {
  const simple = simpleCommands(shellTokens(command));
  const main = simple.find((words) => !SETUP.test(basename(words[0] ?? ''))) ?? simple[0] ?? [];
  // `sh -c '…'` (a line wrapped by discover, say) is about the script it runs.
  if (SHELLS.test(basename(main[0] ?? '')) && main[1] === '-c' && main[2]) return propose(main[2]);
  const picked = subject(main);
  const name = picked.words.length > 0 ? [basename(picked.words[0]!), ...picked.words.slice(1)].join(' ') : command;
  return { slug: slugOf(picked.subject ?? 'job'), name: cut(name.trim() || command.trim()) };
}

/** The words of each simple command, redirections and their targets left out. */
function simpleCommands(tokens: Token[]): string[][] {
  const commands: string[][] = [[]];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'operator' && /[<>]/.test(token.value)) i++;
    else if (SEPARATORS.has(token.value) || /^(if|while|until|for)$/.test(token.value)) commands.push([]);
    else commands.at(-1)!.push(token.value);
  }
  return commands.filter((words) => words.length > 0);
}

/** The words from the job's program on, and the word a slug is made of. */
function subject(words: string[]): { words: string[]; subject?: string } {
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
  while (WRAPPERS.test(basename(words[i] ?? ''))) {
    const wrapper = basename(words[i]!);
    i++;
    while (i < words.length && (words[i]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)))
      i += VALUE_OPTIONS[wrapper]?.test(words[i]!) ? 2 : 1;
    if (OPERAND_FIRST.test(wrapper)) i++;
  }
  const rest = words.slice(i);
  const program = rest[0];
  if (program === undefined) return { words: rest };
  if (!RUNNERS.test(basename(program))) return { words: rest, subject: program };
  const scriptAt = rest.findIndex((word, at) => at > 0 && !word.startsWith('-'));
  return { words: rest, subject: scriptAt === -1 ? program : rest[scriptAt] };
}

/** A slug from a program's or script's file name, without its extension (slugify's rules). */
export function slugOf(word: string): string {
  return slugify(basename(word).replace(/\.(sh|bash|py|php|pl|rb|js|mjs|ts|jar|R)$/i, ''));
}

/** `wanted`, or numbered (`-2`, `-3`…) when `taken` has it; the answer is added to `taken`. */
export function uniqueSlug(wanted: string, taken: Set<string>): string {
  let slug = wanted;
  for (let n = 2; taken.has(slug); n++) slug = numberedSlug(wanted, n);
  taken.add(slug);
  return slug;
}

function cut(name: string): string {
  return name.length <= MAX_NAME ? name : `${name.slice(0, MAX_NAME - 1)}…`;
}
