import { Agent, request as httpRequest } from 'node:http';
/**
 * A reply's body is, by default, whatever the test reads from it: the assertions check its shape.
 * (`unknown` would need a cast at each of hundreds of reads.)
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyBody = any;

export interface Reply<T = AnyBody> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string or Buffer as it is. */
  body?: unknown;
  token?: string;
  apiKey?: string;
  /** 'manual': a redirect is the reply, not followed. */
  redirect?: 'follow' | 'manual';
}

/** One real HTTP request; the reply's body parsed as JSON when it is JSON. */
export async function request<T = AnyBody>(url: string, options: RequestOptions = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined;
  if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  const method = options.method ?? (body === undefined ? 'GET' : 'POST');
  const response = await fetch(url, { method, headers, body, redirect: options.redirect });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/**
 * A keep-alive client for tests that send thousands of requests: node:http makes far fewer promises and
 * streams per request than fetch, which under tap's async hooks cost more than the server's own work.
 */
export class KeepAliveClient {
  private readonly agent: Agent;

  constructor(maxSockets: number) {
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  /** One real HTTP request, as `request` sends it; the reply's status and text. */
  send(url: string, options: RequestOptions = {}): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { ...options.headers };
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.apiKey) headers['x-api-key'] = options.apiKey;
    const method = options.method ?? (body === undefined ? 'GET' : 'POST');
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, { method, headers, agent: this.agent }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
