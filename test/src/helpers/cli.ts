import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CLI = fileURLToPath(new URL('../../../cli/bin/run.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of one `pingmon` process: this one's, without its PINGMON_* settings, and with a spool of
 * its own (XDG_STATE_HOME) unless `env` names one, so that no run delivers pings another test left behind.
 * No background flush either (PINGMON_FLUSH_FOR=0) unless `env` asks for one: a detached process would outlive
 * the test; test/src/cli/spool.test.ts starts them, and kills them.
 */
export function cliEnv(env: Record<string, string>): Record<string, string | undefined> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PINGMON_')));
  return { ...clean, XDG_STATE_HOME: env.XDG_STATE_HOME ?? stateHome(), PINGMON_FLUSH_FOR: '0', ...env };
}

const stateHomes: string[] = [];
process.once('exit', () => stateHomes.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function stateHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pingmon-state-'));
  stateHomes.push(dir);
  return dir;
}

/** Runs `pingmon …` as a real child process, with only the given PINGMON_* settings. */
export function pingmon(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const child = spawnCli(args, env);
  return finished(child);
}

/** What `pingmon admin create-account --json` prints. */
export interface CreatedAccount {
  accountId: string;
  userId: string;
  apiKey: string;
}

/**
 * An account made as an operator makes one: `pingmon admin create-account … --json` on the database of `env`
 * (plan unlimited unless said).
 */
export async function createAccountCli(
  env: Record<string, string>,
  { email = 'ops@example.com', password = 'hunter2hunter2', plan = 'unlimited' } = {},
): Promise<CreatedAccount> {
  const args = ['admin', 'create-account', '--email', email, '--password', password, '--plan', plan, '--json'];
  const created = await pingmon(args, env);
  if (created.code !== 0) throw new Error(`pingmon admin create-account failed: ${created.stderr}`);
  return JSON.parse(created.stdout) as CreatedAccount;
}

export function spawnCli(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], { env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
}

export function finished(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Resolves with the first stdout line matching `pattern`; rejects if the process ends first. */
export function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    let stderr = '';
    const onData = (d: Buffer) => {
      buffered += d.toString();
      const match = pattern.exec(buffered);
      if (match) {
        child.stdout!.off('data', onData);
        resolve(match);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', (code) =>
      reject(new Error(`pingmon exited with ${code} before printing ${pattern}: ${stderr}`)),
    );
  });
}

export interface RawResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  /** Highest resident memory of the pingmon process seen while it ran, in bytes (Linux). */
  peakRss: number;
}

/** Runs `pingmon …` with stdin fed from `input`, keeping stdout as bytes; samples its memory while it runs. */
export function pingmonRaw(args: string[], env: Record<string, string>, input?: Buffer): Promise<RawResult> {
  const child = spawn(process.execPath, [CLI, ...args], { env: cliEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let stderr = '';
  let peakRss = 0;
  child.stdout!.on('data', (d: Buffer) => out.push(d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const sample = setInterval(() => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
      peakRss = Math.max(peakRss, kb * 1024);
    } catch {
      // gone already
    }
  }, 20);
  child.stdin!.on('error', () => undefined);
  child.stdin!.end(input);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sample);
      resolve({ code, stdout: Buffer.concat(out), stderr, peakRss });
    });
  });
}

/** Live `pingmon flush --background` processes of the host whose XDG_STATE_HOME is `stateHome` (zombies aside). */
export function backgroundFlushers(stateHome: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (!args.includes('flush') || !args.includes('--background')) continue;
      const environ = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      if (environ.includes(`XDG_STATE_HOME=${stateHome}`)) pids.push(Number(name));
    } catch {
      // Gone meanwhile, or another user's.
    }
  }
  return pids;
}
