import { join } from 'node:path';
import type { DatabaseKind, TestDatabase } from '../helpers/databases.js';
import { createTestDatabase } from '../helpers/databases.js';
import { databaseOutage } from '../helpers/outage.js';
import type { Outage } from '../helpers/outage.js';
import type { FuzzFigures } from './fuzz.js';
import { fuzz } from './fuzz.js';
import type { LoadFigures, Stored } from './load.js';
import { ServerProcess, accountWithMonitors, ackedPings, pairLoad, runIdOf, stored } from './load.js';

// The four scenarios of the standing fault suite (docs/testing.md). Each makes its own database and server
// process and removes them; the sizes are the caller's: npm run soak runs them large, npm test small.

/** What a scenario leaves to clean up, run last first. */
export class Cleanup {
  private readonly fns: Array<() => unknown> = [];
  teardown(fn: () => unknown): void {
    this.fns.push(fn);
  }
  async run(): Promise<void> {
    for (const fn of this.fns.reverse()) await fn();
  }
}

export interface Setup {
  server: ServerProcess;
  account: Awaited<ReturnType<typeof accountWithMonitors>>;
  database: TestDatabase;
  /** The server's data directory. */
  dataDir: string;
  /** Set when asked for: an outage of the server's database, begun and ended by the scenario. */
  outage?: Outage;
  /** What the scenario leaves to clean up, run before the server is stopped and the database dropped. */
  cleanup: Cleanup;
}

/**
 * A database, a `pingmon server` process on it (through an outage proxy if asked, with more settings if given,
 * and in a data directory it makes itself if `dataDir` is 'fresh') and an account.
 */
export async function withServer<T>(
  kind: DatabaseKind,
  monitors: number,
  work: (setup: Setup) => Promise<T>,
  settings: { withOutage?: boolean; env?: Record<string, string>; dataDir?: 'fresh' } = {},
): Promise<T> {
  const cleanup = new Cleanup();
  try {
    const database = await createTestDatabase(kind);
    cleanup.teardown(() => database.drop());
    const env: Record<string, string> = { ...database.env, ...settings.env };
    if (settings.dataDir === 'fresh') env.PINGMON_DATA_DIR = join(database.dataDir, 'made-by-the-server');
    const outage = settings.withOutage ? await databaseOutage(cleanup, kind) : undefined;
    if (outage?.databaseUrl) env.PINGMON_DATABASE_URL = outage.databaseUrl;
    const server = await ServerProcess.start(env);
    cleanup.teardown(() => server.stop());
    const account = await accountWithMonitors(env, server.url, monitors);
    return await work({ server, account, database, outage, cleanup, dataDir: env.PINGMON_DATA_DIR! });
  } finally {
    await cleanup.run();
  }
}

export interface PairsResult {
  load: LoadFigures;
  stored: Stored;
  acked: number;
}

/** Start/success pairs from concurrent clients: acknowledged = stored, no duplicate, no 5xx. */
export function pairsScenario(kind: DatabaseKind, pairs: number, clients: number, monitors: number) {
  return withServer(kind, monitors, async ({ server, account, database }) => {
    const load = await pairLoad({
      ...{ url: () => server.url, apiKey: account.apiKey, monitorIds: account.monitorIds },
      ...{ pairs, clients, retryForMs: 0 },
    });
    return { load, stored: await stored(database, load), acked: ackedPings(load) } satisfies PairsResult;
  });
}

export interface KillResult extends PairsResult {
  kills: number;
  /** From each SIGKILL to the restarted server listening again, in ms. */
  downMs: number[];
}

/** SIGKILL of the server `kills` times under load, clients retrying: every acknowledged ping is there after. */
export function killScenario(kind: DatabaseKind, pairs: number, clients: number, kills: number) {
  return withServer(kind, 10, async ({ server, account, database }) => {
    const downMs: number[] = [];
    const at = new Set(Array.from({ length: kills }, (_, i) => Math.floor(((i + 1) * pairs) / (kills + 1))));
    let restarting: Promise<void> | undefined;
    const load = await pairLoad({
      ...{ url: () => server.url, apiKey: account.apiKey, monitorIds: account.monitorIds },
      ...{ pairs, clients, retryForMs: 60_000 },
      onPair: (acked) => {
        if (!at.has(acked) || restarting) return;
        const began = performance.now();
        restarting = server
          .kill()
          .then(() => server.launch())
          .then(() => {
            downMs.push(performance.now() - began);
            restarting = undefined;
          });
      },
    });
    await restarting;
    return { load, stored: await stored(database, load), acked: ackedPings(load), kills: downMs.length, downMs };
  });
}

export interface OutageResult extends PairsResult {
  outageMs: number;
  /** From the database's return to the next acknowledged ping, in ms. */
  recoveryMs: number;
  /** The server's process is the one that started before the outage. */
  samePid: boolean;
}

/** The database gone for `outageMs` under load: 503s only, and pings taken again once it is back. */
export function outageScenario(kind: DatabaseKind, pairs: number, clients: number, outageMs: number) {
  const scenario = async ({ server, account, database, outage }: Setup): Promise<OutageResult> => {
    const pid = server.child.pid;
    let fault: Promise<void> | undefined;
    let endedAt: number | undefined;
    let recoveryMs = Number.NaN;
    const load = await pairLoad({
      ...{ url: () => server.url, apiKey: account.apiKey, monitorIds: account.monitorIds },
      // 503s are sent again every 50 ms (not after the 5 s Retry-After), to see the recovery to the millisecond.
      ...{ pairs, clients, retryForMs: 120_000 },
      onPair: (acked) => {
        if (fault || acked < Math.floor(pairs / 3)) return;
        fault = (async () => {
          await outage!.begin(database);
          await new Promise((resolve) => setTimeout(resolve, outageMs));
          await outage!.end();
          endedAt = performance.now();
        })();
      },
      onAnswer: (status) => {
        if (status === 200 && endedAt !== undefined && Number.isNaN(recoveryMs)) {
          recoveryMs = performance.now() - endedAt;
        }
      },
    });
    await fault;
    const result = { load, stored: await stored(database, load), acked: ackedPings(load) };
    return { ...result, outageMs, recoveryMs, samePid: server.child.pid === pid && server.child.exitCode === null };
  };
  return withServer(kind, 10, scenario, { withOutage: true });
}

export interface FuzzResult {
  fuzz: FuzzFigures;
  /** /health after the fuzz. */
  healthStatus: number;
}

/** Fuzzed requests over every endpoint: no 5xx, every error in the shape, the server alive after. */
export function fuzzScenario(kind: DatabaseKind, requests: number, clients: number, seed: number) {
  return withServer(kind, 5, async ({ server, account }) => {
    // Some real runs to find, by id, with logs.
    const load = await pairLoad({
      ...{ url: () => server.url, apiKey: account.apiKey, monitorIds: account.monitorIds },
      ...{ pairs: 20, clients: 2, retryForMs: 0 },
    });
    if (ackedPings(load) !== 40) throw new Error('the fuzz could not make its runs');
    const runIds = Array.from({ length: 20 }, (_, n) => runIdOf(n));
    const target = {
      url: server.url,
      apiKey: account.apiKey,
      token: account.token,
      monitorIds: account.monitorIds,
      runIds,
    };
    const figures = await fuzz(target, requests, clients, seed);
    const health = await fetch(`${server.url}/api/v1/health`);
    return { fuzz: figures, healthStatus: health.status } satisfies FuzzResult;
  });
}
