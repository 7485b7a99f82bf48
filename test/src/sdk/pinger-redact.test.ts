import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { createPinger } from '@pingmon/sdk';
import type { PingerOptions } from '@pingmon/sdk';
import { deadUrl } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';

// The SDK redacts fail()'s message and log (and wrap()'s error) before they are sent or spooled.

const redact = { env: ['JOB_SECRET'], environment: { JOB_SECRET: 'env-secret-value', HOME: '/home/ops' } };

t.test('the pinger redacts what a failure sends', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const pinger = (monitorId: string, extra: Partial<PingerOptions> = {}) =>
    createPinger({ monitorId, apiKey: account.apiKey, baseUrl: api.url, spool: false, redact, ...extra });
  const runOf = async (monitorId: string, runId: string) =>
    (await api.request(`/monitors/${monitorId}/runs/${runId}`, { token: account.token })).body;
  const logOf = async (monitorId: string, runId: string) =>
    (await api.request(`/monitors/${monitorId}/runs/${runId}/log`, { token: account.token })).body.content;

  t.test('fail(): message, log and meta keys, counted with what the caller redacted', async (t) => {
    const m = await api.monitor(account, 'sdk fail');
    const ack = await pinger(m).fail({
      message: 'cannot reach postgres://app:pw-1234@db/prod',
      log: 'Authorization: Bearer abc.def\nusing env-secret-value\nok\n',
      meta: { rows: 3 },
      redactions: 2,
    });
    t.match(await runOf(m, ack.runId), {
      errorMessage: 'cannot reach postgres://app:[redacted]@db/prod',
      redactions: 5,
      meta: { rows: 3 },
    });
    t.equal(await logOf(m, ack.runId), 'Authorization: Bearer [redacted]\nusing [redacted]\nok\n');
  });

  t.test('wrap(): the error message and its stack trace', async (t) => {
    const m = await api.monitor(account, 'sdk wrap');
    const job = () => {
      throw new Error('login refused: password=swordfish42');
    };
    await t.rejects(pinger(m, { onError: () => undefined }).wrap(job), /swordfish42/, 'the caller sees its own error');
    const [run] = (await api.request(`/monitors/${m}/runs`, { token: account.token })).body.runs;
    t.match(run, { status: 'failed', errorMessage: 'login refused: password=[redacted]', redactions: 2 });
    const log = await logOf(m, run.runId);
    t.match(log, /^Error: login refused: password=\[redacted\]\n {4}at /);
    t.notMatch(log, 'swordfish42');
  });

  t.test('success() sends the count the caller gives; none is sent as 0', async (t) => {
    const m = await api.monitor(account, 'sdk success');
    const counted = await pinger(m).success({ redactions: 4 });
    t.equal((await runOf(m, counted.runId)).redactions, 4);
    const plain = await pinger(m).success();
    t.equal((await runOf(m, plain.runId)).redactions, 0);
  });

  t.test('a failure kept in the spool holds no secret', async (t) => {
    const spool = t.testdir();
    const baseUrl = await deadUrl();
    const mon = createPinger({
      monitorId: 'sdk-spool',
      apiKey: account.apiKey,
      baseUrl,
      spool,
      redact,
      retrySpool: false,
      retryBudgetMs: 500,
    });
    await t.rejects(mon.fail({ message: 'token=abcd1234', log: 'env-secret-value\n' }));
    const files = readdirSync(spool).filter((name) => name.endsWith('.json'));
    t.equal(files.length, 1);
    const kept = readFileSync(join(spool, files[0]!), 'utf8');
    t.notMatch(kept, /abcd1234|env-secret-value/);
    t.match(JSON.parse(kept).body, { errorMessage: 'token=[redacted]', logOutput: '[redacted]\n', redactions: 2 });
  });
});
