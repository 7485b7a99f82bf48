import { Errors, Flags } from '@oclif/core';
import type { AuditEntry } from '@pingmon/sdk';
import { BaseCommand } from '../base-command.js';
import { loggedInClient, serverFlags } from '../client.js';
import { printTable, when } from '../output.js';
import { UsageError, settingSeconds } from '../schedule-settings.js';

export default class Audit extends BaseCommand {
  static override summary = "The account's audit trail, newest first: who changed what, when and from where";
  static override description = 'Owners and admins only. Secrets are never shown: a changed one reads [masked].';
  static override examples = [
    '<%= config.bin %> audit',
    '<%= config.bin %> audit --action monitor.paused --since 7d',
    '<%= config.bin %> audit --actor alice@example.com --limit 100 --json',
  ];
  static override enableJsonFlag = true;
  static override flags = {
    ...serverFlags,
    limit: Flags.integer({ description: 'how many entries', default: 50, min: 1, max: 200 }),
    action: Flags.string({ description: 'only this action (monitor.paused), or a kind of them (monitor)' }),
    actor: Flags.string({ description: 'only the changes of this user (e-mail or id) or API key (prefix or id)' }),
    monitor: Flags.string({ char: 'm', description: 'only the entries about this monitor', helpValue: 'ID|SLUG' }),
    since: Flags.custom<string>({
      description: 'only entries since then: an ISO time, or a duration ago (7d)',
      helpValue: 'TIME',
      parse: async (input) => sinceTime(input, Date.now()),
    })(),
  };

  async run(): Promise<AuditEntry[] | void> {
    const { flags } = await this.parse(Audit);
    const query = {
      limit: flags.limit,
      action: flags.action,
      actor: flags.actor,
      monitor: flags.monitor,
      since: flags.since,
    };
    const { entries } = await loggedInClient(flags).listAudit(query);
    if (this.jsonEnabled()) return entries;
    if (entries.length === 0) return this.log('No audit entries match.');
    const rows = entries.map((e) => [when(e.at), e.actor.name, e.address, e.action, targetText(e), changeSummary(e)]);
    printTable(['WHEN', 'WHO', 'FROM', 'ACTION', 'TARGET', 'CHANGES'], rows, (line) => this.log(line));
  }
}

/** `--since`: an ISO time as given, or a duration (docs/cli.md#durations) back from `now`. */
function sinceTime(given: string, now: number): string {
  if (/^\d{4}-\d{2}-\d{2}/.test(given)) return given;
  try {
    return new Date(now - settingSeconds('since', given) * 1000).toISOString();
  } catch (err) {
    if (err instanceof UsageError) {
      throw new Errors.CLIError(`${err.message}, or an ISO time such as 2026-12-01T00:00:00Z`);
    }
    throw err;
  }
}

/** Its name, as the change found it (ids are in --json: a column of them would leave no room for the changes). */
function targetText(entry: AuditEntry): string {
  const { target } = entry;
  return target === null ? '' : (target.name ?? target.id);
}

/** "paused: false → true, name: a → b" */
export function changeSummary(entry: AuditEntry): string {
  const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  return (entry.changes ?? []).map((c) => `${c.field}: ${shown(c.from)} → ${shown(c.to)}`).join(', ');
}
