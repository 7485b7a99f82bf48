import cluster from 'node:cluster';
import { Flags } from '@oclif/core';
import type { StopHooks, Stopping } from '@pingmon/server';
import { BaseCommand } from '../base-command.js';
import { databaseFlags } from '../flags.js';
import { loadServer } from '../server-package.js';
import { askPrimaryForMetrics, listenToPrimary, superviseWorkers, tellPrimary } from '../server-workers.js';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Calls `handler` at the next SIGINT or SIGTERM, then lets the signals go; returns a function that lets
 * them go sooner. A handler that listens for the next signal listens before this one lets go, so there
 * is no moment in which a signal would kill the process instead.
 */
function onNextSignal(handler: () => void): () => void {
  const off = () => {
    for (const signal of STOP_SIGNALS) process.off(signal, once);
  };
  const once = () => {
    handler();
    off();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, once);
  return off;
}

/** What the operator reads while the server stops; a stop that hangs after the second signal ends the process. */
function stopNotices(alertTimeoutMs: number): StopHooks {
  return {
    onWaiting: (attempts) => {
      process.stderr.write(
        `pingmon server: stopping after ${attempts} alert delivery attempt(s) in flight ` +
          `(about ${alertTimeoutMs / 1000} s at most); ` +
          'press Ctrl-C again to stop now and leave them to the next start\n',
      );
    },
    onStuck: (afterMs) => {
      process.stderr.write(
        `pingmon server: not stopped ${afterMs / 1000} s after the second signal ` +
          '(requests in flight or the database); exiting now\n',
      );
      process.exit(1);
    },
  };
}

export default class Server extends BaseCommand {
  static override summary = 'Run the pingmon API server';
  static override description =
    'Serves the API under /api/v1, on embedded SQLite by default or PostgreSQL with --database-url, ' +
    'applying migrations itself. Stops cleanly on SIGINT or SIGTERM.';
  static override examples = [
    '<%= config.bin %> server',
    '<%= config.bin %> server --host 0.0.0.0 --port 8080 --data-dir /var/lib/pingmon',
    'PINGMON_DATABASE_URL=postgres://pingmon@db:5432/pingmon <%= config.bin %> server',
  ];
  static override flags = {
    host: Flags.string({ description: 'address to listen on [env: PINGMON_HOST; default: 127.0.0.1]' }),
    port: Flags.integer({
      description: 'port to listen on, 0 for any free port [env: PINGMON_PORT; default: 8080]',
      min: 0,
      max: 65535,
    }),
    workers: Flags.integer({
      // oclif prints "[env: PINGMON_WORKERS]" itself, for a flag read from the environment by its `env`.
      description: 'server processes sharing the port, PostgreSQL only [default: 1]',
      min: 1,
      max: 64,
      env: 'PINGMON_WORKERS',
    }),
    ...databaseFlags,
  };

  async run(): Promise<void> {
    try {
      await this.serve();
    } finally {
      // A worker's IPC channel would keep it alive after the server stopped, or failed to start. (The worker's
      // own disconnect: a bare process.disconnect() makes node's cluster exit at once, with code 0.)
      cluster.worker?.disconnect();
    }
  }

  private async serve(): Promise<void> {
    // A worker listens to its primary before anything else: a Ctrl-C during start-up must not end it.
    const whenStopped = cluster.isWorker ? listenToPrimary() : undefined;
    const { flags } = await this.parse(Server);
    const { loadConfig, createServer, stopGracefully, workerMetrics, API_PREFIX } = await loadServer('pingmon server');
    const config = loadConfig(process.env, {
      host: flags.host,
      port: flags.port,
      dataDir: flags['data-dir'],
      databaseUrl: flags['database-url'],
    });
    const workers = flags.workers ?? 1;
    if (workers > 1 && !config.databaseUrl) {
      this.error(
        `--workers ${workers} needs PostgreSQL (--database-url or PINGMON_DATABASE_URL): on SQLite one process ` +
          'already writes as fast as the file allows, and several would only wait for each other; ' +
          'run without --workers',
        { exit: 2 },
      );
    }
    if (workers > 1 && cluster.isPrimary) {
      const announce = (uri: string) => {
        this.log(`pingmon server listening on ${uri}${API_PREFIX} (${workers} workers)`);
        this.log(`dashboard on ${uri}/`);
      };
      const code = await superviseWorkers(workers, announce, config.metrics ? workerMetrics() : undefined);
      if (code !== 0) this.exit(code);
      return;
    }
    // A scrape reaches one worker: it answers for all of them, through the primary.
    const gatherMetrics = whenStopped && config.metrics ? askPrimaryForMetrics : undefined;
    const server = await createServer(config, { gatherMetrics });
    try {
      await server.start();
    } catch (err) {
      await server.stop();
      if ((err as { code?: string }).code === 'EADDRINUSE')
        this.error(`port ${config.port} is already in use on ${config.host}; choose another with --port`, { exit: 1 });
      if ((err as { code?: string }).code === 'EADDRNOTAVAIL')
        this.error(`cannot listen on ${config.host}: no such address on this machine; check --host`, { exit: 1 });
      throw err;
    }
    const notices = stopNotices(config.alertTimeoutMs);
    if (whenStopped) {
      tellPrimary({ pingmon: 'listening', uri: server.info.uri });
      await new Promise<void>((resolve, reject) => {
        let stopping: Stopping | undefined;
        const stop = () => {
          if (stopping) return;
          stopping = stopGracefully(server, notices);
          stopping.done.then(resolve, reject);
        };
        whenStopped(stop, () => stopping?.abandon());
      });
      return;
    }
    this.log(`pingmon server listening on ${server.info.uri}${API_PREFIX}`);
    this.log(`dashboard on ${server.info.uri}/`);
    const { done, offSecond } = await new Promise<{ done: Promise<void>; offSecond: () => void }>((resolve) => {
      onNextSignal(() => {
        const stopping = stopGracefully(server, notices);
        resolve({ done: stopping.done, offSecond: onNextSignal(() => stopping.abandon()) });
      });
    });
    try {
      await done;
    } finally {
      offSecond();
    }
  }
}
