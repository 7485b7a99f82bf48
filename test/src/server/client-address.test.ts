import type { Request } from '@hapi/hapi';
import t from 'tap';
import { ConfigError, loadConfig } from '@pingmon/server';
import { clientAddressOf } from '@pingmon/server/internal';
import { createTestDatabase } from '../helpers/databases.js';
import { finished, pingmon, spawnCli, waitForLine } from '../helpers/cli.js';
import { request } from '../helpers/http.js';

const LISTENING = /pingmon server listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1)\n/;

/** What clientAddressOf reads of a request: the peer's address and the headers. */
function from(remoteAddress: string, forwardedFor?: string): Request {
  const headers = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  return { info: { remoteAddress }, headers } as unknown as Request;
}

t.test('the client address: the peer, or behind trusted proxies the last address they did not add', async (t) => {
  const cases: Array<[string[], Request, string, string]> = [
    [[], from('127.0.0.1', '203.0.113.9'), '127.0.0.1', 'no trusted proxy: the header is ignored'],
    [['127.0.0.1'], from('127.0.0.1'), '127.0.0.1', 'a trusted peer without the header'],
    [['127.0.0.1'], from('127.0.0.1', '203.0.113.9'), '203.0.113.9', 'one proxy'],
    [['127.0.0.1'], from('198.51.100.7', '203.0.113.9'), '198.51.100.7', 'a peer that is not a proxy'],
    [['127.0.0.1'], from('127.0.0.1', '1.2.3.4, 203.0.113.9'), '203.0.113.9', 'what the client wrote is passed over'],
    [['127.0.0.1', '10.0.0.0/8'], from('127.0.0.1', '203.0.113.9, 10.1.2.3'), '203.0.113.9', 'a chain of proxies'],
    [['127.0.0.1', '10.0.0.0/8'], from('127.0.0.1', '10.1.2.3'), '10.1.2.3', 'only proxies: the first of them'],
    [['127.0.0.1'], from('127.0.0.1', 'unknown'), '127.0.0.1', 'an entry that is not an address'],
    [['127.0.0.1'], from('127.0.0.1', '203.0.113.9:5555'), '127.0.0.1', 'an address with a port is not believed'],
    [['127.0.0.1'], from('::ffff:127.0.0.1', '2001:db8::1'), '2001:db8::1', 'an IPv4 proxy on an IPv6 socket'],
    [['::1'], from('::1', ' 2001:db8::1 '), '2001:db8::1', 'IPv6, spaces around'],
    [['127.0.0.1'], from('127.0.0.1', ''), '127.0.0.1', 'an empty header'],
  ];
  for (const [trusted, req, expected, what] of cases) t.equal(clientAddressOf(trusted)(req), expected, what);
});

t.test('PINGMON_TRUSTED_PROXIES takes addresses and CIDR ranges, and refuses anything else', async (t) => {
  t.same(loadConfig({}).trustedProxies, []);
  t.same(loadConfig({ PINGMON_TRUSTED_PROXIES: '127.0.0.1, ::1,10.0.0.0/8' }).trustedProxies, [
    '127.0.0.1',
    '::1',
    '10.0.0.0/8',
  ]);
  t.throws(
    () => loadConfig({ PINGMON_TRUSTED_PROXIES: '127.0.0.1,proxy.local' }),
    new ConfigError(
      'PINGMON_TRUSTED_PROXIES must be IP addresses or CIDR ranges separated by commas, e.g. ' +
        '"127.0.0.1,10.0.0.0/8" (got "127.0.0.1,proxy.local")',
    ),
  );
  // joi's ip() also takes IPvFuture ("v1.abc"), which no socket address is: refused here, not at start-up.
  t.throws(
    () => loadConfig({ PINGMON_TRUSTED_PROXIES: 'v1.abc' }),
    new ConfigError(
      'PINGMON_TRUSTED_PROXIES must be IP addresses or CIDR ranges separated by commas, e.g. ' +
        '"127.0.0.1,10.0.0.0/8" (got "v1.abc")',
    ),
  );
});

t.test('behind a trusted proxy, the request log and login throttling see the client address', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.drop());
  const email = 'ops@example.com';
  const created = await pingmon(['admin', 'create-account', '--email', email, '--password', 'hunter2hunter2'], db.env);
  t.equal(created.code, 0, created.stderr);
  // At debug, a line per request (at info only a 5xx or slow request has one, since issue 33).
  const child = spawnCli(['server', '--port', '0', '--host', '127.0.0.1'], {
    ...db.env,
    PINGMON_TRUSTED_PROXIES: '127.0.0.1',
    PINGMON_LOG_LEVEL: 'debug',
  });
  const exited = finished(child);
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const [, url] = await waitForLine(child, LISTENING);
  const login = (client: string) =>
    request(`${url}/auth/login`, {
      body: { email, password: 'wrong password' },
      headers: { 'x-forwarded-for': `198.51.100.1, ${client}` },
    });
  for (let i = 0; i < 5; i++) t.equal((await login('203.0.113.9')).status, 401);
  t.equal((await login('203.0.113.9')).status, 429, 'the sixth failure from one client is throttled');
  t.equal((await login('203.0.113.10')).status, 401, 'another client behind the same proxy is not');
  child.kill('SIGTERM');
  const result = await exited;
  t.equal(result.code, 0, result.stderr);
  const messages = result.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line).msg as string);
  t.same(
    messages.map((msg) => msg.replace(/ \d+ms /, ' ')),
    [
      ...Array.from({ length: 5 }, () => 'POST /api/v1/auth/login 401 203.0.113.9'),
      'POST /api/v1/auth/login 429 203.0.113.9',
      'POST /api/v1/auth/login 401 203.0.113.10',
    ],
  );
});
