import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { createClient } from '@pingmon/sdk';
import type { LoginResponse } from '@pingmon/sdk';

/** How long `pingmon login --browser` waits for the browser. */
export const BROWSER_WAIT_MS = 5 * 60_000;

/**
 * Signs in through the dashboard (docs/cli.md#pingmon-login): listens on 127.0.0.1, has the user open
 * /cli-sign-in with its PKCE challenge, and trades the code the page hands back, with the verifier, for a token.
 */
export async function browserLogin(baseUrl: string, log: (line: string) => void): Promise<LoginResponse> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(16).toString('base64url');
  const device = `pingmon CLI on ${hostname()}`;
  const client = createClient({ baseUrl });
  const listener = createServer();
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(0, '127.0.0.1', resolve);
  });
  const { port } = listener.address() as AddressInfo;
  // Relative to the server's address, which may have a path of its own (behind a proxy).
  const page = new URL('cli-sign-in', baseUrl.replace(/\/*$/, '/'));
  page.search = new URLSearchParams({ port: String(port), challenge, state, device }).toString();
  log('Open this address in a browser on this computer, sign in and choose Allow:');
  log(`  ${page.href}`);
  log('Waiting for the browser (5 minutes at most; Ctrl-C to stop)…');
  try {
    return await new Promise<LoginResponse>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error('no sign-in came from the browser within 5 minutes: run `pingmon login --browser` again')),
        BROWSER_WAIT_MS,
      );
      listener.on('request', (request, response) => {
        const url = new URL(request.url ?? '/', 'http://127.0.0.1');
        // Anything but the sign-in this command started (another page's request, a stale tab) is turned away.
        if (url.pathname !== '/callback' || url.searchParams.get('state') !== state)
          return answer(response, 400, 'This is not the sign-in pingmon login is waiting for. Close this tab.');
        client.exchangeCliCode({ code: url.searchParams.get('code') ?? '', verifier, device }).then(
          (login) => {
            clearTimeout(timer);
            answer(response, 200, `Signed in as ${login.user.email}. Close this tab and go back to the terminal.`);
            resolve(login);
          },
          (err: unknown) => {
            clearTimeout(timer);
            answer(response, 502, `Not signed in: ${(err as Error).message}`);
            reject(err as Error);
          },
        );
      });
    });
  } finally {
    listener.close();
    listener.closeAllConnections();
  }
}

function answer(response: ServerResponse, status: number, text: string): void {
  const escaped = text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  response
    .writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    .end(`<!doctype html><meta charset="utf-8"><title>pingmon</title><p>${escaped}</p>`);
}
