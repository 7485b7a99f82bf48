import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface Teardown {
  teardown(fn: () => unknown): void;
}

/**
 * A real local HTTP server that records every request and answers with `reply`. `port` listens on a given
 * port (to come back where a stopped receiver was); `close()` stops it early, dropping held requests.
 */
export async function startReceiver(
  t: Teardown,
  reply: (req: Received, n: number, res: ServerResponse) => void,
  options: { port?: number } = {},
) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      const entry = { method: req.method!, url: req.url!, headers: req.headers, body };
      received.push(entry);
      reply(entry, received.length, res);
    });
  });
  const { port, close } = await listenLocally(t, server, options.port);
  return { url: `http://127.0.0.1:${port}`, port, received, close };
}

/**
 * Listens on 127.0.0.1 (`port` 0: any free port) until the test ends; `close()` stops it early, dropping the
 * connections still open, and may be called again.
 */
export async function listenLocally(t: Teardown, server: Server, port = 0) {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }));
  t.teardown(close);
  return { port: (server.address() as AddressInfo).port, close };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** An address where nothing listens, and nothing will while the test runs (see `closedPort`). */
export async function deadUrl(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}`;
}

/**
 * A port on 127.0.0.1 where nothing listens, and nothing will unless a test listens on it by number. Not a
 * port that was just free: the kernel gives such a port to the next listener on port 0, and the tests
 * running beside (tap's other jobs, other checkouts) open hundreds of those. It is taken below the range
 * the kernel picks port-0 listeners and outgoing connections from, and checked closed.
 */
export async function closedPort(): Promise<number> {
  const below = ephemeralRangeStart();
  for (let tries = 0; tries < 100; tries++) {
    // The upper half below the range: clear of the well-known ports a service may still open.
    const port = Math.floor(below / 2 + Math.random() * (below / 2));
    if (await refused(port)) return port;
  }
  throw new Error(`no closed port found below ${below}`);
}

/** The first port of the kernel's ephemeral range (Linux); IANA's 49152 elsewhere. */
function ephemeralRangeStart(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return low >= 2_048 ? low : 49_152;
  } catch {
    return 49_152;
  }
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}
