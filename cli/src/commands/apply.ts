import { readFileSync } from 'node:fs';
import { Flags } from '@oclif/core';
import { carryOut, readAccount, StepError } from '../as-code/account.js';
import { readMonitorsFile } from '../as-code/file.js';
import { planApply, planChanges } from '../as-code/plan.js';
import { planLines, planSummary } from '../as-code/render.js';
import { BaseCommand } from '../base-command.js';
import { loggedInClient, serverFlags } from '../client.js';

/** The exit code of an apply that changed something (or, with --dry-run, would): 2 is every command's usage error. */
export const CHANGED_EXIT = 3;

export default class Apply extends BaseCommand {
  static override summary = 'Make the monitors, rules and channel routing what a file says (monitors as code)';
  static override description =
    'Prints the plan (create, update, unchanged, delete with --prune), then carries it out. Exit code: 0 nothing ' +
    'to change, 3 changed (with --dry-run: changes to make), 1 an error, 2 a usage error.';
  static override examples = [
    '<%= config.bin %> apply -f pingmon.yaml --dry-run',
    '<%= config.bin %> apply -f pingmon.yaml --prune',
  ];
  static override flags = {
    ...serverFlags,
    file: Flags.string({ char: 'f', description: 'the file (YAML or JSON); - reads standard input', required: true }),
    'dry-run': Flags.boolean({ description: 'print the plan and change nothing' }),
    prune: Flags.boolean({ description: 'delete the monitors the file does not name, with their runs and logs' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Apply);
    const name = flags.file === '-' ? 'stdin' : flags.file;
    const read = readMonitorsFile(readText(flags.file), name);
    if (!read.ok) return this.refuse(read.errors);
    const client = loggedInClient(flags);
    const planned = planApply(read.desired, await readAccount(client), { prune: flags.prune });
    if (!planned.ok) return this.refuse(planned.errors.map((e) => `${name}:${e.line}: ${e.message}`));
    const { plan } = planned;
    for (const line of planLines(plan)) this.log(line);
    if (!planChanges(plan)) return this.log(`No changes: the server already is as ${name} says.`);
    process.exitCode = CHANGED_EXIT;
    if (flags['dry-run']) return this.log(`Would apply: ${planSummary(plan)}. Nothing was changed (--dry-run).`);
    const done: string[] = [];
    try {
      await carryOut(client, plan, (step) => done.push(step));
    } catch (err) {
      if (!(err instanceof StepError)) throw err;
      const line = read.desired.monitors.find((m) => m.slug === err.slug)?.line;
      const where = line === undefined ? `${err.slug}: ` : `${name}:${line}: monitor ${err.slug}: `;
      throw new Error(`${where}${err.message} Done before it: ${done.join(', ') || 'nothing'}.`, { cause: err });
    }
    this.log(`Applied: ${planSummary(plan)}.`);
  }

  /** Every mistake, one line each, and exit 1. */
  private refuse(errors: string[]): void {
    for (const error of errors) process.stderr.write(`pingmon: ${error}\n`);
    process.exitCode = 1;
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? `${file}: no such file; write one with \`pingmon monitors export > ${file}\``
        : `${file}: cannot be read (${(err as Error).message})`,
      { cause: err },
    );
  }
}
