import { Flags } from '@oclif/core';
import type { Alert, AlertDelivery } from '@pingmon/sdk';
import { clean } from '@pingmon/sdk/wire';
import { BaseCommand } from '../base-command.js';
import { loggedInClient, serverFlags } from '../client.js';
import { SILENT_MARK, STATUS, plural, terminalWidth, when } from '../output.js';
import { formatMatch } from '../rule-expression.js';
import { cell, fit, textWidth } from '../width.js';

export default class Alerts extends BaseCommand {
  static override summary = 'List recent alerts, newest first, with their delivery to each channel';
  static override examples = [
    '<%= config.bin %> alerts',
    '<%= config.bin %> alerts --monitor mon_0mwrksujegHscDsv5wx --limit 5 --json',
  ];
  static override enableJsonFlag = true;
  static override flags = {
    ...serverFlags,
    monitor: Flags.string({ char: 'm', description: 'only alerts of this monitor', helpValue: 'ID' }),
    limit: Flags.integer({ description: 'how many alerts', default: 20, min: 1, max: 200 }),
  };

  async run(): Promise<Alert[] | void> {
    const { flags } = await this.parse(Alerts);
    const { alerts } = await loggedInClient(flags).listAlerts({ monitorId: flags.monitor, limit: flags.limit });
    if (this.jsonEnabled()) return alerts;
    if (alerts.length === 0) return this.log(flags.monitor ? `No alerts for ${flags.monitor}.` : 'No alerts yet.');
    // A block per alert rather than a table: run ids and delivery errors are too long for shared columns.
    const width = terminalWidth();
    // Cleaned before measured and cut: the names, errors and metrics are other people's text.
    const nameWidths = alerts.flatMap((a) => a.deliveries.map((d) => textWidth(clean(d.channelName))));
    const names = Math.min(24, Math.max(...nameWidths, 0));
    alerts.forEach((alert, i) => {
      if (i > 0) this.log('');
      const lines = [
        `${when(alert.createdAt)}  ${EVENTS[alert.event]}  ${alert.monitorName} (${alert.monitorId})`,
        alert.runId === null ? `  ${detail(alert).slice(2)}` : `  run ${alert.runId}${detail(alert)}`,
      ];
      if (alert.groupId !== null && alert.groupId !== alert.alertId) {
        lines.push(`  sent in one message with alert ${alert.groupId} (monitors last run on ${alert.host})`);
      } else if (alert.deliveries.length === 0) lines.push('  no channel took it');
      for (const d of alert.deliveries) lines.push(`  ${cell(clean(d.channelName), names)}  ${deliveryState(d)}`);
      for (const line of lines) this.log(fit(clean(line).replace(/\s*\n\s*/g, ' '), width));
    });
  }
}

/** Each event as a symbol and words, readable without colour. */
const EVENTS: Record<Alert['event'], string> = {
  fail: `${STATUS.failed.symbol} fail`,
  timed_out: `${STATUS.failed.symbol} timed out`,
  missed: `${STATUS.failed.symbol} missed`,
  still_down: `${STATUS.failed.symbol} still down`,
  silent_failure: `${SILENT_MARK} silent failure`,
  recovered: `${STATUS.success.symbol} recovered`,
};

/** ": exit code 3", ": rowsProcessed < 1 (was 0)" */
function detail(alert: Alert): string {
  if (alert.event === 'silent_failure') return `: ${alert.matchedRules.map(formatMatch).join(', ')}`;
  return alert.errorMessage ? `: ${alert.errorMessage.split('\n')[0]}` : '';
}

function deliveryState(d: AlertDelivery): string {
  const error = d.lastError ? `: ${d.lastError}` : '';
  if (d.state === 'delivered') {
    const attempt = d.attemptCount > 1 ? ` (attempt ${d.attemptCount})` : '';
    return `${STATUS.success.symbol} delivered ${when(d.deliveredAt)}${attempt}`;
  }
  if (d.state === 'failed') {
    const after = d.attemptCount > 0 ? ` after ${plural(d.attemptCount, 'attempt')}` : '';
    return `${STATUS.failed.symbol} failed${after}${error}`;
  }
  if (d.attemptCount === 0) return `… pending (first attempt due ${when(d.nextAttemptAt)})`;
  return `… pending (attempt ${d.attemptCount}, next at ${when(d.nextAttemptAt)})${error}`;
}
