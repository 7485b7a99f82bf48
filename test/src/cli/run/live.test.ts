import t from 'tap';
import { LIVE_MAX_CHARS, LiveOutput } from 'pingmon/internal';
import { waitFor } from '../../helpers/wait.js';

// cli/src/run/live.ts: what `pingmon run` sends while the job runs, given chunks as the job's pipes hand them over
// (split anywhere, in a reused buffer); sent to a plain function that keeps what a server would.

interface Sent {
  offset: number;
  text: string;
}

/** A sender that answers at once and assembles the output as the server places it. */
function receiver() {
  const sent: Sent[] = [];
  let output = '';
  const send = async (chunk: Sent) => {
    sent.push(chunk);
    // Past a gap (older output dropped), the characters never sent read as spaces.
    output = output.padEnd(chunk.offset).slice(0, chunk.offset) + chunk.text;
  };
  return { sent, send, output: () => output };
}

/** Feeds `text` in chunks of `size` bytes through one reused buffer. */
function feed(live: LiveOutput, text: string, size: number): void {
  const bytes = Buffer.from(text);
  const reused = Buffer.alloc(size);
  for (let i = 0; i < bytes.length; i += size) {
    const n = bytes.copy(reused, 0, i, i + size);
    live.add(reused.subarray(0, n));
    reused.fill(0x21);
  }
}

t.test('characters split across chunks are counted once, and the offsets hold', async (t) => {
  const r = receiver();
  const live = new LiveOutput('run-0001', r.send, () => undefined);
  live.begin();
  const text = 'plain ascii\nünïcödé ✓ 🚀\n'.repeat(50);
  feed(live, text.slice(0, 601), 3);
  await waitFor(() => r.sent.length === 1, { what: 'the first chunk' });
  feed(live, text.slice(601), 3);
  await live.finish();
  t.equal(r.output(), text);
  t.equal(r.sent.length, 2, 'the rest at the end');
});

t.test('more than the bound: only the newest output goes, at its offset', async (t) => {
  const r = receiver();
  const live = new LiveOutput('run-0001', r.send, () => undefined);
  live.begin();
  const text = Array.from({ length: 40_000 }, (_, i) => `line ${i} é\n`).join('');
  feed(live, text, 4096);
  await waitFor(() => r.sent.length === 1, { what: 'the first chunk' });
  await live.finish();
  t.equal(r.sent.length, 1);
  t.equal(r.sent[0]!.text.length, LIVE_MAX_CHARS);
  t.equal(r.sent[0]!.offset, text.length - LIVE_MAX_CHARS);
  t.ok(text.endsWith(r.sent[0]!.text));
});

t.test('a chunk refused for want of its start goes again, with what came after', async (t) => {
  const sent: Sent[] = [];
  let refuse = true;
  const live = new LiveOutput(
    'run-0001',
    async (chunk) => {
      sent.push(chunk);
      if (refuse) throw Object.assign(new Error('not yet'), { status: 409, code: 'run_not_started' });
    },
    () => undefined,
  );
  live.begin();
  feed(live, 'one\n', 64);
  await waitFor(() => sent.length === 1, { what: 'the first chunk' });
  refuse = false;
  feed(live, 'two\n', 64);
  await live.finish();
  t.same(sent.at(-1), { runId: 'run-0001', offset: 0, text: 'one\ntwo\n' });
});

t.test('a job over within the first second sends nothing live: its log tells it all', async (t) => {
  const r = receiver();
  const live = new LiveOutput('run-0001', r.send, () => undefined);
  live.begin();
  feed(live, 'quick\n', 64);
  await live.finish();
  t.equal(r.sent.length, 0);
});

t.test(
  'a refusal that is final turns it off with one warning; nothing goes before the start is delivered',
  async (t) => {
    const warnings: string[] = [];
    const sent: Sent[] = [];
    const live = new LiveOutput(
      'run-0001',
      async (chunk) => {
        sent.push(chunk);
        throw Object.assign(new Error('Not Found'), { status: 404, code: 'not_found' });
      },
      (w) => warnings.push(w),
    );
    feed(live, 'before the start\n', 64);
    live.begin();
    await waitFor(() => warnings.length === 1, { what: 'the warning' });
    await live.finish();
    feed(live, 'after\n', 64);
    t.equal(sent.length, 1);
    t.same(warnings, ['live output is off for this run: Not Found']);

    const never = new LiveOutput(
      'run-0002',
      async (chunk) => void sent.push(chunk),
      () => undefined,
    );
    feed(never, 'a start never delivered\n', 64);
    never.stop();
    await never.finish();
    t.equal(sent.length, 1, 'stopped before its start was delivered: nothing sent');
  },
);
