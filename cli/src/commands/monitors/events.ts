import { Args, Flags } from '@oclif/core';
import type { EventKind, MonitorEvent } from '@pingmon/sdk';
import { EVENT_KINDS, eventDetail, eventLabel } from '@pingmon/sdk/wire';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { printTable, when } from '../../output.js';

export default class MonitorsEvents extends BaseCommand {
  static override summary = "Show a monitor's timeline, newest first: runs, missed runs, timeouts, incidents, alerts";
  static override description =
    'Runs started and finished, expected runs that did not start, runs past their maxRuntime, incidents opened and ' +
    'closed, each alert with its delivery to each channel, snoozes, pauses and resumptions (docs/api.md#events).';
  static override examples = [
    '<%= config.bin %> monitors events nightly-backup',
    '<%= config.bin %> monitors events mon_0mwrksujegHscDsv5wx --kind missed --kind timed_out --limit 50',
    '<%= config.bin %> monitors events nightly-backup --kind alert,incident_opened,incident_closed --json',
  ];
  static override args = { monitor: Args.string({ description: 'monitor slug or id (mon_…)', required: true }) };
  static override enableJsonFlag = true;
  static override flags = {
    ...serverFlags,
    kind: Flags.string({
      description: 'only events of this kind; repeatable, or comma-separated',
      options: [...EVENT_KINDS],
      multiple: true,
      delimiter: ',',
      helpValue: 'KIND',
    }),
    limit: Flags.integer({ description: 'how many events', default: 20, min: 1, max: 200 }),
  };

  async run(): Promise<MonitorEvent[] | void> {
    const { args, flags } = await this.parse(MonitorsEvents);
    const kind = flags.kind as EventKind[] | undefined;
    const { events } = await loggedInClient(flags).listEvents(args.monitor, { kind, limit: flags.limit });
    if (this.jsonEnabled()) return events;
    if (events.length === 0) return this.log(kind ? `No ${kind.join(' or ')} events.` : 'Nothing has happened yet.');
    printTable(
      ['TIME', 'EVENT', 'DETAIL'],
      events.map((e) => [when(e.at), eventLabel(e.kind), eventDetail(e)]),
      (line) => this.log(line),
    );
  }
}
