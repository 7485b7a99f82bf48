import { Args, Flags } from '@oclif/core';
import type { Monitor, UpdateMonitorRequest } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { scheduleText, settingsFlags } from '../../monitor-settings.js';
import { UsageError, settingsOf } from '../../schedule-settings.js';

export default class MonitorsUpdate extends BaseCommand {
  static override summary =
    "Change a monitor's name, schedule, grace, max runtime, thresholds, reminders or which failures alert";
  static override description =
    'Only what is given changes. --cron alone keeps the timezone, --tz alone the cron expression. ' +
    'What a change does to the expected run and an open incident: docs/schedules.md.';
  static override examples = [
    "<%= config.bin %> monitors update nightly-backup --cron '30 2 * * *' --tz America/New_York",
    '<%= config.bin %> monitors update mon_0mwrksujegHscDsv5wx --slug nightly-backup',
    '<%= config.bin %> monitors update mon_0mwrksujegHscDsv5wx --grace 15m --no-max-runtime',
    '<%= config.bin %> monitors update mon_0mwrksujegHscDsv5wx --no-schedule',
    '<%= config.bin %> monitors update mon_0mwrksujegHscDsv5wx --fail-alerts first',
  ];
  static override args = { monitor: Args.string({ description: 'monitor slug or id (mon_…)', required: true }) };
  static override enableJsonFlag = true;
  static override flags = {
    ...serverFlags,
    name: Flags.string({ description: 'a new name' }),
    slug: Flags.string({
      description: 'a new slug (a-z, 0-9, -, _): pings and commands must then use it, or the id',
      helpValue: 'SLUG',
    }),
    ...settingsFlags,
    'no-schedule': Flags.boolean({
      description: 'remove the schedule: nothing is expected any more',
      exclusive: ['cron', 'tz', 'every'],
    }),
    'no-max-runtime': Flags.boolean({ description: 'no limit on how long a run may take', exclusive: ['max-runtime'] }),
    'no-renotify': Flags.boolean({ description: 'no reminders while down', exclusive: ['renotify'] }),
  };

  async run(): Promise<Monitor | void> {
    const { args, flags } = await this.parse(MonitorsUpdate);
    const client = loggedInClient(flags);
    // --cron or --tz alone completes the schedule the monitor has.
    const current =
      flags.cron !== undefined || flags.tz !== undefined ? await client.getMonitor(args.monitor) : undefined;
    let changes: UpdateMonitorRequest;
    try {
      changes = settingsOf(flags, current);
    } catch (err) {
      if (err instanceof UsageError) this.error(err.message, { exit: 2 });
      throw err;
    }
    if (flags.name !== undefined) changes.name = flags.name;
    if (flags.slug !== undefined) changes.slug = flags.slug;
    if (flags['no-schedule']) changes.schedule = null;
    if (flags['no-max-runtime']) changes.maxRuntime = null;
    if (flags['no-renotify']) changes.renotifyAfter = null;
    if (Object.keys(changes).length === 0) {
      this.error(
        'say what to change: --name, --slug, --cron, --tz, --every, --grace, --max-runtime, --failure-threshold, ' +
          '--recovery-threshold, --renotify, --fail-alerts, --no-schedule, --no-max-runtime or --no-renotify',
        { exit: 2 },
      );
    }
    const monitor = await client.updateMonitor(args.monitor, changes);
    if (this.jsonEnabled()) return monitor;
    const schedule = scheduleText(monitor.schedule);
    this.log(`Updated ${monitor.monitorId} (${monitor.name}, slug ${monitor.slug}): schedule ${schedule}.`);
  }
}
