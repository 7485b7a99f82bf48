import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';

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
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }));
  t.teardown(close);
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, port, received, close };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** An address where nothing listens: a port that was just free. */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}
