import autocannon from 'autocannon';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
export const WARMUP_SECONDS = 2;
/** The success ping every load sends. */
export const BODY = JSON.stringify({ meta: { rowsProcessed: 42 } });

export interface Figures {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** 2xx answers, warm-up included: what the database must hold afterwards. */
  acknowledged?: number;
}

/** `POST /ping/:id/success` spread over `monitorIds` in turn. */
export async function load(label: string, url: string, apiKey: string, monitorIds: string[]): Promise<Figures> {
  let next = 0;
  const options = {
    url: `${url}/ping/${monitorIds[0]}/success`,
    method: 'POST' as const,
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: BODY,
    connections: CONNECTIONS,
  };
  // Several monitors: each request names the next one. (One: autocannon sends the same request, as for the bare route.)
  if (monitorIds.length > 1) {
    Object.assign(options, {
      requests: [
        {
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            path: `${new URL(url).pathname}/ping/${monitorIds[next++ % monitorIds.length]}/success`,
          }),
        },
      ],
    });
  }
  // Every server gets the same warm-up, so that none is measured while the JIT is still compiling.
  const warmup = await autocannon({ ...options, duration: WARMUP_SECONDS });
  const result = await autocannon({ ...options, duration: SECONDS });
  return {
    label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    acknowledged: warmup['2xx'] + result['2xx'],
  };
}

/** One table: each row's pings/s, latencies, errors, and its ratio to `against` (the row it names, or `base`). */
export function print(rows: Figures[], base: Figures, against = new Map<Figures, Figures>()): void {
  console.log(
    `\nPOST /ping/:id/success, ${CONNECTIONS} connections, ${SECONDS} s each after ${WARMUP_SECONDS} s of warm-up`,
  );
  console.log(
    'target'.padEnd(30) +
      'pings/s'.padStart(10) +
      'p50 ms'.padStart(9) +
      'p99 ms'.padStart(9) +
      'errors'.padStart(8) +
      '  ratio',
  );
  for (const r of [base, ...rows]) {
    const to = against.get(r) ?? base;
    const ratio = r === base || r === to ? '' : `  ${(r.rps / to.rps).toFixed(2)} × ${to.label.trim()}`;
    console.log(
      r.label.padEnd(30) +
        r.rps.toFixed(0).padStart(10) +
        String(r.p50).padStart(9) +
        String(r.p99).padStart(9) +
        String(r.errors).padStart(8) +
        ratio,
    );
  }
}
