import t from 'tap';
import { outputAfter, withChunk } from '@pingmon/server/internal';

// domain/run-output.ts: chunks placed by offset in a bounded window, read from an offset.

const w = (text: string, from: number) => ({ text, from, to: from + text.length });

t.test('withChunk places a chunk by its offset', async (t) => {
  const cases: Array<[string, Parameters<typeof withChunk>, ReturnType<typeof withChunk>]> = [
    ['the first chunk', [undefined, { offset: 0, text: 'abc' }, 10], w('abc', 0)],
    ['the first chunk, not from 0 (output dropped)', [undefined, { offset: 5, text: 'abc' }, 10], w('abc', 5)],
    ['the next chunk', [w('abc', 0), { offset: 3, text: 'def' }, 10], w('abcdef', 0)],
    ['sent again: nothing new', [w('abcdef', 0), { offset: 3, text: 'def' }, 10], undefined],
    ['an older chunk, late: nothing new', [w('abcdef', 0), { offset: 0, text: 'ab' }, 10], undefined],
    ['overlapping: only the new end', [w('abcdef', 0), { offset: 4, text: 'efgh' }, 10], w('abcdefgh', 0)],
    ['past a gap: the window starts again', [w('abc', 0), { offset: 7, text: 'xyz' }, 10], w('xyz', 7)],
    ['over the bound: the newest kept', [w('abcdefgh', 0), { offset: 8, text: 'ijkl' }, 10], w('cdefghijkl', 2)],
    ['a chunk longer than the bound', [undefined, { offset: 0, text: '0123456789ab' }, 10], w('23456789ab', 2)],
    ['empty', [w('abc', 0), { offset: 3, text: '' }, 10], undefined],
  ];
  for (const [what, args, want] of cases) t.same(withChunk(...args), want, what);
});

t.test('outputAfter reads from an offset, or from the start of what is kept', async (t) => {
  const window = w('cdefgh', 2);
  t.same(outputAfter(window, 0), w('cdefgh', 2), 'older than kept: from the start, saying where');
  t.same(outputAfter(window, 5), w('fgh', 5));
  t.same(outputAfter(window, 8), w('', 8), 'up to date');
  t.same(outputAfter(window, 20), w('', 8), 'past the end: the end');
  t.same(outputAfter(undefined, 3), w('', 3), 'nothing yet');
});
