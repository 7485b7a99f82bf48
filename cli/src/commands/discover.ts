import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { Flags } from '@oclif/core';
import { BaseCommand } from '../base-command.js';
import { loggedInClient, serverFlags } from '../client.js';
import { applyPlan, monitorsByRef } from '../discover/apply.js';
import { hostZone, isSystemCrontab, readCrontab } from '../discover/crontab.js';
import type { Crontab } from '../discover/crontab.js';
import { fileCrontab, knownSlugs, userCrontab } from '../discover/install.js';
import { candidates, planChanges, planOf } from '../discover/plan.js';
import { planJson, planLines } from '../discover/report.js';
import { plural } from '../output.js';
import { forgetContinuousIntegration, readSettings, resolveSetting } from '../settings.js';

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
    const system = path !== undefined && isSystemCrontab(path);
    const crontab = readCrontab(await source.read(), { system, hostZone: hostZone() });
    const monitors = await monitorsByRef(client);
    const proposed = candidates(crontab);
    // ink is loaded only for a person at a terminal, and draws every frame there, whatever CI says.
    if (interactive) forgetContinuousIntegration();
    const chosen = interactive ? await (await import('../discover/review.js')).review(proposed, monitors) : proposed;
    if (!chosen) return this.log('Nothing changed.');
    const pingmon = { bin: join(this.config.root, 'bin', 'run.js'), node: process.execPath };
    const plan = planOf(crontab, chosen, monitors, knownSlugs(source), pingmon);
    if (!system && !hasApiKey(crontab)) plan.notes.push(NO_API_KEY);
    if (dryRun || !planChanges(plan)) {
      if (this.jsonEnabled()) return planJson(plan, source.label, { dryRun });
      planLines(plan, source.label).forEach((line) => this.log(line));
      return this.log(planChanges(plan) ? 'Dry run: nothing was changed.' : 'Nothing to change.');
    }
    if (interactive) {
      planLines(plan, source.label).forEach((line) => this.log(line));
      if (!(await confirm('Create the monitors and install this crontab? [y/N] '))) return this.log('Nothing changed.');
    }
    const done = await applyPlan(client, source, plan, new Date());
    if (this.jsonEnabled()) return planJson(done.plan, source.label, { copy: done.copy ?? null, failed: done.failed });
    if (!interactive) planLines(done.plan, source.label).forEach((line) => this.log(line));
    for (const { line, slug, error } of done.failed)
      process.stderr.write(`pingmon: line ${line}: the server refused monitor ${slug}, left as it was: ${error}\n`);
    this.log(
      `${plural(done.created, 'monitor')} created, ${done.updated} synced.` +
        (done.copy ? ` The old crontab is kept in ${done.copy}; installed the new one (${path ?? 'crontab -'}).` : ''),
    );
    if (done.failed.length > 0) process.exitCode = 1;
  }
}

const NO_API_KEY =
  'no API key for `pingmon run`: the jobs run unreported until you run `pingmon config set api-key pm_…` ' +
  '(or add PINGMON_API_KEY=pm_… to the crontab)';

/** Whether the lines of a user's crontab will find an API key: in the crontab, or stored for this user. */
function hasApiKey(crontab: Crontab): boolean {
  const inCrontab = crontab.lines.some((line) => line.kind === 'env' && line.name === 'PINGMON_API_KEY');
  return inCrontab || resolveSetting('api-key', undefined, readSettings()) !== undefined;
}

async function confirm(question: string): Promise<boolean> {
  // ink leaves standard input unreferenced when it ends: node would exit before the answer.
  (process.stdin as { ref?: () => void }).ref?.();
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}
