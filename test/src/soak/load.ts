import { Agent, request } from 'node:http';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { finished, pingmon, spawnCli, waitForLine } from '../helpers/cli.js';
import type { TestDatabase } from '../helpers/databases.js';
import { knexOf } from '../helpers/databases.js';

// The standing fault suite's load (npm run soak, and its small version in npm test): a real `pingmon server`
// process, concurrent clients sending start/success pairs over keep-alive connections, and a count of what the
// database holds afterwards against what was acknowledged.

/** A `pingmon server` process on a fixed loopback port, which can be killed and started again on it. */
export class ServerProcess {
  child!: ChildProcess;
  private exited!: Promise<unknown>;

  private constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  static async start(env: Record<string, string>): Promise<ServerProcess> {
    const server = new ServerProcess(await freePort(), { ...env, PINGMON_LOG_LEVEL: 'warn' });
    await server.launch();
    return server;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async launch(): Promise<void> {
    this.child = spawnCli(['server', '--port', String(this.port), '--host', '127.0.0.1'], this.env);
    this.exited = finished(this.child);
    await waitForLine(this.child, /listening on/);
    this.child.stdout!.resume();
  }

  /** SIGKILL: no shutdown of any kind, as when the machine loses power or the OOM killer strikes. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    await this.exited;
  }
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** An account on the `unlimited` plan with `count` monitors, made the way a user would. */
export async function accountWithMonitors(
  env: Record<string, string>,
  url: string,
  count: number,
): Promise<{ apiKey: string; token: string; monitorIds: string[] }> {
  const login = { email: `soak-${Date.now()}@example.com`, password: 'correct horse battery' };
  const args = ['admin', 'create-account', '--email', login.email, '--password', login.password];
  const created = await pingmon([...args, '--plan', 'unlimited', '--json'], env);
  if (created.code !== 0) throw new Error(`create-account failed: ${created.stderr}`);
  const { apiKey } = JSON.parse(created.stdout) as { apiKey: string };
  const { token } = (await api(url, 'POST', '/auth/login', undefined, login)) as { token: string };
  const monitorIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const monitor = (await api(url, 'POST', '/monitors', token, { name: `soak ${i}` })) as { monitorId: string };
    monitorIds.push(monitor.monitorId);
  }
  return { apiKey, token, monitorIds };
}

/**
 * One call of the API as a user makes it; answers its data. A 503 (the database out of reach a moment, as on a
 * loaded machine) is sent again as its message says, for up to 30 s: the scenarios' set-up is not what they test.
 */
export async function api(url: string, method: string, path: string, token?: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const giveUpAt = Date.now() + 30_000;
  for (;;) {
    const reply = await fetch(`${url}/api/v1${path}`, { method, headers, body: JSON.stringify(body) });
    const parsed = (await reply.json()) as { data?: unknown };
    if (reply.ok) return parsed.data ?? parsed;
    if (reply.status !== 503 || Date.now() > giveUpAt) {
      throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(parsed)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface LoadOptions {
  url: () => string;
  apiKey: string;
  monitorIds: string[];
  pairs: number;
  clients: number;
  /** Send a ping again after a network error or a 5xx (as pingmon run and the SDK do), for up to this long. */
  retryForMs: number;
  /** Called after each acknowledged pair, with how many there are (to time a fault in the middle of the load). */
  onPair?: (acked: number) => void;
  /** Called with the status of every answer (0: none). */
  onAnswer?: (status: number) => void;
}

export interface LoadFigures {
  pairs: number;
  pings: number;
  seconds: number;
  pingsPerSecond: number;
  /** Answers by status, network errors under 0. */
  statuses: Record<number, number>;
  /** Per pair: whether its start, and its success, were acknowledged. */
  ackedStart: Uint8Array;
  ackedSuccess: Uint8Array;
  /** Pings never acknowledged within retryForMs. */
  givenUp: number;
}

/** The runId of pair `n`: sorted like n, and of the runId alphabet. */
export const runIdOf = (n: number) => `soak-${String(n).padStart(10, '0')}`;

/** Runs `pairs` start/success pairs from `clients` concurrent clients, round-robin over the monitors. */
export async function pairLoad(options: LoadOptions): Promise<LoadFigures> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.clients });
  const figures: LoadFigures = {
    ...{ pairs: options.pairs, pings: 0, seconds: 0, pingsPerSecond: 0, statuses: {}, givenUp: 0 },
    ackedStart: new Uint8Array(options.pairs),
    ackedSuccess: new Uint8Array(options.pairs),
  };
  let next = 0;
  let acked = 0;
  const count = (status: number) => (figures.statuses[status] = (figures.statuses[status] ?? 0) + 1);
  const send = async (monitorId: string, kind: 'start' | 'success', runId: string): Promise<boolean> => {
    const giveUpAt = Date.now() + options.retryForMs;
    for (;;) {
      const status = await ping(agent, options.url(), options.apiKey, monitorId, kind, runId);
      count(status);
      options.onAnswer?.(status);
      figures.pings++;
      if (status === 200) return true;
      const retried = status === 0 || status >= 500;
      if (!retried || Date.now() >= giveUpAt) {
        figures.givenUp++;
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const client = async () => {
    while (next < options.pairs) {
      const n = next++;
      const monitorId = options.monitorIds[n % options.monitorIds.length]!;
      if (await send(monitorId, 'start', runIdOf(n))) figures.ackedStart[n] = 1;
      if (await send(monitorId, 'success', runIdOf(n))) figures.ackedSuccess[n] = 1;
      options.onPair?.(++acked);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.clients }, client));
  figures.seconds = (performance.now() - started) / 1000;
  figures.pingsPerSecond = figures.pings / figures.seconds;
  agent.destroy();
  return figures;
}

function ping(agent: Agent, url: string, apiKey: string, monitorId: string, kind: string, runId: string) {
  const body = JSON.stringify({ runId });
  return new Promise<number>((resolve) => {
    const req = request(
      `${url}/api/v1/ping/${monitorId}/${kind}`,
      {
        method: 'POST',
        agent,
        timeout: 30_000,
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

export interface Stored {
  /** Runs of the load in the database. */
  runs: number;
  /** Acknowledged starts whose run is missing, and acknowledged successes whose run is not a success. */
  lost: number;
  /** runIds stored more than once. */
  duplicates: number;
}

/** What the database holds of a load, against what it acknowledged. */
export async function stored(database: TestDatabase, figures: LoadFigures): Promise<Stored> {
  const knex = knexOf(database);
  try {
    const rows = (await knex('runs').select('id', 'status').where('id', 'like', 'soak-%')) as Array<{
      id: string;
      status: string;
    }>;
    const seen = new Uint8Array(figures.pairs);
    const success = new Uint8Array(figures.pairs);
    let duplicates = 0;
    for (const row of rows) {
      const n = Number(row.id.slice(5));
      if (seen[n]) duplicates++;
      seen[n] = 1;
      if (row.status === 'success') success[n] = 1;
    }
    let lost = 0;
    for (let n = 0; n < figures.pairs; n++) {
      if (figures.ackedStart[n] && !seen[n]) lost++;
      if (figures.ackedSuccess[n] && !success[n]) lost++;
    }
    return { runs: rows.length, lost, duplicates };
  } finally {
    await knex.destroy();
  }
}

/** How many pings the load got acknowledged. */
export function ackedPings(figures: LoadFigures): number {
  let n = 0;
  for (let i = 0; i < figures.pairs; i++) n += figures.ackedStart[i]! + figures.ackedSuccess[i]!;
  return n;
}

/** Answers by status, e.g. "200×39998 503×12 no answer×3". */
export function statusLine(statuses: Record<number, number>): string {
  return Object.entries(statuses)
    .map(([status, n]) => `${status === '0' ? 'no answer' : status}×${n}`)
    .join(' ');
}

export const fiveXX = (statuses: Record<number, number>, except: number[] = []) =>
  Object.entries(statuses)
    .filter(([status]) => Number(status) >= 500 && !except.includes(Number(status)))
    .reduce((sum, [, n]) => sum + n, 0);
