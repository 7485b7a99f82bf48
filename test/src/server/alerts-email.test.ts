import { createServer as createTcpServer } from 'node:net';
import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { closedPort } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';
import type { ReceivedMail } from '../helpers/smtp.js';
import { startSmtp } from '../helpers/smtp.js';
import { waitFor } from '../helpers/wait.js';

const FROM = 'pingmon alerts <alerts@example.com>';

type Delivery = {
  channelId: string;
  state: string;
  attemptCount: number;
  lastError: string | null;
  attempts: object[];
};

/** Alerts of a monitor once every delivery is settled (delivered or failed). */
function settled(api: TestServer, account: TestAccount, monitorId: string, count: number) {
  return waitFor(
    async () => {
      const { alerts } = (await api.request(`/alerts?monitorId=${monitorId}`, { token: account.token })).body;
      const done =
        alerts.length === count &&
        alerts.every((a: { deliveries: Delivery[] }) => a.deliveries.every((d) => d.state !== 'pending'));
      return done && alerts;
    },
    { what: `${count} settled alerts of ${monitorId}` },
  );
}

async function addChannel(api: TestServer, account: TestAccount, body: object): Promise<string> {
  const reply = await api.request('/channels', { token: account.token, body });
  if (reply.status !== 201) throw new Error(`creating a channel failed: ${reply.text}`);
  return reply.body.channelId;
}

for (const kind of DATABASE_KINDS) {
  t.test(`e-mail alerts on ${kind}`, async (t) => {
    // Refusals by recipient, so that every test (an account and addresses of its own) shares one SMTP server.
    let busyTries = 0;
    const smtp = await startSmtp(t, {
      refuseData: (to) =>
        to.includes('busy@example.com') && ++busyTries === 1
          ? { code: 451, message: '4.3.0 Try again later' }
          : undefined,
      refuseRecipient: (address) =>
        address.startsWith('nobody@') ? { code: 550, message: '5.1.1 <nobody>: no such mailbox' } : undefined,
    });
    const api = await TestServer.start(t, kind, {
      alertPollMs: 50,
      alertRetryBaseMs: 20,
      alertTimeoutMs: 30_000,
      alertMaxAttempts: 4,
      smtpUrl: smtp.url,
      smtpFrom: FROM,
    });
    const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));
    const mailTo = (address: string): Promise<ReceivedMail> =>
      waitFor(() => mailsTo(address)[0], { what: `a mail to ${address}` });

    t.test('a fail alert mails the error message and the log, HTML-escaped in a monospace block', async (t) => {
      const alice = await api.account();
      const m = await api.monitor(alice, 'etl <prod> & co');
      const created = await api.request('/channels', {
        token: alice.token,
        body: { type: 'email', url: 'mailto:ops@example.com, oncall@example.com', name: 'ops mail' },
      });
      t.equal(created.status, 201, created.text);
      t.match(created.body, {
        type: 'email',
        name: 'ops mail',
        url: 'mailto:ops@example.com,oncall@example.com',
        hasSecret: false,
      });
      const log = 'tar: <script>alert(1)</script> & "done"\n  second line, indented\n';
      const ack = await api.ping(alice, m, 'fail', { errorMessage: 'exit code 2 <b>not bold</b>', logOutput: log });
      t.equal(ack.status, 200);
      const mail = await mailTo('ops@example.com');
      t.same(mail.to.sort(), ['oncall@example.com', 'ops@example.com'], 'one mail to both recipients');
      t.equal(mail.from, 'alerts@example.com');
      t.match(mail.headers.from, /pingmon alerts.*<alerts@example\.com>/);
      t.equal(mail.subject, '[pingmon] etl <prod> & co failed');
      t.match(mail.headers['content-type'], /^multipart\/alternative/);
      t.match(mail.text, 'etl <prod> & co failed\nexit code 2 <b>not bold</b>\nNew failure.\n');
      t.match(mail.text, `----\n${log.trimEnd()}\n----`, 'the text part has the log as written');
      t.match(mail.html, '<p><strong>etl &lt;prod&gt; &amp; co</strong> failed</p>');
      t.match(mail.html, '<p>exit code 2 &lt;b&gt;not bold&lt;/b&gt;<br>\nNew failure.</p>');
      const pre = /<pre style="([^"]*)">([\s\S]*?)<\/pre>/.exec(mail.html);
      t.ok(pre, 'the log is in a <pre> block');
      t.match(pre![1], /font-family:[^;]*monospace/);
      t.equal(
        pre![2],
        'tar: &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;done&quot;\n  second line, indented\n',
        'the log escaped, its layout kept',
      );
      t.notMatch(mail.html, '<script>', 'nothing of the log is markup');
      t.notMatch(mail.html, '<b>');

      const [alert] = await settled(api, alice, m, 1);
      t.equal(mail.headers['x-pingmon-event'], 'fail');
      t.equal(mail.headers['x-pingmon-alert-id'], alert.alertId);
      t.equal(mail.headers['x-pingmon-monitor-id'], m);
      t.equal(
        mail.headers['message-id'],
        `<${alert.alertId}.${created.body.channelId}@example.com>`,
        'the domain of From',
      );
      t.match(mail.text, `run ${ack.body.data.runId} · monitor ${m} · `);
      t.match(alert.deliveries, [
        {
          channelId: created.body.channelId,
          channelType: 'email',
          state: 'delivered',
          attemptCount: 1,
          attempts: [{ attempt: 1, statusCode: null, error: null }],
        },
      ]);
      t.equal(smtp.received.filter((r) => r.to.includes('ops@example.com')).length, 1, 'sent once');
    });

    t.test('a silent failure mails the rules it matched', async (t) => {
      const alice = await api.account();
      const m = await api.monitor(alice, 'orders export');
      await addChannel(api, alice, { type: 'email', url: 'mailto:silent@example.com' });
      for (const rule of [
        { metric: 'rowsProcessed', op: 'lt', value: 1 },
        { metric: 'durationSeconds', op: 'gt', value: 3600 },
      ])
        await api.request(`/monitors/${m}/rules`, { token: alice.token, body: rule });
      await api.ping(alice, m, 'success', { meta: { rowsProcessed: 0, durationSeconds: 4210 } });
      const mail = await mailTo('silent@example.com');
      t.equal(mail.subject, '[pingmon] orders export succeeded, but its meta matched 2 alert rules (silent failure)');
      t.match(mail.text, '• rowsProcessed < 1 (was 0)\n• durationSeconds > 3600 (was 4210)');
      t.match(mail.html, '• rowsProcessed &lt; 1 (was 0)<br>\n• durationSeconds &gt; 3600 (was 4210)');
      t.notMatch(mail.html, '<pre', 'no log block');
      t.equal(mail.headers['x-pingmon-event'], 'silent_failure');
      await settled(api, alice, m, 1);
    });

    t.test('an SMTP 451 is retried, and the mail delivered once', async (t) => {
      const alice = await api.account();
      const m = await api.monitor(alice);
      await addChannel(api, alice, { type: 'email', url: 'mailto:busy@example.com' });
      await api.ping(alice, m, 'fail', { errorMessage: 'x' });
      const [alert] = await settled(api, alice, m, 1);
      t.match(alert.deliveries[0], {
        state: 'delivered',
        attemptCount: 2,
        lastError: null,
        attempts: [
          { attempt: 1, statusCode: null, error: 'SMTP 451 4.3.0 Try again later' },
          { attempt: 2, statusCode: null, error: null },
        ],
      });
      t.equal(busyTries, 2, 'two DATA commands');
      t.equal(mailsTo('busy@example.com').length, 1, 'delivered once');
    });

    t.test('an SMTP 550 is a permanent failure: one attempt, no retry', async (t) => {
      const alice = await api.account();
      const m = await api.monitor(alice);
      await addChannel(api, alice, { type: 'email', url: 'mailto:nobody@example.com' });
      await api.ping(alice, m, 'fail', { errorMessage: 'x' });
      const [alert] = await settled(api, alice, m, 1);
      t.match(alert.deliveries[0], { state: 'failed', attemptCount: 1, lastError: /^SMTP 550 5\.1\.1 <nobody>/ });
      t.equal(alert.deliveries[0].attempts.length, 1);
    });

    t.test('refused for some recipients only: delivered to the others, the refusal said', async (t) => {
      const alice = await api.account();
      const m = await api.monitor(alice);
      await addChannel(api, alice, { type: 'email', url: 'mailto:partial@example.com,nobody@example.com' });
      await api.ping(alice, m, 'fail', { errorMessage: 'x' });
      const [alert] = await settled(api, alice, m, 1);
      t.match(alert.deliveries[0], {
        state: 'delivered',
        attemptCount: 1,
        attempts: [{ statusCode: null, error: 'not accepted for nobody@example.com' }],
      });
      t.same(
        mailsTo('partial@example.com').map((mail) => mail.to),
        [['partial@example.com']],
      );
    });

    t.test('a channel test sends a test mail and says how it went', async (t) => {
      const alice = await api.account();
      const good = await addChannel(api, alice, { type: 'email', url: 'mailto:tested@example.com', name: 'ops mail' });
      const bad = await addChannel(api, alice, { type: 'email', url: 'mailto:nobody@example.com' });
      const sent = await api.request(`/channels/${good}/test`, { method: 'POST', token: alice.token });
      t.match(sent.body, { delivered: true, statusCode: null, error: null });
      const mail = await mailTo('tested@example.com');
      t.equal(mail.subject, '[pingmon] test message');
      t.match(mail.text, 'Test message for the pingmon channel "ops mail"');
      t.equal(mail.headers['x-pingmon-event'], 'test');
      const refused = await api.request(`/channels/${bad}/test`, { method: 'POST', token: alice.token });
      t.match(refused.body, { delivered: false, statusCode: null, error: /^SMTP 550 / });
    });

    t.test('recipients are checked: a clear 400 for anything but mailto: and addresses', async (t) => {
      const alice = await api.account();
      const create = (url: unknown) => api.request('/channels', { token: alice.token, body: { type: 'email', url } });
      const cases: Array<[unknown, RegExp]> = [
        ['ops@example.com', /"url" of an email channel must be mailto: and the addresses of its recipients/],
        ['https://example.com/hook', /must be mailto:/],
        ['mailto:ops@example.com?subject=hi', /must be mailto:/],
        ['mailto:not-an-address', /"not-an-address" in "url" is not an e-mail address/],
        ['mailto:ops@example.com,', /"" in "url" is not an e-mail address/],
        ['mailto:', /"" in "url" is not an e-mail address/],
        [`mailto:${Array.from({ length: 21 }, (_, i) => `r${i}@example.com`).join(',')}`, /at most 20 recipients/],
      ];
      for (const [url, message] of cases) {
        const reply = await create(url);
        t.equal(reply.status, 400, String(url));
        t.match(reply.body, { code: 'invalid_request', message }, String(url));
      }
      const webhook = await api.request('/channels', {
        token: alice.token,
        body: { type: 'webhook', url: 'mailto:ops@example.com' },
      });
      t.match(webhook.body, { message: /"url" must be an http:\/\/ or https:\/\/ URL/ });

      const id = await addChannel(api, alice, { type: 'email', url: 'MAILTO:ops@example.com' });
      const patch = (body: object) => api.request(`/channels/${id}`, { method: 'PATCH', token: alice.token, body });
      const toHttp = await patch({ url: 'https://example.com/hook' });
      t.equal(toHttp.status, 400);
      t.match(toHttp.body.message, /must be mailto:/);
      const changed = await patch({ url: 'mailto:new@example.com , other@example.com' });
      t.equal(changed.status, 200, changed.text);
      t.equal(changed.body.url, 'mailto:new@example.com,other@example.com');
      t.match((await patch({ secret: 'whsec_0123456789' })).body, { code: 'secret_not_supported' });
      const listed = (await api.request('/channels', { token: alice.token })).body.channels;
      t.same(
        listed.map((c: { url: string }) => c.url),
        ['mailto:new@example.com,other@example.com'],
        'listed whole, nothing created by the refused requests',
      );
    });
  });
}

t.test('a server without SMTP settings refuses e-mail channels, saying which settings', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const alice = await api.account();
  const reply = await api.request('/channels', {
    token: alice.token,
    body: { type: 'email', url: 'mailto:ops@example.com' },
  });
  t.equal(reply.status, 400);
  t.match(reply.body, {
    code: 'smtp_not_configured',
    message: /this pingmon server has none: its operator sets PINGMON_SMTP_URL and PINGMON_SMTP_FROM/,
  });
  t.same((await api.request('/channels', { token: alice.token })).body.channels, []);
});

t.test('SMTP down: the attempt fails and is retried, and delivered once the SMTP server is back', async (t) => {
  const port = await closedPort();
  const api = await TestServer.start(t, 'sqlite', {
    alertPollMs: 50,
    alertRetryBaseMs: 200,
    alertTimeoutMs: 30_000,
    alertMaxAttempts: 8,
    smtpUrl: `smtp://127.0.0.1:${port}`,
    smtpFrom: 'alerts@example.com',
  });
  const alice = await api.account();
  const m = await api.monitor(alice);
  await addChannel(api, alice, { type: 'email', url: 'mailto:ops@example.com' });
  await api.ping(alice, m, 'fail', { errorMessage: 'disk full' });
  const alertsOf = async () => (await api.request(`/alerts?monitorId=${m}`, { token: alice.token })).body.alerts;
  const [tried] = await waitFor(async () => {
    const alerts = await alertsOf();
    return alerts[0]?.deliveries[0]?.attempts.length > 0 && alerts;
  });
  t.match(tried.deliveries[0], {
    state: 'pending',
    attempts: [{ statusCode: null, error: 'connect ECONNREFUSED the SMTP server' }],
  });
  t.notMatch(JSON.stringify(tried), `127.0.0.1:${port}`, "the relay's address is not shown to the account");
  const smtp = await startSmtp(t, { port });
  const [alert] = await settled(api, alice, m, 1);
  t.equal(alert.deliveries[0].state, 'delivered');
  t.equal(smtp.received.length, 1);
  t.match(smtp.received[0]!.text, 'disk full');
});

t.test('a login refused (535) is retried, not failed: delivered once the password is right again', async (t) => {
  // The SMTP server's password was rotated before pingmon's: the alert waits for the right one.
  const auth = { user: 'pingmon', pass: 'rotated' };
  const smtp = await startSmtp(t, { auth });
  const api = await TestServer.start(t, 'sqlite', {
    alertPollMs: 50,
    alertRetryBaseMs: 200,
    alertTimeoutMs: 30_000,
    alertMaxAttempts: 8,
    smtpUrl: `smtp://pingmon:old@127.0.0.1:${smtp.port}`,
    smtpFrom: 'alerts@example.com',
  });
  const alice = await api.account();
  const m = await api.monitor(alice);
  await addChannel(api, alice, { type: 'email', url: 'mailto:ops@example.com' });
  await api.ping(alice, m, 'fail', { errorMessage: 'disk full' });
  const alertsOf = async () => (await api.request(`/alerts?monitorId=${m}`, { token: alice.token })).body.alerts;
  const [refused] = await waitFor(async () => {
    const alerts = await alertsOf();
    return alerts[0]?.deliveries[0]?.attempts.length > 0 && alerts;
  });
  t.match(refused.deliveries[0], {
    state: 'pending',
    attempts: [{ statusCode: null, error: /^SMTP 535 Authentication failed/ }],
  });
  auth.pass = 'old';
  const [alert] = await settled(api, alice, m, 1);
  t.match(alert.deliveries[0], { state: 'delivered', lastError: null });
  t.ok(alert.deliveries[0].attemptCount >= 2, `${alert.deliveries[0].attemptCount} attempts`);
  t.equal(smtp.received.length, 1, 'delivered once');
});

// Refusals about the session, whatever the command they answer: each one leaves the alert pending.
for (const [what, auth, query] of [
  ['STARTTLS refused (with requireTLS)', undefined, '?requireTLS=true'],
  ['no login where one is required (530 to MAIL FROM)', { user: 'pingmon', pass: 'secret' }, ''],
] as const) {
  t.test(`${what}: a 5xx about the session, retried`, async (t) => {
    const smtp = await startSmtp(t, { auth });
    const api = await TestServer.start(t, 'sqlite', {
      alertPollMs: 50,
      alertRetryBaseMs: 60_000,
      alertTimeoutMs: 30_000,
      smtpUrl: `${smtp.url}${query}`,
      smtpFrom: 'alerts@example.com',
    });
    const alice = await api.account();
    const m = await api.monitor(alice);
    await addChannel(api, alice, { type: 'email', url: 'mailto:ops@example.com' });
    await api.ping(alice, m, 'fail', { errorMessage: 'disk full' });
    const [alert] = await waitFor(async () => {
      const { alerts } = (await api.request(`/alerts?monitorId=${m}`, { token: alice.token })).body;
      return alerts[0]?.deliveries[0]?.attempts.length > 0 && alerts;
    });
    t.match(alert.deliveries[0], { state: 'pending', attempts: [{ statusCode: null, error: /^SMTP 5\d\d / }] });
    t.equal(smtp.received.length, 0);
  });
}

t.test('an SMTP server that does not answer: the attempt ends within PINGMON_ALERT_TIMEOUT', async (t) => {
  const silent = createTcpServer(() => {}); // accepts, never greets
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => silent.close(() => resolve())));
  silent.on('connection', (socket) => t.teardown(() => socket.destroy()));
  const port = (silent.address() as { port: number }).port;
  const api = await TestServer.start(t, 'sqlite', {
    alertTimeoutMs: 300,
    smtpUrl: `smtp://127.0.0.1:${port}`,
    smtpFrom: 'alerts@example.com',
  });
  const alice = await api.account();
  const id = await addChannel(api, alice, { type: 'email', url: 'mailto:ops@example.com' });
  const started = Date.now();
  const reply = await api.request(`/channels/${id}/test`, { method: 'POST', token: alice.token });
  t.match(reply.body, {
    delivered: false,
    statusCode: null,
    error: /^(no answer within 300 ms|Greeting never received)/,
  });
  t.ok(Date.now() - started < 5_000, `answered after ${Date.now() - started} ms`);
});

/**
 * An SMTP server that greets and takes a whole message, then never finishes its reply to it: a line of a
 * multi-line reply every 100 ms, so that the socket is never idle and none of nodemailer's own timeouts (each one
 * step's, or idleness) can end the exchange. Only the limit on the whole of it can.
 */
async function stallingSmtp(t: { teardown(fn: () => unknown): void }) {
  const seen: string[] = [];
  const server = createTcpServer((socket) => {
    let buffered = '';
    let inData = false;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    const timer = setInterval(() => {
      if (seen.includes('.')) reply('250-still queuing');
    }, 100);
    socket.on('close', () => clearInterval(timer));
    socket.on('error', () => clearInterval(timer));
    t.teardown(() => socket.destroy());
    reply('220 stalling.example.com ESMTP');
    socket.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      if (inData) {
        if (!buffered.includes('\r\n.\r\n')) return;
        inData = false;
        buffered = '';
        seen.push('.');
        return;
      }
      let end: number;
      while ((end = buffered.indexOf('\r\n')) !== -1) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const verb = line.split(' ')[0]!.toUpperCase();
        seen.push(verb);
        if (verb === 'EHLO') reply('250 stalling.example.com');
        else if (verb === 'DATA') {
          inData = true;
          reply('354 go ahead');
        } else reply('250 ok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as { port: number }).port, seen };
}

t.test('an SMTP server that stalls mid-exchange: the attempt ends at PINGMON_ALERT_TIMEOUT', async (t) => {
  const smtp = await stallingSmtp(t);
  const api = await TestServer.start(t, 'sqlite', {
    alertTimeoutMs: 1_000,
    smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
    smtpFrom: 'alerts@example.com',
  });
  const alice = await api.account();
  const id = await addChannel(api, alice, { type: 'email', url: 'mailto:ops@example.com' });
  const reply = await api.request(`/channels/${id}/test`, { method: 'POST', token: alice.token });
  t.match(reply.body, { delivered: false, statusCode: null, error: 'no answer within 1000 ms' });
  // Without the signal the exchange never ends (the test's own timeout); the error above says the signal ended it.
  t.ok(reply.body.durationMs >= 1_000, `ended after ${reply.body.durationMs} ms`);
  t.same(smtp.seen.slice(0, 5), ['EHLO', 'MAIL', 'RCPT', 'DATA', '.'], 'stalled after the whole message was sent');
});

t.test('the SMTP URL’s user name and password log in', async (t) => {
  const smtp = await startSmtp(t, { auth: { user: 'pingmon', pass: 'p@ss word' } });
  const base = `smtp://pingmon:${encodeURIComponent('p@ss word')}@127.0.0.1:${smtp.port}`;
  const wrong = `smtp://pingmon:nope@127.0.0.1:${smtp.port}`;
  for (const [url, delivered] of [
    [base, true],
    [wrong, false],
  ] as const) {
    const api = await TestServer.start(t, 'sqlite', { smtpUrl: url, smtpFrom: 'alerts@example.com' });
    const alice = await api.account();
    const id = await addChannel(api, alice, { type: 'email', url: 'mailto:ops@example.com' });
    const reply = await api.request(`/channels/${id}/test`, { method: 'POST', token: alice.token });
    t.equal(reply.body.delivered, delivered, JSON.stringify(reply.body));
    if (!delivered) {
      t.match(reply.body.error, /535 Authentication failed/);
      t.notMatch(reply.body.error, /nope/, 'the password is not in the error');
    }
  }
  t.equal(smtp.received.length, 1);
});
