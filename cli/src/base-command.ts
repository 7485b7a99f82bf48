import { Command, ux } from '@oclif/core';
import { ACCESS_ERROR_CODES, clean, inertJson, LOGIN_ERROR_CODES } from '@pingmon/sdk/wire';
import { didYouMean } from './did-you-mean.js';

/**
 * Every pingmon command fails the same way: one line on stderr, saying what to do, and a non-zero exit. What a
 * command prints holds names, errors and metrics other people wrote: it reaches the terminal cleaned, here, once.
 */
export abstract class BaseCommand extends Command {
  protected override async catch(err: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    if (err.oclif?.exit === 0 || (err as { code?: string }).code === 'EEXIT') return super.catch(err);
    const unknown = unknownFlagsOf(err);
    const message = unknown ? this.unknownFlags(unknown) : explain(err);
    process.stderr.write(`pingmon: ${oneLine(clean(message))}\n`);
    process.exitCode = err.oclif?.exit ?? err.exitCode ?? 1;
    return undefined;
  }

  /** "unknown flag --jsn: did you mean `--json`?", among this command's flags. */
  private unknownFlags(typed: string[]): string {
    const own = Object.keys({ ...this.ctor.baseFlags, ...this.ctor.flags });
    const names = [...own, 'help', ...(this.ctor.enableJsonFlag ? ['json'] : [])].map((name) => `--${name}`);
    const each = typed.map((flag) => {
      const name = flag.split('=')[0]!;
      const suggestion = name.startsWith('--') ? didYouMean(name, names) : undefined;
      return suggestion ? `${name}: ${suggestion}` : name;
    });
    return `unknown flag ${each.join('; ')} (see \`pingmon ${this.id?.replaceAll(':', ' ')} --help\`)`;
  }

  override log(message = '', ...args: unknown[]): void {
    super.log(clean(message), ...args);
  }

  /** --json prints one line, as docs/cli.md promises (oclif's own is pretty-printed, coloured in a terminal). */
  protected override logJson(json: unknown): void {
    ux.stdout(inertJson(JSON.stringify(json)));
  }
}

/** The flags of oclif's "Nonexistent flag" error (its class is not exported), else undefined. */
function unknownFlagsOf(err: Error & { flags?: unknown }): string[] | undefined {
  if (!err.message.startsWith('Nonexistent flag') || !Array.isArray(err.flags)) return undefined;
  return err.flags.map(String);
}

/** oclif's parse errors span several lines ("The following error occurred:", hints): fold them into one. */
export function oneLine(message: string): string {
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter(
      (line) => line !== '' && !/^The following errors? occurred:?$/.test(line) && !/^See more help with/.test(line),
    );
  // oclif puts "Parsing --flag" before a flag's own error, which names the flag already.
  const flag = /^Parsing (--[\w-]+)$/.exec(lines[0] ?? '')?.[1];
  if (flag && lines[1]?.startsWith(`${flag} `)) lines.shift();
  return lines.join(' ') || 'unknown error';
}

/** The server's message, with what to do when the login is the problem, and a plain word for a refusal. */
function explain(err: Error & { code?: unknown; status?: unknown }): string {
  // The server says what the role or key allows and what would do (docs/api.md#roles).
  if (err.name === 'PingmonError' && typeof err.code === 'string' && ACCESS_ERROR_CODES.has(err.code))
    return `not allowed: ${err.message}`;
  if (err.name === 'PingmonError' && typeof err.code === 'string' && LOGIN_ERROR_CODES.has(err.code)) {
    if (err.code === 'token_expired') return 'your login has expired: run `pingmon login`';
    return err.message.includes('pingmon login') ? err.message : `${err.message} Run \`pingmon login\`.`;
  }
  return err.message || String(err);
}
