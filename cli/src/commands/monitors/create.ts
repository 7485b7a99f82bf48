import { Args, Flags } from '@oclif/core';
import type { Monitor } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { scheduleText, settingsFlags } from '../../monitor-settings.js';
import { settingsOf } from '../../schedule-settings.js';

export default class MonitorsCreate extends BaseCommand {
  static override summary = 'Create a monitor for a job, with its schedule if it has one';
  static override description =
    'With a schedule (--cron or --every) pingmon also notices a run that does not start: docs/schedules.md.';
  static override examples = [
    '<%= config.bin %> monitors create "nightly backup"',
    '<%= config.bin %> monitors create "nightly backup" --cron \'0 3 * * *\' --tz Europe/Berlin --grace 10m ' +
      '--max-runtime 2h --failure-threshold 2',
    '<%= config.bin %> monitors create "queue drain" --every 15m',
    '<%= config.bin %> monitors create "Nightly backup (db1)" --slug nightly-backup --cron \'0 3 * * *\'',
  ];
  static override args = { name: Args.string({ description: 'a name for the job', required: true }) };
  static override enableJsonFlag = true;
  static override flags = {
    ...serverFlags,
    slug: Flags.string({
      description: 'its name in pings and commands, e.g. nightly-backup (a-z, 0-9, -, _; default: made from the name)',
      helpValue: 'SLUG',
    }),
    ...settingsFlags,
    paused: Flags.boolean({ description: 'create it paused: no alerts until `pingmon monitors resume`' }),
  };

  async run(): Promise<Monitor | void> {
    const { args, flags } = await this.parse(MonitorsCreate);
    const settings = settingsOf(flags);
    if (flags.paused) settings.paused = true;
    const monitor = await loggedInClient(flags).createMonitor({ name: args.name, slug: flags.slug, ...settings });
    if (this.jsonEnabled()) return monitor;
    this.log(
      `Created ${monitor.monitorId} (${monitor.name}), slug ${monitor.slug}. ` +
        `Wrap the job with: pingmon run --monitor ${monitor.slug} -- COMMAND`,
    );
    if (monitor.schedule !== null) {
      this.log(
        `Schedule ${scheduleText(monitor.schedule)}: check the expected times with ` +
          `pingmon monitors show ${monitor.slug}`,
      );
    }
  }
}
