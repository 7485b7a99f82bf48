import type { TestDatabase } from '../helpers/databases.js';
import type { Outage } from '../helpers/outage.js';
import type { ServerProcess } from './load.js';

// The faults of the false-alert scenario: pingmon stopped and started again on its port, or its database gone
// for a while under the same process. The pause is the fault's own length, the scenario's pacing.

export const FAULT_KINDS = ['stop', 'kill', 'stop-long', 'kill-long', 'database'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultLengths {
  /** A deploy's restart: from the old process gone to the new one started. */
  shortGapMs: number;
  /** Longer than a ping's retry budget (2 s) and a sweep interval: the pings of the time go to the spools. */
  longGapMs: number;
  /** The database unreachable. */
  outageMs: number;
}

/** One fault as it happened: from its first moment to the server listening (or the database reachable) again. */
export interface FaultRecord {
  kind: FaultKind;
  beganAt: number;
  endedAt: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function fault(
  kind: FaultKind,
  lengths: FaultLengths,
  server: ServerProcess,
  database: TestDatabase,
  outage: Outage,
): Promise<FaultRecord> {
  const beganAt = Date.now();
  if (kind === 'database') {
    await outage.begin(database);
    await pause(lengths.outageMs);
    await outage.end();
  } else {
    // SIGTERM: a clean stop, which records when its sweeper stopped. SIGKILL: nothing recorded.
    await (kind.startsWith('stop') ? server.stop() : server.kill());
    await pause(kind.endsWith('long') ? lengths.longGapMs : lengths.shortGapMs);
    await server.launch();
  }
  return { kind, beganAt, endedAt: Date.now() };
}

/** `count` faults, every kind in turn, in an order drawn from `random`. */
export function faultOrder(count: number, random: () => number): FaultKind[] {
  const kinds = Array.from({ length: count }, (_, i) => FAULT_KINDS[i % FAULT_KINDS.length]!);
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  return kinds;
}
