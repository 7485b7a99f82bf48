import { connect } from 'node:net';
import t from 'tap';
import { createTestDatabase } from '../helpers/databases.js';
import { createAccountCli, finished, spawnCli, waitForLine } from '../helpers/cli.js';
import { request } from '../helpers/http.js';
import type { AnyBody } from '../helpers/http.js';

const LISTENING = /pingmon server listening on (http:\/\/127\.0\.0\.1:(\d+)\/api\/v1)\n/;
const PASSWORD = 'secret-password-7f3a9c';

/** Sends bytes on a fresh connection and reads everything the server writes until it closes. */
function raw(port: number, bytes: string): Promise<{ status: number; body: AnyBody; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString();
      const [head = '', body = ''] = text.split('\r\n\r\n');
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = undefined;
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0), body: parsed, text });
    });
    socket.end(bytes);
  });
}

t.test('requests the HTTP parser refuses get the error shape, and no secret reaches the log', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.drop());
  const created = await createAccountCli(db.env, { password: PASSWORD });
  const child = spawnCli(['server', '--port', '0', '--host', '127.0.0.1'], { ...db.env, PINGMON_LOG_LEVEL: 'info' });
  const exited = finished(child);
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const [, url, portText] = await waitForLine(child, LISTENING);
  const port = Number(portText);
  const login = await request(`${url}/auth/login`, { body: { email: 'ops@example.com', password: PASSWORD } });
  const token: string = login.body.token;
  const apiKey: string = created.apiKey;
  const monitor = await request(`${url}/monitors`, { token, body: { name: 'secrets' } });
  const path = `/api/v1/ping/${monitor.body.monitorId}/start`;
  const secrets = [apiKey, token, PASSWORD];

  const cases: { name: string; bytes: string; status: number; code: string }[] = [
    {
      name: 'a header line without a colon',
      status: 400,
      code: 'malformed_request',
      bytes: `POST ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${apiKey}\r\nBad Header Line\r\n\r\n`,
    },
    {
      name: 'Content-Length with Transfer-Encoding',
      status: 400,
      code: 'malformed_request',
      bytes:
        `POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\n` +
        `Content-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\n{"email":"ops@example.com","password":"${PASSWORD}"}`,
    },
    {
      name: 'a garbage request line',
      status: 400,
      code: 'malformed_request',
      bytes: `\x01\x02 nonsense ${PASSWORD}\r\nX-API-Key: ${apiKey}\r\n\r\n`,
    },
    {
      name: 'a 60 KB header',
      status: 431,
      code: 'headers_too_large',
      bytes: `POST ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${apiKey}\r\nX-Filler: ${'a'.repeat(60 * 1024)}\r\n\r\n`,
    },
    {
      name: 'a URL over 16 KB',
      status: 431,
      code: 'headers_too_large',
      bytes: `GET /api/v1/me?${'q'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`,
    },
  ];
  for (const c of cases) {
    const reply = await raw(port, c.bytes);
    t.equal(reply.status, c.status, `${c.name}: status`);
    t.match(
      reply.body,
      { success: false, statusCode: c.status, code: c.code, message: String },
      `${c.name}: error shape`,
    );
  }
  // A broken chunked body of a request already in progress is answered through that request.
  const broken = await raw(
    port,
    `POST ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${apiKey}\r\nContent-Type: text/plain\r\n` +
      `Transfer-Encoding: chunked\r\n\r\nzz\r\n${PASSWORD}\r\n0\r\n\r\n`,
  );
  t.equal(broken.status, 400, 'a broken chunked body: status');
  t.match(broken.body, { success: false, statusCode: 400, code: 'bad_request' }, 'a broken chunked body: error shape');

  // Well-formed requests carry the same secrets; none of them may be logged either.
  t.equal(
    (await request(`${url}/ping/${monitor.body.monitorId}/fail`, { apiKey, body: { errorMessage: PASSWORD } })).status,
    200,
  );
  t.equal((await request(`${url}/me`, { token })).status, 200);
  t.equal(
    (await request(`${url}/auth/login`, { body: { email: 'ops@example.com', password: `${PASSWORD}-wrong` } })).status,
    401,
  );
  t.equal((await request(`${url}/me?token=${token}`, { token: `${token}x` })).status, 401);

  child.kill('SIGTERM');
  const result = await exited;
  const log = result.stdout + result.stderr;
  t.match(log, /malformed HTTP request from 127\.0\.0\.1: HPE_/, 'each refused request is logged by its fault');
  t.notMatch(log, /rawPacket/, 'no raw request bytes are logged');
  for (const secret of secrets) {
    // As text, and as the byte list or base64 a logged Buffer turns into.
    const forms = [secret, Buffer.from(secret).join(','), Buffer.from(secret).toString('base64')];
    for (const form of forms)
      t.notOk(log.includes(form), `the log never holds ${secret.slice(0, 6)}… (${form.slice(0, 12)}…)`);
  }
});
