import type { Monitor } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { listAllMonitors, loggedInClient, serverFlags } from '../../client.js';
import { monitorStatusText } from '../../monitor-settings.js';
import { duration, printTable, statusText, when } from '../../output.js';

/** "1/20": failed runs among the monitor's latest (at most RECENT_RUNS) runs. */
function fails(monitor: Monitor): string {
  const { runs, failed } = monitor.recentRuns;
  return runs === 0 ? '—' : `${failed}/${runs}`;
}

export default class MonitorsList extends BaseCommand {
  static override summary = 'List your monitors: status, next expected run, last run and recent failures';
  static override enableJsonFlag = true;
  static override flags = { ...serverFlags };

  async run(): Promise<Monitor[] | void> {
    const { flags } = await this.parse(MonitorsList);
    const monitors = await listAllMonitors(loggedInClient(flags));
    if (this.jsonEnabled()) return monitors;
    if (monitors.length === 0) return this.log('No monitors yet: create one with `pingmon monitors create NAME`.');
    printTable(
      ['SLUG', 'NAME', 'STATUS', 'NEXT (UTC)', 'LAST RUN', 'STARTED', 'DURATION', 'FAILS'],
      monitors.map((m) => [
        m.slug,
        m.name,
        monitorStatusText(m.status),
        when(m.nextExpectedAt).slice(0, 16),
        m.lastRun ? statusText(m.lastRun.status) : '—',
        when(m.lastRun?.startedAt ?? null),
        duration(m.lastRun?.durationMs ?? null),
        fails(m),
      ]),
      (line) => this.log(line),
    );
  }
}
