import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI } from './processes.js';

/**
 * Time from the server being back to the spool being empty, with no other `pingmon run`: a run kept while the
 * server is down, then the server back after `downMs`. The background flush's waits grow 1 s, 2 s, 4 s, 8 s, then
 * 15 s, so the figure depends on where in its waits the server comes back; 15 s is the most it can be.
 */
export async function spoolRecoveryBench(env: Record<string, string>, downMs = [500, 5_000, 20_000]): Promise<void> {
  const target = new URL(env.PINGMON_URL!);
  const proxy = await switchable(target.hostname, Number(target.port));
  const through = new URL(target);
  through.port = String(proxy.port);
  const figures: string[] = [];
  try {
    for (const ms of downMs) {
      const state = mkdtempSync(join(tmpdir(), 'pingmon-bench-recovery-'));
      const spool = join(state, 'pingmon', 'spool');
      try {
        proxy.up = false;
        await run({ ...env, PINGMON_URL: through.toString(), XDG_STATE_HOME: state });
        await sleep(ms);
        proxy.up = true;
        const backAt = performance.now();
        while (readdirSync(spool).some((f) => f.endsWith('.json'))) {
          if (performance.now() - backAt > 60_000) throw new Error('the spool was not emptied within 60 s');
          await sleep(20);
        }
        figures.push(`down ${ms / 1000} s: ${((performance.now() - backAt) / 1000).toFixed(1)} s`);
      } finally {
        stopFlush(spool);
        rmSync(state, { recursive: true, force: true });
      }
    }
  } finally {
    proxy.close();
  }
  console.log(`\nserver back to spool empty, no other pingmon run (background flush): ${figures.join('; ')}`);
}

function run(env: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, [CLI, 'run', '--ping-timeout', '500ms', '--', 'true'], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  return new Promise((resolve) => child.on('exit', () => resolve()));
}

/** A background flush still at work (it should have ended with the spool empty) is not left behind. */
function stopFlush(spool: string): void {
  try {
    process.kill(Number(readFileSync(join(spool, '.lock'), 'utf8').split(' ')[0]), 'SIGTERM');
  } catch {
    // No lock: none is running.
  }
}

/** A TCP proxy that resets every connection while down: the server's port stays the same throughout. */
async function switchable(host: string, port: number) {
  const open = new Set<Socket>();
  const state = { up: true };
  const server = createServer((client) => {
    if (!state.up) return client.resetAndDestroy();
    const upstream = connect(port, host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    set up(value: boolean) {
      state.up = value;
      if (!value) for (const socket of open) socket.resetAndDestroy();
    },
    close: () => {
      for (const socket of open) socket.destroy();
      server.close();
    },
  };
}
