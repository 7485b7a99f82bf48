import { Flags } from '@oclif/core';
import { BaseCommand } from '../base-command.js';
import { RUN_OPTIONS } from '../run/flags.js';
import type { RunOption } from '../run/flags.js';

const flags = Object.fromEntries(
  Object.entries(RUN_OPTIONS).map(([name, option]: [string, RunOption]) => [
    name,
    Flags.string({
      char: option.short as 'm' | undefined,
      description: option.description,
      multiple: option.multiple as false | undefined,
      default: option.default,
      options: option.choices ? [...option.choices] : undefined,
    }),
  ]),
);

/**
 * Help and manifest entry of `pingmon run`, never run: bin/run.js starts run/main.ts itself, without oclif, and
 * leaves only --help to oclif, which answers it from these fields.
 */
export default abstract class Run extends BaseCommand {
  static override summary = 'Run a command and report the run to pingmon';
  static override description =
    'Sends start, runs the command with its input and output passed through unchanged, then sends success or fail ' +
    'with the exit code (and the last line on stderr, else stdout: `exit code 2: tar: /data: Cannot open: ' +
    "Permission denied`) and a bounded copy of the output. Exits with the command's exit code. Monitoring never " +
    'stops the job: a slow or unreachable server, or a missing API key, monitor or server URL, only gives a ' +
    '[pingmon] warning on stderr.';
  static override usage = 'run [--monitor ID] [FLAGS] -- COMMAND [ARGS...]';
  static override examples = [
    '<%= config.bin %> run --monitor mon_0mwrcimaolGyOzk3ikq -- /opt/backup.sh --full',
    '*/5 * * * * PINGMON_API_KEY=pm_… <%= config.bin %> run -m mon_0mwrcimaolGyOzk3ikq --timeout 4m -- /opt/sync.sh',
  ];
  static override strict = false;
  static override flags = flags;
}
