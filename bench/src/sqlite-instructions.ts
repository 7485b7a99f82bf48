import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BODY } from './load.js';
import { startPingmon } from './pingmon.js';
import { BUILDS } from './processes.js';

// Instructions a SQLite success ping costs the server, counted by valgrind's callgrind: they repeat within a
// percent or two where pings/s on a shared machine does not. Not part of `npm run bench` (it needs valgrind and
// minutes): `node dist/sqlite-instructions.js`, BENCH_BUILDS as in sqlite-alternate.js, BENCH_WARMUP_PINGS pings
// first (the JIT compiles them), then BENCH_COUNTED_PINGS pings counted; BENCH_CALLGRIND_DIR keeps callgrind's files
// (`callgrind_annotate` reads them).
const WARMUP = Number(process.env.BENCH_WARMUP_PINGS ?? 6_000);
const COUNTED = Number(process.env.BENCH_COUNTED_PINGS ?? 2_000);

async function pings(url: string, apiKey: string, monitorId: string, amount: number): Promise<number> {
  const result = await autocannon({
    url: `${url}/ping/${monitorId}/success`,
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: BODY,
    connections: 10,
    amount,
  });
  return result['2xx'];
}

/** Instructions per ping of one build's server, the JIT's compiler threads included. */
async function count(cli: string): Promise<{ perPing: number; main: number; acknowledged: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'pingmon-bench-'));
  const keep = process.env.BENCH_CALLGRIND_DIR;
  try {
    const launcher = ['valgrind', '--tool=callgrind', '--instr-atstart=no', '--separate-threads=yes'];
    launcher.push(`--callgrind-out-file=${join(dir, 'callgrind.out')}`);
    const ours = await startPingmon({ PINGMON_DATA_DIR: join(dir, 'data') }, 1, 0, cli, [], launcher);
    const pid = String(ours.server.child.pid);
    const control = (option: string) => execFileSync('callgrind_control', [option, pid], { stdio: 'ignore' });
    await pings(ours.server.url, ours.apiKey, ours.monitorIds[0]!, WARMUP);
    control('--instr=on');
    const acknowledged = await pings(ours.server.url, ours.apiKey, ours.monitorIds[0]!, COUNTED);
    control('--dump');
    await ours.server.stop();
    // One file a thread, from the dump: the main thread's ends in -01.
    const totals = new Map<string, number>();
    for (const file of readdirSync(dir).filter((f) => /\.\d+-\d+$/.test(f))) {
      const found = /^(?:totals|summary): (\d+)/m.exec(readFileSync(join(dir, file), 'utf8'));
      totals.set(file.slice(-2), Number(found?.[1] ?? 0));
    }
    const all = [...totals.values()].reduce((a, b) => a + b, 0);
    return { perPing: all / acknowledged, main: totals.get('01')! / acknowledged, acknowledged };
  } finally {
    if (keep) execFileSync('cp', ['-r', dir, keep]);
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function sqliteInstructions(): Promise<void> {
  console.log(`\nSQLite success pings, server instructions per ping (${WARMUP} pings first, ${COUNTED} counted)`);
  for (const build of BUILDS) {
    const { perPing, main, acknowledged } = await count(build.cli);
    const figure = (n: number) => Math.round(n).toLocaleString('en').padStart(10);
    console.log(`${build.label.padEnd(15)}${figure(main)} main thread${figure(perPing)} all (${acknowledged} pings)`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await sqliteInstructions();
