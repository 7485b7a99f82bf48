import { Args, Flags } from '@oclif/core';
import type { Client, Monitor } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { expectedText, hintLines, settingsLines, statusLine } from '../../monitor-settings.js';
import { duration, plural, statusText, terminalWidth, when } from '../../output.js';
import { trendFetch, trendLines } from '../../sparkline.js';

export default class MonitorsShow extends BaseCommand {
  static override summary =
    'Show one monitor: status, schedule and its next expected runs, last run, recent failures, trends';
  static override description =
    'The trends are sparklines of the latest successful runs, oldest on the left: of the duration, of each meta ' +
    'key a rule of the monitor reads, and of each key given with --trend.';
  static override examples = ['<%= config.bin %> monitors show nightly-etl --trend rowsProcessed'];
  static override args = { monitor: Args.string({ description: 'monitor slug or id (mon_…)', required: true }) };
  static override enableJsonFlag = true;
  static override flags = {
    ...serverFlags,
    trend: Flags.string({ description: 'also draw the trend of this meta key (repeatable)', multiple: true }),
  };

  async run(): Promise<Monitor | void> {
    const { args, flags } = await this.parse(MonitorsShow);
    const client = loggedInClient(flags);
    const monitor = await client.getMonitor(args.monitor);
    if (this.jsonEnabled()) return monitor;
    const last = monitor.lastRun;
    const line = (label: string, value: string) => this.log(`${label.padEnd(12)}${value}`);
    line('monitor', monitor.monitorId);
    line('slug', monitor.slug);
    line('name', monitor.name);
    line('created', when(monitor.createdAt));
    line('status', statusLine(monitor));
    const times = last && `, started ${when(last.startedAt)}, took ${duration(last.durationMs)}`;
    line('last run', last ? `${statusText(last.status)} ${last.runId}${times}` : 'none yet');
    const { runs, failed, silentFailures } = monitor.recentRuns;
    if (runs > 0)
      line(
        'recent',
        `${failed} failed, ${plural(silentFailures, 'silent failure')} in the last ${plural(runs, 'run')}`,
      );
    for (const [label, value] of settingsLines(monitor)) line(label, value);
    hintLines(monitor).forEach((text, i) => line(i === 0 ? 'hint' : '', text));
    (await this.trends(client, monitor.monitorId, flags.trend ?? [])).forEach((text, i) =>
      line(i === 0 ? 'trend' : '', text),
    );
    if (monitor.schedule === null) {
      this.log(
        `No schedule: nothing is expected, so a run that does not start goes unnoticed. Add one with\n` +
          `  pingmon monitors update ${monitor.slug} --cron '0 3 * * *' --tz Europe/Berlin`,
      );
      return;
    }
    const { timezone, times: expected } = await client.listExpected(monitor.monitorId, 5);
    this.log(monitor.paused ? 'Next expected (once resumed)' : 'Next expected');
    for (const time of expected) this.log(`  ${expectedText(time, timezone)}`);
  }

  /** The sparklines of the durations and of the meta keys the rules read (and those asked for), or none. */
  private async trends(client: Client, monitorId: string, asked: string[]): Promise<string[]> {
    const { rules } = await client.listRules(monitorId);
    const limit = trendFetch(rules);
    const { runs } = await client.listRuns(monitorId, { status: 'success', limit });
    if (runs.length === 0) return [];
    const metrics = [...new Set(['durationMs', ...rules.map((r) => r.metric), ...asked])];
    return trendLines(metrics, runs.reverse(), rules, terminalWidth(), 12);
  }
}
