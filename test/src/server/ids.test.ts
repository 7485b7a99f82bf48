import t from 'tap';
import { newId } from '@pingmon/server/internal';

// Lists are ordered by time, then id: ids made in one millisecond must sort in the order they were made.

t.test('ids made in one millisecond, or with a time read before the last id, sort in the order made', async (t) => {
  const now = Date.now() + 60_000;
  const ids = [newId('rule', now), newId('rule', now), newId('rule', now - 5), newId('rule', now)];
  for (let i = 0; i < 200; i++) ids.push(newId('rule', now));
  t.same([...ids].sort(), ids);
  t.equal(new Set(ids).size, ids.length, 'all different');
  t.ok(
    ids.every((id) => /^rule_[0-9a-z]{19}$/.test(id)),
    'prefix, time and tail in base 36: one order under any collation',
  );
});

t.test('a later millisecond starts a new random tail, still after every earlier id', async (t) => {
  const now = Date.now() + 120_000;
  const earlier = newId('ch', now);
  const later = [newId('ch', now + 1), newId('ch', now + 1)];
  t.ok(earlier < later[0]! && later[0]! < later[1]!);
  t.equal(later[0]!.slice(3, 12), (now + 1).toString(36).padStart(9, '0'), 'the time is the millisecond made in');
});
