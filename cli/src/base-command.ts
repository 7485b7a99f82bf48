import { Command } from '@oclif/core';

/** Every pingmon command fails the same way: one line on stderr, saying what to do, and a non-zero exit. */
export abstract class BaseCommand extends Command {
  protected override async catch(err: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    if (err.oclif?.exit === 0 || (err as { code?: string }).code === 'EEXIT') return super.catch(err);
    const firstLine = (err.message || String(err)).split('\n').find((line) => line.trim() !== '') ?? 'unknown error';
    process.stderr.write(`pingmon: ${firstLine.trim()}\n`);
    process.exitCode = err.oclif?.exit ?? err.exitCode ?? 1;
    return undefined;
  }
}
