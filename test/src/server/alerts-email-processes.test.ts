import type { ChildProcess } from 'node:child_process';
import t from 'tap';
import { createAccountCli, spawnCli, waitForLine } from '../helpers/cli.js';
import { DATABASE_KINDS, createTestDatabase } from '../helpers/databases.js';
import type { TestDatabase } from '../helpers/databases.js';
import { request } from '../helpers/http.js';
import { closedPort } from '../helpers/receiver.js';
import { startSmtp } from '../helpers/smtp.js';
import { waitFor } from '../helpers/wait.js';

// Real `pingmon server` processes sending e-mail: killed for real, restarted on the same database.

const LISTENING = /pingmon server listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1)\n/;
const ALERT_ENV = {
  PINGMON_ALERT_TIMEOUT: '1',
  PINGMON_ALERT_RETRY_BASE: '0.2',
  PINGMON_LOG_LEVEL: 'silent',
  PINGMON_SMTP_FROM: 'pingmon <alerts@example.com>',
};

interface Teardown {
  teardown(fn: () => unknown): void;
}

interface Running {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

async function startServer(t: Teardown, db: TestDatabase, env: Record<string, string>): Promise<Running> {
  const child = spawnCli(['server', '--port', '0', '--host', '127.0.0.1'], { ...db.env, ...ALERT_ENV, ...env });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  const [, url] = await waitForLine(child, LISTENING);
  return { child, url: url!, exited };
}

/** An account, logged in, with a monitor and an e-mail channel to ops@example.com. */
async function setUp(db: TestDatabase, url: string) {
  const email = `ops-${Math.random().toString(36).slice(2)}@example.com`;
  const { apiKey } = await createAccountCli(db.env, { email });
  const { token } = (await request(`${url}/auth/login`, { body: { email, password: 'hunter2hunter2' } })).body;
  const monitorId = (await request(`${url}/monitors`, { token, body: { name: 'backup' } })).body.monitorId;
  const channel = await request(`${url}/channels`, {
    token,
    body: { type: 'email', url: 'mailto:ops@example.com' },
  });
  if (channel.status !== 201) throw new Error(`creating the channel failed: ${channel.text}`);
  const deliveriesOf = async (serverUrl: string) =>
    (await request(`${serverUrl}/alerts?monitorId=${monitorId}`, { token })).body.alerts.map(
      (a: { deliveries: unknown[] }) => a.deliveries[0],
    );
  const fail = (serverUrl: string, errorMessage: string) =>
    request(`${serverUrl}/ping/${monitorId}/fail`, { apiKey, body: { errorMessage, logOutput: 'tail of the log' } });
  return { deliveriesOf, fail };
}

for (const kind of DATABASE_KINDS) {
  t.test(`e-mail alerts on ${kind} survive a killed server while the SMTP server is down`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.drop());
    const port = await closedPort();
    const env = { PINGMON_SMTP_URL: `smtp://127.0.0.1:${port}` };
    const first = await startServer(t, db, env);
    const { deliveriesOf, fail } = await setUp(db, first.url);
    t.equal((await fail(first.url, 'disk full')).status, 200);
    const [tried] = await waitFor(
      async () => {
        const deliveries = await deliveriesOf(first.url);
        return deliveries[0]?.attempts.length > 0 && deliveries;
      },
      { what: 'a first attempt' },
    );
    t.match(tried, { state: 'pending', attempts: [{ statusCode: null, error: /ECONNREFUSED/ }] });
    first.child.kill('SIGKILL');
    await first.exited;

    const smtp = await startSmtp(t, { port });
    const second = await startServer(t, db, env);
    const mail = await waitFor(() => smtp.received[0], { what: 'the mail, after the restart' });
    t.equal(mail.subject, '[pingmon] backup failed');
    t.match(mail.text, 'disk full');
    t.match(mail.html, '>tail of the log</pre>');
    const [delivered] = await waitFor(
      async () => {
        const deliveries = await deliveriesOf(second.url);
        return deliveries[0]?.state === 'delivered' && deliveries;
      },
      { what: 'the delivery recorded' },
    );
    t.match(delivered.attempts.at(-1), { statusCode: null, error: null });
    t.ok(
      delivered.attempts.slice(0, -1).every((a: { error: string }) => /ECONNREFUSED/.test(a.error)),
      'the attempts before were refused',
    );
    t.equal(smtp.received.length, 1, 'delivered once');
  });

  t.test(
    `a server on ${kind} stopped twice during an e-mail attempt gives it back, and the next start sends it`,
    async (t) => {
      const db = await createTestDatabase(kind);
      t.teardown(() => db.drop());
      // The first message is held unanswered; later ones are accepted.
      const smtp = await startSmtp(t, { refuseData: (_to, n) => (n === 1 ? 'hold' : undefined) });
      const env = { PINGMON_SMTP_URL: smtp.url, PINGMON_ALERT_TIMEOUT: '30' };
      const server = await startServer(t, db, env);
      const { deliveriesOf, fail } = await setUp(db, server.url);
      await fail(server.url, 'first');
      await waitFor(() => smtp.dataCommands() === 1, { what: 'the attempt in flight' });
      let stderr = '';
      server.child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      server.child.kill('SIGTERM');
      await waitFor(() => /stopping after 1 alert delivery attempt\(s\) in flight/.test(stderr), {
        what: 'the stop message',
      });
      server.child.kill('SIGTERM');
      t.equal(await server.exited, 0, 'a second signal stops it without waiting for the SMTP server');

      const next = await startServer(t, db, env);
      const delivered = await waitFor(
        async () => {
          const deliveries = await deliveriesOf(next.url);
          return deliveries[0]?.state === 'delivered' && deliveries;
        },
        { what: 'the given-back attempt made by the next start' },
      );
      t.equal(delivered[0].attempts.length, 1, 'the abandoned attempt left no result');
      t.equal(smtp.received.length, 1);
      t.match(smtp.received[0]!.text, 'first');
    },
  );
}
