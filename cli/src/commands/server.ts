import { Flags } from '@oclif/core';
import { BaseCommand } from '../base-command.js';
import { databaseFlags } from '../flags.js';

/** After a second signal, how long the stop may still take before the process exits regardless. */
const FORCE_EXIT_MS = 3_000;

export default class Server extends BaseCommand {
  static override summary = 'Run the pingmon API server';
  static override description = 'Serves the API under /api/v1, on embedded SQLite by default or PostgreSQL with --database-url, applying migrations itself. Stops cleanly on SIGINT or SIGTERM.';
  static override examples = [
    '<%= config.bin %> server',
    '<%= config.bin %> server --host 0.0.0.0 --port 8080 --data-dir /var/lib/pingmon',
    'PINGMON_DATABASE_URL=postgres://pingmon@db:5432/pingmon <%= config.bin %> server',
  ];
  static override flags = {
    host: Flags.string({ description: 'address to listen on [env: PINGMON_HOST; default: 127.0.0.1]' }),
    port: Flags.integer({ description: 'port to listen on, 0 for any free port [env: PINGMON_PORT; default: 8080]', min: 0, max: 65535 }),
    ...databaseFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Server);
    const { loadConfig, createServer, API_PREFIX } = await import('@pingmon/server');
    const config = loadConfig(process.env, { host: flags.host, port: flags.port, dataDir: flags['data-dir'], databaseUrl: flags['database-url'] });
    const server = await createServer(config);
    // Registered after the server's own: runs once the alert sender has made its last claim.
    server.ext('onPreStop', () => {
      const { busy } = server.app.deliveries;
      if (busy === 0) return;
      process.stderr.write(`pingmon server: stopping after ${busy} alert delivery attempt(s) in flight (about ${config.alertTimeoutMs / 1000} s at most); ` +
        'press Ctrl-C again to stop now and leave them to the next start\n');
    });
    try {
      await server.start();
    } catch (err) {
      await server.stop();
      if ((err as { code?: string }).code === 'EADDRINUSE') this.error(`port ${config.port} is already in use on ${config.host}; choose another with --port`, { exit: 1 });
      if ((err as { code?: string }).code === 'EADDRNOTAVAIL') this.error(`cannot listen on ${config.host}: no such address on this machine; check --host`, { exit: 1 });
      throw err;
    }
    this.log(`pingmon server listening on ${server.info.uri}${API_PREFIX}`);
    await new Promise<void>((resolve) => {
      const stopNow = () => {
        process.off('SIGINT', stopNow);
        process.off('SIGTERM', stopNow);
        server.app.deliveries.abandon();
        // Giving the attempts back takes a moment; requests in flight or a database that does not answer are not waited for.
        setTimeout(() => {
          process.stderr.write(`pingmon server: not stopped ${FORCE_EXIT_MS / 1000} s after the second signal (requests in flight or the database); exiting now\n`);
          process.exit(1);
        }, FORCE_EXIT_MS).unref();
      };
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        process.on('SIGINT', stopNow);
        process.on('SIGTERM', stopNow);
        // In-flight requests get 10 s to finish, alert attempts their timeout; then the database closes (onPostStop).
        void server.stop({ timeout: 10_000 }).then(() => {
          process.off('SIGINT', stopNow);
          process.off('SIGTERM', stopNow);
          resolve();
        });
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  }
}
