import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';

/** What a worker tells the primary, and what the primary tells a worker (over the cluster's IPC channel). */
export type WorkerMessage = { pingmon: 'listening'; uri: string } | { pingmon: 'metrics'; id: number };
export type PrimaryMessage =
  | { pingmon: 'stop' }
  | { pingmon: 'abandon' }
  | { pingmon: 'metrics'; id: number; text: string }
  | { pingmon: 'metrics'; id: number; error: string };

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** More restarts than this within RESTART_WINDOW_MS, per worker asked for, and the primary gives up. */
const RESTARTS_PER_WORKER = 3;
const RESTART_WINDOW_MS = 60_000;

/**
 * `pingmon server --workers N`: the primary process forks N workers that run the server on one port (node's
 * cluster hands connections out in turn) and never serves itself. It prints the address once every worker
 * listens. The primary alone reacts to SIGINT and SIGTERM, whether sent to it or to the whole process group
 * (Ctrl-C, systemd): the first asks every worker for a clean stop, the second to stop waiting for alert
 * attempts. A worker that ends on its own after start-up is replaced (and the primary gives up on a worker that
 * keeps failing); one that cannot start stops them all. Resolves with the exit code.
 */
export function superviseWorkers(
  count: number,
  log: (line: string) => void,
  metrics?: () => Promise<string>,
): Promise<number> {
  const alive = new Set<Worker>();
  const started = new Set<Worker>();
  const listening = new Set<Worker>();
  const restarts: number[] = [];
  let stopping = false;
  let failed = false;
  let signals = 0;
  let announced = false;

  let resolve: (code: number) => void = () => {};
  const send = (message: PrimaryMessage) => {
    for (const worker of alive) if (worker.isConnected()) worker.send(message);
  };
  const stop = (why?: string) => {
    if (why !== undefined) {
      failed = true;
      process.stderr.write(`pingmon server: ${why}\n`);
    }
    if (stopping) return;
    stopping = true;
    send({ pingmon: 'stop' });
  };
  const onSignal = () => {
    signals += 1;
    if (signals === 1) stop();
    else send({ pingmon: 'abandon' });
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);

  const fork = () => {
    const worker = cluster.fork();
    alive.add(worker);
    // A message sent as the worker dies (a group's Ctrl-C ends a replacement still starting) fails to write: its
    // 'exit' follows and settles the matter, so the failed write is not a crash of the primary.
    worker.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ERR_IPC_CHANNEL_CLOSED') {
        process.stderr.write(`pingmon server: worker ${worker.process.pid}: ${err.message}\n`);
      }
    });
    worker.on('message', (message: WorkerMessage) => {
      if (message?.pingmon === 'metrics' && metrics) answerMetrics(worker, message.id, metrics);
      if (message?.pingmon !== 'listening') return;
      started.add(worker);
      listening.add(worker);
      if (!announced && started.size === count) {
        announced = true;
        log(message.uri);
      }
      // A worker started while the others stop (a replacement forked just before) stops too.
      if (stopping) worker.send({ pingmon: 'stop' } satisfies PrimaryMessage);
    });
    worker.on('exit', (code, signal) => {
      alive.delete(worker);
      // A worker that did not stop cleanly (its stop failed, or was stuck) makes the whole stop a failure. Not one
      // that the group's Ctrl-C ended while it was still starting (a replacement forked a moment before), before
      // it could ignore the signal: it served nothing.
      const interrupted = !listening.delete(worker) && (signal === 'SIGINT' || signal === 'SIGTERM');
      if (stopping && (code !== 0 || signal !== null) && !interrupted) failed = true;
      if (!stopping) replace(worker, signal === null ? `with code ${code}` : `on ${signal}`);
      if (stopping && alive.size === 0) {
        for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
        resolve(failed ? 1 : 0);
      }
    });
    return worker;
  };

  /** A worker ended on its own: replaced, unless it never started or workers keep ending. */
  const replace = (worker: Worker, how: string) => {
    if (!started.delete(worker)) {
      stop(`a worker could not start (exited ${how}; its message is above); stopping the others`);
      return;
    }
    const now = Date.now();
    restarts.push(now);
    while (restarts[0] < now - RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length > RESTARTS_PER_WORKER * count) {
      stop(`workers keep exiting (${restarts.length} in the last minute, the last ${how}); stopping`);
      return;
    }
    process.stderr.write(`pingmon server: worker ${worker.process.pid} exited ${how}; starting another\n`);
    started.add(fork());
  };

  return new Promise((done) => {
    resolve = done;
    for (let i = 0; i < count; i++) fork();
  });
}

/**
 * A worker's side, from its first moment (start-up included): the primary's messages stand for the signals (a
 * worker ignores SIGINT and SIGTERM, which the primary also receives). A stop asked before the server listens is
 * kept, and carried out once the returned function is given what to call. A primary that is gone (killed) takes
 * its workers with it: node's cluster ends a worker whose primary disconnects.
 */
export function listenToPrimary(): (stop: () => void, abandon: () => void) => void {
  const asked = { stop: false, abandon: false };
  let handlers: { stop(): void; abandon(): void } | undefined;
  for (const signal of STOP_SIGNALS) process.on(signal, () => {});
  process.on('message', (message: PrimaryMessage) => {
    if (message?.pingmon !== 'stop' && message?.pingmon !== 'abandon') return;
    asked[message.pingmon] = true;
    handlers?.[message.pingmon]();
  });
  return (stop, abandon) => {
    handlers = { stop, abandon };
    if (asked.stop) stop();
    if (asked.abandon) abandon();
  };
}

export function tellPrimary(message: WorkerMessage): void {
  process.send?.(message);
}

/** A scrape of /metrics reached one worker: it answers with every worker's metrics, which the primary gathers. */
function answerMetrics(worker: Worker, id: number, metrics: () => Promise<string>): void {
  const reply = (answer: { text: string } | { error: string }) => {
    if (worker.isConnected()) worker.send({ pingmon: 'metrics', id, ...answer } satisfies PrimaryMessage);
  };
  metrics().then(
    (text) => reply({ text }),
    (err: Error) => reply({ error: err.message }),
  );
}

let metricsAsked = 0;

/** A worker's side of answerMetrics: every worker's metrics, summed, as Prometheus text. */
export function askPrimaryForMetrics(): Promise<string> {
  const id = metricsAsked++;
  return new Promise((resolve, reject) => {
    if (!process.send || !process.connected) {
      reject(new Error('this worker has lost its primary'));
      return;
    }
    const answered = (message: PrimaryMessage) => {
      if (message?.pingmon !== 'metrics' || message.id !== id) return;
      process.off('message', answered);
      if ('text' in message) resolve(message.text);
      else reject(new Error(`gathering the workers' metrics failed: ${message.error}`));
    };
    process.on('message', answered);
    tellPrimary({ pingmon: 'metrics', id });
  });
}
