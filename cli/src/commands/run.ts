import { Flags } from '@oclif/core';
import { BaseCommand } from '../base-command.js';
import { parseDuration } from '../duration.js';
import type { LogKeep } from '../run/capture.js';
import { runJob } from '../run/job.js';
import { parseMetaLines } from '../run/meta.js';
import { readSettings, resolveSetting } from '../settings.js';

export default class Run extends BaseCommand {
  static override summary = 'Run a command and report the run to pingmon';
  static override description = 'Sends start, runs the command with its input and output passed through unchanged, then sends success or fail with the exit code and a bounded copy of the output. Exits with the command\'s exit code; a slow or unreachable server never changes it.';
  static override usage = 'run [--monitor ID] [FLAGS] -- COMMAND [ARGS...]';
  static override examples = [
    '<%= config.bin %> run --monitor mon_0mwrcimaolGyOzk3ikq -- /opt/backup.sh --full',
    '*/5 * * * * PINGMON_API_KEY=pm_… <%= config.bin %> run -m mon_0mwrcimaolGyOzk3ikq --timeout 4m -- /opt/sync.sh',
  ];
  // The command after -- is taken from the raw arguments: oclif's parser would reorder repeated words.
  static override strict = false;
  static override flags = {
    monitor: Flags.string({ char: 'm', description: 'monitor to report to [env: PINGMON_MONITOR]' }),
    'api-key': Flags.string({ description: 'account API key [env: PINGMON_API_KEY]' }),
    url: Flags.string({ description: 'pingmon server, e.g. http://127.0.0.1:8080 [env: PINGMON_URL]' }),
    meta: Flags.string({ description: 'numeric metadata key=number for alert rules (repeatable)', multiple: true }),
    'log-keep': Flags.string({ description: 'which part of the output to keep as the log', options: ['head-tail', 'head', 'tail'], default: 'head-tail' }),
    timeout: Flags.string({ description: 'kill the command after this long (e.g. 90s, 15m, 2h) and report it failed' }),
    'kill-grace': Flags.string({ description: 'after a timeout, time between SIGTERM and SIGKILL', default: '10s' }),
    'ping-timeout': Flags.string({ description: 'time each ping may take, retries included, before a warning', default: '20s' }),
  };

  async run(): Promise<void> {
    const raw = [...this.argv];
    const dash = raw.indexOf('--');
    if (dash === -1 || dash === raw.length - 1) {
      this.error('missing the command to run: put it after --, e.g. pingmon run --monitor mon_… -- /opt/backup.sh', { exit: 2 });
    }
    // Taken before parsing: parse() replaces this.argv with what it was given.
    const [command, ...args] = raw.slice(dash + 1) as [string, ...string[]];
    const { flags } = await this.parse(Run, raw.slice(0, dash));
    const stored = readSettings(process.env);
    const monitorId = resolveSetting('monitor', flags.monitor, process.env, stored);
    const apiKey = resolveSetting('api-key', flags['api-key'], process.env, stored);
    const url = resolveSetting('url', flags.url, process.env, stored);
    if (!monitorId) this.error('missing the monitor: add --monitor mon_… (or set PINGMON_MONITOR)', { exit: 2 });
    if (!apiKey) this.error('missing the API key: add --api-key pm_… (or set PINGMON_API_KEY, or run `pingmon config set api-key pm_…`)', { exit: 2 });
    if (!url) this.error('missing the server URL: add --url http://host:8080 (or set PINGMON_URL, or run `pingmon login`)', { exit: 2 });
    const meta = parseMetaLines(flags.meta ?? [], '--meta');
    if (!meta.ok) this.error(meta.error, { exit: 2 });
    const duration = (name: string, value: string | undefined) => {
      const ms = value === undefined ? 0 : parseDuration(value);
      if (ms === undefined) this.error(`--${name} must be a duration such as 90s, 15m or 2h (got "${value}")`, { exit: 2 });
      return ms;
    };
    process.exitCode = await runJob({
      command, args, monitorId, apiKey, url,
      meta: meta.meta,
      logKeep: flags['log-keep'] as LogKeep,
      timeoutMs: duration('timeout', flags.timeout),
      killGraceMs: duration('kill-grace', flags['kill-grace']),
      pingBudgetMs: duration('ping-timeout', flags['ping-timeout']),
    });
  }
}
