import { join, resolve } from 'node:path';
import { Flags } from '@oclif/core';
import { BaseCommand } from '../base-command.js';
import { loggedInClient, serverFlags } from '../client.js';
import { applyMonitors, monitorsByRef } from '../discover/apply.js';
import { hostZone, isSystemCrontab, readCrontab } from '../discover/crontab.js';
import { fileCrontab, keepCopy, knownSlugs, rememberSlugs, userCrontab } from '../discover/install.js';
import { candidates, diffText, planChanges, planOf } from '../discover/plan.js';
import type { Candidate, Plan } from '../discover/plan.js';
import { printTable, plural } from '../output.js';

export default class Discover extends BaseCommand {
  static override summary = 'Monitor every job of a crontab: make their monitors and wrap their lines in pingmon run';
  static override description =
    'Reads your crontab (`crontab -l`, or --file for /etc/crontab and /etc/cron.d/*), proposes a slug and a name ' +
    "for each job, creates or syncs its monitor with the line's schedule and timezone, shows the rewritten crontab " +
    'as a diff, keeps a copy of the old one and installs the new one. Running it again changes nothing.';
  static override examples = [
    '<%= config.bin %> discover',
    '<%= config.bin %> discover --dry-run',
    'sudo <%= config.bin %> discover --file /etc/cron.d/backup --yes',
  ];
  static override enableJsonFlag = true;
  static override flags = {
    ...serverFlags,
    file: Flags.string({ description: 'a crontab file to rewrite in place instead of yours', helpValue: 'FILE' }),
    yes: Flags.boolean({ description: 'take the proposed slugs and names without asking' }),
    'dry-run': Flags.boolean({ description: 'show what would be done, change nothing' }),
  };

  async run(): Promise<object | void> {
    const { flags } = await this.parse(Discover);
    const dryRun = flags['dry-run'];
    const interactive = !flags.yes && !dryRun && !this.jsonEnabled() && process.stdin.isTTY && process.stdout.isTTY;
    if (!flags.yes && !dryRun && !interactive)
      this.error('no terminal to review the jobs in: pass --yes to take the proposals, or --dry-run to see them', {
        exit: 2,
      });
    const client = loggedInClient(flags);
    const path = flags.file === undefined ? undefined : resolve(flags.file);
    const source = path === undefined ? userCrontab() : fileCrontab(path);
    const crontab = readCrontab(await source.read(), {
      system: path !== undefined && isSystemCrontab(path),
      hostZone: hostZone(),
    });
    const monitors = await monitorsByRef(client);
    let chosen: Candidate[] | undefined = candidates(crontab);
    if (interactive) {
      const { review } = await import('../discover/review.js');
      chosen = await review(chosen, monitors);
      if (!chosen) return this.log('Nothing changed.');
    }
    const pingmon = { bin: join(this.config.root, 'bin', 'run.js'), node: process.execPath };
    let plan = planOf(crontab, chosen, monitors, knownSlugs(source), pingmon);
    if (dryRun) {
      if (this.jsonEnabled()) return { ...plan, diff: diffText(plan, source.label), dryRun: true };
      this.show(plan, source.label);
      return this.log(planChanges(plan) ? 'Dry run: nothing was changed.' : 'Nothing to change.');
    }
    if (!planChanges(plan)) {
      if (this.jsonEnabled()) return { ...plan, diff: '', failed: [] };
      this.show(plan, source.label);
      return this.log('Nothing to change.');
    }
    const applied = await applyMonitors(client, plan);
    plan = applied.plan;
    let copy: string | undefined;
    if (plan.after !== plan.before) {
      copy = keepCopy(source, plan.before, new Date());
      await source.install(plan.after.endsWith('\n') || plan.after === '' ? plan.after : `${plan.after}\n`);
    }
    rememberSlugs(source, [...plan.jobs.map((job) => job.slug), ...plan.gone]);
    if (this.jsonEnabled())
      return { ...plan, diff: diffText(plan, source.label), ...(copy ? { copy } : {}), failed: applied.failed };
    this.show(plan, source.label);
    for (const { line, slug, error } of applied.failed)
      process.stderr.write(`pingmon: line ${line}: the server refused monitor ${slug}, left as it was: ${error}\n`);
    this.log(
      `${plural(applied.created, 'monitor')} created, ${applied.updated} synced.` +
        (copy ? ` The old crontab is kept in ${copy}; installed the new one (${path ?? 'crontab -'}).` : ''),
    );
    if (applied.failed.length > 0) process.exitCode = 1;
  }

  private show(plan: Plan, label: string): void {
    if (plan.jobs.length > 0) {
      const rows = plan.jobs.map((job) => [
        String(job.line),
        job.slug,
        job.action,
        `${job.schedule.cron} (${job.schedule.timezone})`,
        job.name,
      ]);
      printTable(['LINE', 'SLUG', 'MONITOR', 'SCHEDULE', 'NAME'], rows, (line) => this.log(line));
    } else {
      this.log(`No job to monitor in ${label}.`);
    }
    for (const { line, reason } of plan.skipped) this.log(`line ${line}: ${reason}`);
    for (const note of plan.notes) this.log(`note: ${note}`);
    if (plan.gone.length > 0)
      this.log(
        `No line runs ${plan.gone.join(', ')} any more: left as ${plan.gone.length === 1 ? 'it is' : 'they are'} ` +
          '(`pingmon monitors delete SLUG` deletes one).',
      );
    const diff = diffText(plan, label);
    if (diff) this.log(`\n${diff}\n`);
  }
}
