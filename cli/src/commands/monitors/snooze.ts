import { Args, Errors, Flags } from '@oclif/core';
import { DURATION_FORMS, notADuration, parseDuration } from '@pingmon/sdk';
import type { Monitor } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { when } from '../../output.js';

const DURATION_FORM = `${DURATION_FORMS} (0 ends the snooze)`;

export default class MonitorsSnooze extends BaseCommand {
  static override summary = 'Snooze a monitor: no alert for a while (runs are still recorded); 0 ends the snooze';
  static override description =
    'While snoozed, runs are recorded and the monitor shows its status, but nothing alerts and a missed run does ' +
    'not count. When the snooze ends, one alert goes out if the monitor is still down (docs/schedules.md).';
  static override examples = [
    '<%= config.bin %> monitors snooze mon_0mwrksujegHscDsv5wx 2h',
    '<%= config.bin %> monitors snooze nightly-backup --until 2027-03-28T06:00:00Z',
    '<%= config.bin %> monitors snooze mon_0mwrksujegHscDsv5wx 0',
  ];
  static override args = {
    monitor: Args.string({ description: 'monitor slug or id (mon_…)', required: true }),
    duration: Args.string({ description: `how long: ${DURATION_FORM}` }),
  };
  static override enableJsonFlag = true;
  static override flags = {
    ...serverFlags,
    until: Flags.string({ description: 'instead of a duration: until this ISO 8601 time', helpValue: 'TIME' }),
  };

  async run(): Promise<Monitor | void> {
    const { args, flags } = await this.parse(MonitorsSnooze);
    const until = snoozeUntil(args.duration, flags.until, Date.now());
    const monitor = await loggedInClient(flags).snoozeMonitor(args.monitor, until);
    if (this.jsonEnabled()) return monitor;
    const name = `${monitor.monitorId} (${monitor.name})`;
    if (monitor.snoozedUntil === null) return this.log(`${name} is not snoozed: it alerts again.`);
    this.log(
      `Snoozed ${name} until ${when(monitor.snoozedUntil)} UTC: no alerts until then, and one then if it is still ` +
        `down. End it early with \`pingmon monitors snooze ${monitor.monitorId} 0\`.`,
    );
  }
}

/** The snooze's end as the API takes it (null: end the snooze), from a duration or --until. */
function snoozeUntil(duration: string | undefined, until: string | undefined, now: number): string | null {
  if (duration !== undefined && until !== undefined) {
    throw new Errors.CLIError('give a duration or --until, not both');
  }
  if (until !== undefined) {
    const at = Date.parse(until);
    if (Number.isNaN(at)) throw new Errors.CLIError(`--until expects an ISO 8601 time such as 2027-03-28T06:00:00Z`);
    return new Date(at).toISOString();
  }
  if (duration === undefined) throw new Errors.CLIError(`give how long: ${DURATION_FORM}, or --until TIME`);
  const seconds = parseDuration(duration);
  if (seconds === undefined) throw new Errors.CLIError(`${notADuration('DURATION', duration)}, or 0 to end the snooze`);
  return seconds === 0 ? null : new Date(now + seconds * 1000).toISOString();
}
