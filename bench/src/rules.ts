import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory from 'knex';
import { CONNECTIONS, SECONDS, load } from './load.js';
import { startPingmon } from './pingmon.js';
import { cpuMs } from './processes.js';

// What a rule that looks back costs a success ping (issue 30, docs/alerts.md#rules-that-look-back): the same server
// loaded in turn on monitors without rules, with a fixed rule, and with a rule that reads the latest 24 successes
// (`rowsProcessed < 0.5 × median(20) in 3 of the last 5`), alternated in rounds of rotated order. The pings report
// 42 rows: the rules judge every one and match none. Server CPU per ping is the figure to read.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MONITORS = 20;
const RULES = {
  none: null,
  fixed: { metric: 'rowsProcessed', op: 'lt', value: 1 },
  'look-back': {
    ...{ metric: 'rowsProcessed', op: 'lt', value: 0.5 },
    ...{ baseline: { runs: 20 }, window: { runs: 5, atLeast: 3 } },
  },
};
type Kind = keyof typeof RULES;
const KINDS = Object.keys(RULES) as Kind[];

export async function rulesBench(postgresUrl: string | undefined): Promise<void> {
  console.log(
    `\nSuccess pings on ${MONITORS} monitors without rules, with a fixed rule, and with a look-back rule ` +
      `(24 successes read), ${CONNECTIONS} connections, ${SECONDS} s each, ${ROUNDS} rounds in rotated order:`,
  );
  await onDatabase('SQLite', {});
  if (!postgresUrl) return console.log('(PostgreSQL skipped: set PINGMON_TEST_DATABASE_URL)');
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  try {
    await onDatabase('PostgreSQL', { PINGMON_DATABASE_URL: postgresUrl, PINGMON_DATABASE_SCHEMA: schema });
  } finally {
    const admin = knexFactory({ client: 'pg', connection: postgresUrl });
    await admin.raw('drop schema if exists ?? cascade', [schema]);
    await admin.destroy();
  }
}

async function onDatabase(label: string, database: Record<string, string>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pingmon-bench-'));
  // Retention off: a prune mid-load would cost the pings time no real monitor pays.
  const env = { PINGMON_DATA_DIR: dataDir, PINGMON_RETENTION_RUNS: '0', ...database };
  const pingmon = await startPingmon(env, MONITORS * KINDS.length);
  try {
    const token = await logIn(pingmon.server.url);
    const ids = {} as Record<Kind, string[]>;
    for (const [i, kind] of KINDS.entries()) {
      ids[kind] = pingmon.monitorIds.slice(i * MONITORS, (i + 1) * MONITORS);
      const rule = RULES[kind];
      if (rule) for (const id of ids[kind]) await addRule(pingmon.server.url, token, id, rule);
    }
    const cpu: Record<Kind, number[]> = { none: [], fixed: [], 'look-back': [] };
    const rps: Record<Kind, number[]> = { none: [], fixed: [], 'look-back': [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < KINDS.length; i++) {
        const kind = KINDS[(i + round) % KINDS.length]!;
        const before = cpuMs(pingmon.server);
        const figures = await load(kind, pingmon.server.url, pingmon.apiKey, ids[kind]);
        cpu[kind].push(((cpuMs(pingmon.server) - before) * 1000) / figures.acknowledged!);
        rps[kind].push(figures.rps);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    for (const kind of KINDS) {
      const ratio = (median(cpu[kind]) / median(cpu.none)).toFixed(2);
      console.log(
        `  ${label.padEnd(11)}${kind.padEnd(11)}${median(rps[kind]).toFixed(0).padStart(6)} pings/s` +
          `${median(cpu[kind]).toFixed(0).padStart(7)} µs CPU/ping` +
          (kind === 'none' ? '' : `  (${ratio} × without rules)`),
      );
    }
  } finally {
    await pingmon.server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function logIn(url: string): Promise<string> {
  const reply = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'benchmark!' }),
  });
  return ((await reply.json()) as { token: string }).token;
}

async function addRule(url: string, token: string, monitorId: string, rule: object): Promise<void> {
  const reply = await fetch(`${url}/monitors/${monitorId}/rules`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(rule),
  });
  if (reply.status !== 201) throw new Error(`adding a rule: ${reply.status} ${await reply.text()}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await rulesBench(process.env.PINGMON_BENCH_DATABASE_URL ?? process.env.PINGMON_TEST_DATABASE_URL);
}
