import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Debian's Chromium: a browser that a tool downloads for itself fails here. */
export const CHROMIUM = process.env.PINGMON_TEST_CHROMIUM || '/usr/bin/chromium';
/** Debian's Prometheus Alertmanager (package prometheus-alertmanager). */
export const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';

export type SystemTool = 'alertmanager' | 'chromium' | 'cron' | 'openssl' | 'tmux' | 'zsh';

interface ToolSpec {
  /** The Debian package that has it. */
  package: string;
  find(): boolean;
  /** Said when it is missing, before how to install it. */
  absent: string;
  hint?: string;
}

/**
 * The programs some tests need beyond a Debian base system with Node (sh, bash, cat and script are always there).
 * `.ci/run`, the README and docs/testing.md list the same packages.
 */
export const SYSTEM_TOOLS: Record<SystemTool, ToolSpec> = {
  alertmanager: {
    package: 'prometheus-alertmanager',
    find: () => executable(ALERTMANAGER),
    absent: `no Prometheus Alertmanager at ${ALERTMANAGER}`,
  },
  chromium: {
    package: 'chromium',
    find: () => executable(CHROMIUM),
    absent: `no Chromium at ${CHROMIUM}`,
    hint: 'or set PINGMON_TEST_CHROMIUM',
  },
  cron: {
    package: 'cron',
    find: () => executable('/usr/sbin/cron') && executable('/usr/bin/crontab'),
    absent: 'no Debian cron daemon at /usr/sbin/cron (and crontab at /usr/bin/crontab)',
  },
  openssl: onPath('openssl'),
  tmux: onPath('tmux'),
  zsh: onPath('zsh'),
};

/** What a test (or a test file's root) needs of tap's Test here. */
interface Needing {
  plan(count: number, comment?: string): void;
  fail(message: string): boolean;
}

/** Why a tool cannot be run here, naming the package to install; undefined when it can. */
export function toolMissing(tool: SystemTool): string | undefined {
  const spec = SYSTEM_TOOLS[tool];
  if (spec.find()) return undefined;
  const hint = spec.hint ? ` (${spec.hint})` : '';
  return `${spec.absent}: install it with \`apt-get install -y ${spec.package}\`${hint}`;
}

/**
 * Call first in a test (or at the top of a test file) that runs these tools. Returns true when they are all here;
 * otherwise the test is skipped with a note naming the packages and false is returned, except under CI=true, where
 * a missing tool fails the test: CI must run every test.
 */
export function requireTools(t: Needing, ...tools: SystemTool[]): boolean {
  const missing = tools.map(toolMissing).filter((note) => note !== undefined);
  if (missing.length === 0) return true;
  const note = missing.join('; ');
  if (process.env.CI === 'true') t.fail(`${note} (CI=true: every test must run)`);
  else t.plan(0, note);
  return false;
}

/** A command looked up on the PATH when asked (a test may change it), from the Debian package of its name. */
function onPath(command: string): ToolSpec {
  const find = () =>
    (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && executable(join(dir, command)));
  return { package: command, find, absent: `no ${command} on the PATH` };
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
