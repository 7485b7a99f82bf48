import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { createPinger, newRunId } from '@pingmon/sdk';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';

// One run id shape: what the SDK makes, what the server makes for a ping without a runId, and what the docs show
// (docs/api.md#run-ids).

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const API_DOC = readFileSync(`${ROOT}docs/api.md`, 'utf8');
const DOCUMENTED = new RegExp(/pattern `\^([^`$]+)\$`/.exec(API_DOC.slice(API_DOC.indexOf('### Run ids')))![1]!);
const WHOLE = new RegExp(`^${DOCUMENTED.source}$`);

t.test('the documented pattern is that of a UUIDv7', async (t) => {
  t.equal(DOCUMENTED.source, '[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}');
});

t.test('the SDK makes run ids of the documented shape', async (t) => {
  for (let i = 0; i < 50; i++) t.match(newRunId(), WHOLE);
});

for (const kind of DATABASE_KINDS) {
  t.test(`the server and the SDK's pinger make the same shape on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind);
    const account = await api.account('unlimited');
    const monitorId = await api.monitor(account);
    const ids: string[] = [];
    // curl's way: a start, and a result with no start before it, neither with a runId.
    for (const ping of ['start', 'fail', 'success'] as const) {
      const reply = await api.ping(account, monitorId, ping);
      t.equal(reply.status, 200, reply.text);
      ids.push(reply.body.data.runId);
    }
    const pinger = createPinger({ monitorId, apiKey: account.apiKey, baseUrl: api.url });
    ids.push((await pinger.start()).runId);
    t.equal((await pinger.success()).runId, ids.at(-1), 'the pinger finishes the run it opened');
    for (const id of ids) t.match(id, WHOLE);
    const listed = await api.request(`/monitors/${monitorId}/runs`, { token: account.token });
    t.same(
      listed.body.runs.map((run: { runId: string }) => run.runId).sort(),
      [...new Set(ids)].sort(),
      'the ids acknowledged are the ids stored',
    );
    // A client's own id is kept as sent.
    const own = await api.ping(account, monitorId, 'start', { runId: 'backup-2026-11-22' });
    t.equal(own.body.data.runId, 'backup-2026-11-22');
  });
}

t.test('every run id the README and the docs show is of the documented shape', async (t) => {
  const files = ['README.md', 'sdk/README.md', ...readdirSync(`${ROOT}docs`).map((name) => `docs/${name}`)];
  // A run id where one is shown: "runId": "…", "run_id": "…", …/runs/ID, "run ID ·" (alert texts), or an old
  // server's run_ id anywhere (its time in base 36 first: not run_finished).
  const shown = new RegExp(
    [
      /"run_?[iI]d" ?: ?"([^"]+)"/,
      /\/runs\/([A-Za-z0-9_-]{8,})/,
      /\brun ([A-Za-z0-9_-]{8,}) ·/,
      /\brun_[0-9][0-9a-z]{8}\w{6,}/,
    ]
      .map((part) => part.source)
      .join('|'),
    'g',
  );
  let seen = 0;
  for (const file of files.filter((name) => name.endsWith('.md'))) {
    // The run ids section names the shapes that can be met besides the made one, on purpose.
    const text = readFileSync(`${ROOT}${file}`, 'utf8').replace(/### Run ids\n[\s\S]*?\n### /, '### ');
    for (const match of text.matchAll(shown)) {
      const id = match[1] ?? match[2] ?? match[3] ?? match[0];
      if (/^(…|<RUN_ID>|\$|\()/.test(id)) continue; // placeholders, a sed pattern
      seen++;
      t.match(id, WHOLE, `${file}: ${match[0]}`);
    }
  }
  t.ok(seen > 20, `${seen} run ids checked`);
});
