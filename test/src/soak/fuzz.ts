import { Agent, request } from 'node:http';

// The fuzz of the standing fault suite: requests made from a seeded generator over every endpoint, with valid
// and broken ids, credentials, bodies and content types. Every answer must be below 500 and, under /api, every
// error must be in the error shape (DESIGN §4). Channel URLs are only ever loopback or not URLs at all (the IPv6
// forms that hide an IPv4 address are probe.ts's, on a server that refuses them: here they could leave the host).

export interface FuzzTarget {
  url: string;
  apiKey: string;
  token: string;
  monitorIds: string[];
  runIds: string[];
}

export interface FuzzFigures {
  requests: number;
  seconds: number;
  statuses: Record<number, number>;
  /** Answers of 500 or more, and errors not in the shape, with the request that got them (first 20). */
  failures: Array<{ request: string; status: number; body: string }>;
  failureCount: number;
}

/** mulberry32: a small seeded generator, so that a failing request can be made again from its seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const ROUTES = [
  'POST /ping/{monitor}/start',
  'POST /ping/{monitor}/success',
  'POST /ping/{monitor}/fail',
  'GET /health',
  'POST /auth/login',
  'POST /auth/session',
  'DELETE /auth/session',
  'GET /me',
  'GET /monitors',
  'POST /monitors',
  'GET /monitors/{monitor}',
  'PATCH /monitors/{monitor}',
  'DELETE /monitors/{monitor}',
  'GET /monitors/{monitor}/expected',
  'GET /monitors/{monitor}/runs',
  'GET /monitors/{monitor}/runs/{run}',
  'GET /monitors/{monitor}/runs/{run}/log',
  'GET /monitors/{monitor}/rules',
  'POST /monitors/{monitor}/rules',
  'DELETE /monitors/{monitor}/rules/{id}',
  'GET /channels',
  'POST /channels',
  'PATCH /channels/{id}',
  'DELETE /channels/{id}',
  'POST /channels/{id}/test',
  'GET /api-keys',
  'POST /api-keys',
  'DELETE /api-keys/{id}',
  'GET /alerts',
] as const;

const WEIRD = [
  '',
  '%20',
  'null',
  '%00',
  '%ZZ',
  '..%2F..%2Fetc%2Fpasswd',
  'x'.repeat(300),
  '%F0%9F%92%A5',
  '%ED%A0%80',
  "'; drop table runs; --",
  '-1',
  '1e999',
];

const VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  '',
  'x',
  'x'.repeat(5_000),
  '\u0000',
  '\ud800',
  '💥',
  [],
  {},
  { a: 1 },
  [1, 2],
  '2026-11-22T03:20:00.000Z',
  '1970-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
];

/** Fields the endpoints read, each with values that fit and values that do not. */
const FIELDS: Record<string, unknown[]> = {
  runId: ['soak-fuzz-0001', 'short', 'x'.repeat(65)],
  timestamp: [new Date().toISOString(), 'yesterday', new Date(Date.now() - 30 * 86_400_000).toISOString()],
  meta: [
    { rows: 0 },
    { rows: 'many' },
    { nested: { a: 1 } },
    Object.fromEntries([...Array(60)].map((_, i) => [i, i])),
    { deep: JSON.parse('['.repeat(1_000) + ']'.repeat(1_000)) as unknown },
  ],
  errorMessage: ['exit code 1', 'x'.repeat(1_000), 'ESC \u001b[2J OSC \u001b]0;t\u0007 C1 \u009b1m'],
  logOutput: ['log\nlines', 'y'.repeat(20_000)],
  name: ['fuzzed', '', 'n'.repeat(300), 'ESC \u001b[2J OSC \u001b]0;t\u0007 C1 \u009b1m'],
  schedule: [
    { cron: '0 3 * * *' },
    { cron: '61 * * * *' },
    { every: 60 },
    { every: -1 },
    { cron: '* * * * *', timezone: 'Mars/Base' },
  ],
  startGrace: [300, -5, 'soon'],
  maxRuntime: [60, 0, null],
  failureThreshold: [1, 0, 1_000_000],
  paused: [true, 'yes'],
  condition: ['rows == 0', 'rows >', 'durationMs > 1000', 'x'.repeat(500)],
  type: ['webhook', 'slack', 'discord', 'email', 'carrier-pigeon'],
  url: ['http://127.0.0.1:9/hook', 'http://localhost:9/x', 'not a url', 'ftp://127.0.0.1/', 'http://[::1]:9/'],
  secret: ['s3cret-s3cret', ''],
  enabled: [false, 'no'],
  monitorIds: [[], ['mon_nope'], 'mon_x'],
  email: ['soak@example.com', 'not-an-email'],
  password: ['wrong password', ''],
  limit: [1, 0, 500],
};

export async function fuzz(target: FuzzTarget, requests: number, clients: number, seed: number): Promise<FuzzFigures> {
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const figures: FuzzFigures = { requests: 0, seconds: 0, statuses: {}, failures: [], failureCount: 0 };
  const ids = () => ({
    monitor: random() < 0.6 ? pick(target.monitorIds) : random() < 0.5 ? 'mon_doesnotexist' : pick(WEIRD),
    run: random() < 0.6 ? pick(target.runIds) : pick(WEIRD),
    id: random() < 0.3 ? `x_${Math.floor(random() * 1e6)}` : pick(WEIRD),
  });
  const made = () => {
    const [method, template] = pick(ROUTES).split(' ') as [string, string];
    const id = ids();
    let path = template.replace(/\{(\w+)\}/g, (_, name: keyof typeof id) => id[name]);
    if (random() < 0.2)
      path += `?${pick(['limit', 'cursor', 'status', 'monitorId', 'history', 'count'])}=${pick(WEIRD)}`;
    const headers: Record<string, string> = {};
    const credential = random();
    if (credential < 0.35) headers['x-api-key'] = target.apiKey;
    else if (credential < 0.75) headers.authorization = `Bearer ${target.token}`;
    else if (credential < 0.85) headers.authorization = `Bearer ${pick(['x', 'a.b.c', target.apiKey, 'Bearer'])}`;
    else if (credential < 0.9) headers['x-api-key'] = pick(['pm_nope', '', 'x'.repeat(500)]);
    let body: string | undefined;
    if (method !== 'GET' && random() < 0.8) {
      const shape = random();
      if (shape < 0.6) {
        const fields = Object.keys(FIELDS).filter(() => random() < 0.3);
        body = JSON.stringify(
          Object.fromEntries(fields.map((f) => [f, random() < 0.8 ? pick(FIELDS[f]!) : pick(VALUES)])),
        );
      } else if (shape < 0.8) {
        body = JSON.stringify(pick(VALUES));
      } else {
        body = pick(['{', '{"a":', '\u0000', 'runId=x', '[1,2', '"\\ud800"', 'x'.repeat(2_000)]);
      }
      headers['content-type'] = pick([
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        'x/y;;',
        'application/json; charset=latin1',
      ]);
    }
    return { method, path: `/api/v1${path}`, headers, body };
  };
  const started = performance.now();
  let left = requests;
  const client = async () => {
    while (left-- > 0) {
      const req = made();
      const answer = await send(agent, target.url, req);
      figures.requests++;
      figures.statuses[answer.status] = (figures.statuses[answer.status] ?? 0) + 1;
      const problem = answer.status >= 500 || answer.status === 0 || (answer.status >= 400 && !inShape(answer));
      if (problem) {
        figures.failureCount++;
        if (figures.failures.length < 20) {
          const described = `${req.method} ${req.path} ${JSON.stringify(req.headers)} ${req.body?.slice(0, 200) ?? ''}`;
          figures.failures.push({ request: described, status: answer.status, body: answer.body.slice(0, 300) });
        }
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  figures.seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return figures;
}

export interface Answer {
  status: number;
  body: string;
}

/** The error shape of DESIGN §4: success false, the status again, its name, a code and a message. */
export function inShape(answer: Answer): boolean {
  try {
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    return (
      body.success === false &&
      body.statusCode === answer.status &&
      typeof body.error === 'string' &&
      typeof body.code === 'string' &&
      typeof body.message === 'string'
    );
  } catch {
    return false;
  }
}

function send(
  agent: Agent,
  url: string,
  req: { method: string; path: string; headers: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve) => {
    // Only what Node's client can send: a path it refuses to write never reaches the server.
    const headers =
      req.body === undefined ? req.headers : { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) };
    const outgoing = request(`${url}${req.path}`, { method: req.method, agent, headers, timeout: 30_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve({ status: 0, body }));
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('timeout')));
    outgoing.on('error', (err) => resolve({ status: 0, body: String(err) }));
    outgoing.end(req.body);
  });
}
