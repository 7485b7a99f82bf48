import { join } from 'node:path';
import { Flags } from '@oclif/core';
import { BaseCommand } from '../base-command.js';
import { RUN_OPTIONS } from '../run/flags.js';
import type { RunOption } from '../run/flags.js';
import { main } from '../run/main.js';

const flags = Object.fromEntries(
  Object.entries(RUN_OPTIONS).map(([name, option]: [string, RunOption]) => [
    name,
    option.type === 'boolean'
      ? Flags.boolean({ description: option.description })
      : Flags.string({
          char: option.short as 'm' | undefined,
          description: option.description,
          multiple: option.multiple as false | undefined,
          default: option.default,
          options: option.choices ? [...option.choices] : undefined,
        }),
  ]),
);

/**
 * `pingmon run`. Its flags come from the table its lenient reading uses; bin/run.js starts the same main without
 * loading oclif (which doubles the start-up of every cron job), so oclif mostly answers --help here.
 */
export default class Run extends BaseCommand {
  static override summary = 'Run a command and report the run to pingmon';
  static override description =
    'Sends start, runs the command with its input and output passed through unchanged, then sends success or fail ' +
    'with the exit code (and the last line on stderr, else stdout: `exit code 2: tar: /data: Cannot open: ' +
    "Permission denied`) and a bounded copy of the output. Exits with the command's exit code. Monitoring never " +
    'stops the job: a slow or unreachable server, or a missing API key, monitor or server URL, only gives a ' +
    '[pingmon] warning on stderr. With --cron or --every (and --tz, --grace, --max-runtime, --failure-threshold, ' +
    "--recovery-threshold, as `monitors create` takes them) the start carries the monitor's settings: the server " +
    'makes the monitor named by --monitor, or changes the settings that differ. Settings the server refuses are ' +
    'one [pingmon] line; the run is reported without them. While the job runs, its newest output is sent about ' +
    'once a second (live output, for `pingmon logs MON --follow` and the dashboard), never holding the job up; ' +
    '--no-live sends none. ' +
    'Secrets never leave the host: in the output sent, the ' +
    'failure and the spool, the values of environment variables named by --redact-env (or matching ' +
    '--redact-pattern, or named like *_TOKEN, *_PASSWORD…), passwords in URLs, Authorization values, AWS keys and ' +
    'private key blocks are replaced with [redacted]; the terminal still gets the output unchanged.';
  static override usage = 'run [--monitor SLUG|ID] [FLAGS] -- COMMAND [ARGS...]';
  static override examples = [
    "0 3 * * * /usr/local/bin/pingmon run --monitor nightly-backup --cron '0 3 * * *' --tz Europe/Berlin " +
      '--grace 10m --max-runtime 2h -- /usr/local/bin/backup.sh',
    '<%= config.bin %> run --monitor mon_0mwrcimaolGyOzk3ikq -- /opt/backup.sh --full',
    '*/5 * * * * PINGMON_API_KEY=pm_… <%= config.bin %> run -m mon_0mwrcimaolGyOzk3ikq --timeout 4m -- /opt/sync.sh',
  ];
  static override strict = false;
  static override flags = flags;

  async run(): Promise<void> {
    // The raw argv: the command after `--` is taken exactly as given, and the flags before it leniently.
    process.exitCode = await main(this.argv, join(this.config.root, 'bin', 'run.js'));
  }
}
