import t from 'tap';
import { newRunId } from '@pingmon/sdk';

// The server lists runs that started in the same millisecond by runId: one pinger's runs keep their order.

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

t.test('run ids made in one millisecond, or with an earlier time, sort in the order made', async (t) => {
  const now = Date.now() + 60_000;
  const ids = [newRunId(now), newRunId(now), newRunId(now - 5)];
  for (let i = 0; i < 200; i++) ids.push(newRunId(now));
  t.same([...ids].sort(), ids);
  t.equal(new Set(ids).size, ids.length, 'all different');
  t.ok(
    ids.every((id) => UUID_V7.test(id)),
    'each a UUIDv7',
  );
});

t.test('a later millisecond starts from new random bits, still after every earlier id', async (t) => {
  const now = Date.now() + 120_000;
  const earlier = newRunId(now);
  const later = newRunId(now + 1);
  t.ok(earlier < later);
  t.equal(
    later.replace(/-/g, '').slice(0, 12),
    (now + 1).toString(16).padStart(12, '0'),
    'its time is the millisecond',
  );
});
