import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../cli/bin/run.js', import.meta.url));

/** The builds BENCH_BUILDS names (`label=/a/built/checkout,…`), each by its CLI; this checkout alone by default. */
export const BUILDS = (process.env.BENCH_BUILDS ?? `this=${fileURLToPath(new URL('../..', import.meta.url))}`)
  .split(',')
  .map((entry) => {
    const [label, dir] = entry.split('=') as [string, string];
    return { label, cli: dir === undefined ? CLI : join(dir, 'cli/bin/run.js') };
  });

export interface Started {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a node script that prints "… listening on <url>" and keeps draining its output; `launcher` runs node (a
 * profiler such as valgrind).
 */
export function startListening(args: string[], env: Record<string, string>, launcher: string[] = []): Promise<Started> {
  const [command, ...rest] = [...launcher, process.execPath, ...args] as [string, ...string[]];
  const child = spawn(command, rest, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const match = /listening on (\S+)/.exec(out);
      if (!match) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume(); // the server log keeps flowing; drain it
      resolve({
        child,
        url: match[1]!,
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${stderr}`)));
  });
}

export function runCli(args: string[], env: Record<string, string>, cli = CLI): Promise<string> {
  const child = spawn(process.execPath, [cli, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`pingmon ${args.join(' ')} exited with ${code}`)),
    );
  });
}

/** A started process's CPU time (user + system) in ms: per ping, steadier than pings/s when others share the CPU. */
export function cpuMs(started: Started): number {
  const fields = readFileSync(`/proc/${started.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}
