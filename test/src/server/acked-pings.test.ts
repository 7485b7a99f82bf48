import { connect } from 'node:net';
import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { request } from '../helpers/http.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

// Every ping the server counts as answered 200 is stored, under load as a load generator makes it: rounds of
// concurrent pings, each round ending with connections cut mid-request (as wrk does when its time is up). Each
// ping here makes a row of its own: a start without runId opens a run, a success or fail without runId on a
// monitor with no open run creates a finished one, and each distinct runId creates its run. So, per kind:
// answers the clients got ≤ 200s the server counts ≤ rows stored ≤ pings sent. The server's count is the
// latency histogram's, by the status it reports, the request log's too (sent-status.ts).

const KINDS = ['start', 'success', 'fail'] as const;
type Kind = (typeof KINDS)[number];
const ROUNDS = 4;
/** Concurrent requests per monitor (6 monitors: 30 in flight). */
const WORKERS = 5;
const PINGS_PER_WORKER = 3;
/** Requests per monitor and round whose connection is cut once they are sent. */
const CUT = 2;

interface Case {
  kind: Kind;
  withRunId: boolean;
  monitorId: string;
  ok: number;
  cut: number;
  refused: string[];
}

/** A ping sent whole on a connection closed at once, before any answer can come back. */
function cutPing(port: number, path: string, apiKey: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: ${apiKey}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        (err) => {
          socket.destroy();
          if (err) reject(err);
          else resolve();
        },
      );
    });
    socket.on('error', reject);
  });
}

/** The latency histogram's request counts of a ping route, by the status the server reports. */
async function countsByStatus(api: TestServer, kind: Kind): Promise<Map<string, number>> {
  const reply = await request(`${api.server.info.uri}/metrics`);
  const counts = new Map<string, number>();
  for (const line of reply.text.split('\n')) {
    if (!line.startsWith('pingmon_http_request_duration_seconds_count{')) continue;
    if (!line.includes(`route="/api/v1/ping/{monitorId}/${kind}"`)) continue;
    const status = /status_code="(\d+)"/.exec(line)![1]!;
    counts.set(status, Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return counts;
}

async function round(api: TestServer, account: TestAccount, cases: Case[], r: number): Promise<void> {
  const port = Number(api.server.info.port);
  const body = (c: Case, n: string) => (c.withRunId ? { runId: `acked-${c.kind}-${r}-${n}` } : {});
  const worker = async (c: Case, w: number) => {
    for (let p = 0; p < PINGS_PER_WORKER; p++) {
      const reply = await api.ping(account, c.monitorId, c.kind, body(c, `${w}-${p}`));
      if (reply.status === 200) c.ok++;
      else c.refused.push(`${reply.status} ${reply.text}`);
    }
  };
  const cuts = (c: Case) =>
    Array.from({ length: CUT }, (_, i) => {
      c.cut++;
      const path = `/api/v1/ping/${c.monitorId}/${c.kind}`;
      return cutPing(port, path, account.apiKey, JSON.stringify(body(c, `cut-${i}`)));
    });
  await Promise.all(cases.flatMap((c) => [...Array.from({ length: WORKERS }, (_, w) => worker(c, w)), ...cuts(c)]));
}

for (const db of DATABASE_KINDS) {
  t.test(`every ping counted as answered 200 is stored, on ${db}`, async (t) => {
    // No API key cache: every ping's key is checked in the database, and a connection cut meanwhile ends the ping
    // before it is recorded (on PostgreSQL, where that check waits for the database's answer).
    const api = await TestServer.start(t, db, { metrics: true, apiKeyCacheMs: 0 });
    const account = await api.account('unlimited');
    const cases: Case[] = [];
    for (const kind of KINDS) {
      for (const withRunId of [false, true]) {
        const monitorId = await api.monitor(account, `${kind} ${withRunId ? 'with' : 'without'} runId`);
        cases.push({ kind, withRunId, monitorId, ok: 0, cut: 0, refused: [] });
      }
    }
    for (let r = 0; r < ROUNDS; r++) await round(api, account, cases, r);
    t.same(
      cases.flatMap((c) => c.refused),
      [],
      'every ping answered by a response was answered 200',
    );
    // The histogram counts a request once the server is done with it: the cut ones may still be under way.
    const counts = new Map<Kind, Map<string, number>>();
    for (const kind of KINDS) {
      const sent = cases.filter((c) => c.kind === kind).reduce((n, c) => n + c.ok + c.cut, 0);
      const done = async () => {
        const byStatus = await countsByStatus(api, kind);
        return [...byStatus.values()].reduce((a, b) => a + b, 0) === sent ? byStatus : undefined;
      };
      counts.set(kind, await waitFor(done, { what: `the server to finish all ${sent} ${kind} pings`, show: () => '' }));
    }
    const rows = await api.query((knex) => knex('runs').select('monitor_id'));
    for (const kind of KINDS) {
      const mine = cases.filter((c) => c.kind === kind);
      const sum = (f: (c: Case) => number) => mine.reduce((n, c) => n + f(c), 0);
      const [received, sent] = [sum((c) => c.ok), sum((c) => c.ok + c.cut)];
      const stored = rows.filter((row) => mine.some((c) => c.monitorId === row.monitor_id)).length;
      const byStatus = counts.get(kind)!;
      const counted = byStatus.get('200') ?? 0;
      t.same(
        [...byStatus.keys()].filter((s) => s !== '200' && s !== '499'),
        [],
        `${kind}: no status but 200 and 499`,
      );
      t.ok(received <= counted, `${kind}: ${received} answers received, ${counted} counted as answered 200`);
      t.ok(counted <= stored, `${kind}: ${counted} counted as answered 200, ${stored} stored`);
      t.ok(stored <= sent, `${kind}: ${stored} stored of ${sent} sent`);
    }
  });
}
