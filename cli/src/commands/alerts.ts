import { Flags } from '@oclif/core';
import type { Alert, AlertDelivery } from '@pingmon/sdk';
import { BaseCommand } from '../base-command.js';
import { loggedInClient, serverFlags } from '../client.js';
import { SILENT_MARK, fit, terminalWidth, when } from '../output.js';
import { formatRule } from '../rule-expression.js';

export default class Alerts extends BaseCommand {
  static override summary = 'List recent alerts, newest first, with their delivery to each channel';
  static override examples = ['<%= config.bin %> alerts', '<%= config.bin %> alerts --monitor mon_0mwrksujegHscDsv5wx --limit 5 --json'];
  static override flags = {
    ...serverFlags,
    monitor: Flags.string({ char: 'm', description: 'only alerts of this monitor', helpValue: 'ID' }),
    limit: Flags.integer({ description: 'how many alerts', default: 20, min: 1, max: 200 }),
    json: Flags.boolean({ description: 'print JSON' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Alerts);
    const { alerts } = await loggedInClient(flags).listAlerts({ monitorId: flags.monitor, limit: flags.limit });
    if (flags.json) return this.log(JSON.stringify(alerts));
    if (alerts.length === 0) return this.log(flags.monitor ? `No alerts for ${flags.monitor}.` : 'No alerts yet.');
    // A block per alert rather than a table: run ids and delivery errors are too long for shared columns.
    const width = terminalWidth();
    const names = Math.min(24, Math.max(...alerts.flatMap((a) => a.deliveries.map((d) => d.channelName.length)), 0));
    alerts.forEach((alert, i) => {
      if (i > 0) this.log('');
      const lines = [`${when(alert.createdAt)}  ${alert.event === 'fail' ? '✖ fail' : `${SILENT_MARK} silent failure`}  ${alert.monitorName} (${alert.monitorId})`, `  run ${alert.runId}${detail(alert)}`];
      if (alert.deliveries.length === 0) lines.push('  no channel took it');
      for (const d of alert.deliveries) lines.push(`  ${fit(d.channelName, names).padEnd(names)}  ${deliveryState(d)}`);
      for (const line of lines) this.log(fit(line.replace(/[\r\n\t]+/g, ' '), width));
    });
  }
}

/** ": exit code 3", ": rowsProcessed < 1 (was 0)" */
function detail(alert: Alert): string {
  if (alert.event === 'silent_failure') return `: ${alert.matchedRules.map((r) => `${formatRule(r)} (was ${r.actual})`).join(', ')}`;
  return alert.errorMessage ? `: ${alert.errorMessage.split('\n')[0]}` : '';
}

function deliveryState(d: AlertDelivery): string {
  const error = d.lastError ? `: ${d.lastError}` : '';
  if (d.state === 'delivered') return `✔ delivered ${when(d.deliveredAt)}${d.attemptCount > 1 ? ` (attempt ${d.attemptCount})` : ''}`;
  if (d.state === 'failed') return `✖ failed${d.attemptCount > 0 ? ` after ${d.attemptCount} attempt${d.attemptCount === 1 ? '' : 's'}` : ''}${error}`;
  if (d.attemptCount === 0) return `… pending (first attempt due ${when(d.nextAttemptAt)})`;
  return `… pending (attempt ${d.attemptCount}, next at ${when(d.nextAttemptAt)})${error}`;
}
