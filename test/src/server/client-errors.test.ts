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

  // A fault in a pipelined request: the request before it is answered as it deserves, then the fault, then the close.
  const good = `GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n`;
  for (const [name, bad] of [
    ['a header line without a colon', `GET /api/v1/me HTTP/1.1\r\nHost: x\r\nBad Header Line ${PASSWORD}\r\n\r\n`],
    ['a garbage request line', `\x01\x02 nonsense ${PASSWORD}\r\n\r\n`],
  ]) {
    const replies = (await raw(port, good + bad)).text.split(/(?=HTTP\/1\.1 \d{3} )/);
    t.equal(replies.length, 2, `pipelined ${name}: two answers`);
    t.match(replies[0], /^HTTP\/1\.1 200 [^]*"status":"ok"/, `pipelined ${name}: the good request is answered 200`);
    t.match(replies[1], /^HTTP\/1\.1 400 [^]*\r\nConnection: close\r\n/i, `pipelined ${name}: then a 400, closing`);
    t.match(replies[1], /\r\n\r\n\{"success":false,"statusCode":400,[^]*"code":"malformed_request"/, `${name}: shape`);
  }

  // Node answers an Expect it cannot meet with a bare 417; it gets the error shape too.
  const expect = await raw(
    port,
    `POST ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${apiKey}\r\nExpect: 100-banana\r\nContent-Length: 0\r\n\r\n`,
  );
  t.equal(expect.status, 417, 'Expect: 100-banana: status');
  t.match(
    expect.body,
    {
      success: false,
      statusCode: 417,
      error: 'Expectation Failed',
      code: 'expectation_failed',
      message: /100-continue/,
    },
    'Expect: 100-banana: error shape',
  );

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
  // Each fault once, at info level with the peer: a broken body and pipelined faults were logged by hapi at error
  // level, without the peer.
  const lines = log.split('\n').filter((line) => line.startsWith('{'));
  const faults = lines.filter((line) => /HPE_|Expect/.test(line));
  for (const code of ['HPE_INVALID_CHUNK_SIZE', 'HPE_INVALID_HEADER_TOKEN', 'HPE_INVALID_METHOD'])
    t.ok(
      faults.some((line) => line.includes(code)),
      `${code} is logged`,
    );
  t.match(log, /refused request from 127\.0\.0\.1: an Expect header other than 100-continue/);
  for (const line of faults)
    t.match(JSON.parse(line), { level: 30, data: /from 127\.0\.0\.1: / }, `logged at info with the peer: ${line}`);
  t.notMatch(log, /rawPacket/, 'no raw request bytes are logged');
  for (const secret of secrets) {
    // As text, and as the byte list or base64 a logged Buffer turns into.
    const forms = [secret, Buffer.from(secret).join(','), Buffer.from(secret).toString('base64')];
    for (const form of forms)
      t.notOk(log.includes(form), `the log never holds ${secret.slice(0, 6)}… (${form.slice(0, 12)}…)`);
  }
});
