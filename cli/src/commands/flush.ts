import { Flags } from '@oclif/core';
import { Spool, defaultSpoolDir, notADuration, parseDurationMs } from '@pingmon/sdk';
import { BaseCommand } from '../base-command.js';
import { flushInBackground } from '../run/background-flush.js';

export default class Flush extends BaseCommand {
  static override summary = 'Deliver the pings kept in this host’s spool while the server could not be reached';
  static override description =
    'Pings that `pingmon run` or the SDK could not deliver wait in the spool ($XDG_STATE_HOME/pingmon/spool) ' +
    'and are sent, with their own times, by the next `pingmon run` on this host or by this command. ' +
    'Exits 0 when the spool is empty afterwards, 1 when pings are left (the server still cannot be reached).';
  static override examples = ['<%= config.bin %> flush', '<%= config.bin %> flush --json'];
  static override enableJsonFlag = true;
  static override flags = {
    timeout: Flags.string({
      description: 'stop after this long (e.g. 30s, 5m, 1h30m); what is left stays',
      default: '5m',
    }),
    // What `pingmon run` starts, detached, after keeping a ping: tries with backoff for this long, logging to
    // flush.log in the spool; --timeout does not apply.
    background: Flags.string({ hidden: true }),
  };

  async run(): Promise<unknown> {
    const { flags } = await this.parse(Flush);
    const background = flags.background === undefined ? undefined : parseDurationMs(flags.background);
    if (flags.background !== undefined && background === undefined) {
      this.error(notADuration('--background', flags.background), { exit: 2 });
    }
    const ms = parseDurationMs(flags.timeout);
    if (!ms) this.error(notADuration('--timeout', flags.timeout, 'longer than 0'), { exit: 2 });
    const spool = new Spool(defaultSpoolDir());
    const report =
      background === undefined
        ? await spool.flush({ deadline: Date.now() + ms })
        : await flushInBackground(spool, background);
    const summary = {
      spool: spool.dir,
      delivered: report.delivered,
      dropped: report.dropped,
      withoutSettings: report.withoutSettings,
      left: report.left,
      busy: report.busy,
      error: report.error?.message ?? null,
    };
    if (!this.jsonEnabled()) {
      if (report.busy) this.log(`Another process is delivering the spool (${spool.dir}); ${report.left} pings in it.`);
      else
        this.log(
          `Delivered ${report.delivered}, dropped ${report.dropped.length}, left ${report.left} (${spool.dir}).`,
        );
      for (const { file, reason } of report.dropped) this.log(`dropped ${file}: ${reason}`);
      for (const { file, reason } of report.withoutSettings) this.log(`${file}: ${reason}`);
      if (report.error) this.log(`left because: ${report.error.message}`);
    }
    if (report.left > 0) process.exitCode = 1;
    return summary;
  }
}
