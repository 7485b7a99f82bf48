import t from 'tap';
import { readKeys } from 'pingmon/internal';
import type { KeyPress } from 'pingmon/internal';

// The bytes a terminal sends, split into keys: every key of a chunk, in order, in ink's Key shape.

const keysOf = (chunk: string, pasting = false) => readKeys(chunk, pasting).keys;
const press = (input: string, key: KeyPress['key'] = {}): KeyPress => ({ input, key });
const down = press('', { downArrow: true });
const enter = press('', { return: true });

t.test('arrows, Enter and letters sent together are each a key, in order', async (t) => {
  t.same(keysOf('\x1b[B\x1b[B\x1b[B'), [down, down, down], 'three ↓ (CSI)');
  t.same(keysOf('\x1bOB\x1bOB'), [down, down], 'two ↓ (SS3, application cursor keys)');
  t.same(keysOf('\x1b[B\r'), [down, enter], '↓ Enter');
  t.same(keysOf('jjG\r'), [press('j'), press('j'), press('G', { shift: true }), enter]);
  t.same(keysOf('\x1b[A\x1b[C\x1b[D'), [
    press('', { upArrow: true }),
    press('', { rightArrow: true }),
    press('', { leftArrow: true }),
  ]);
});

t.test('PageUp, PageDown, Home, End, Delete, and arrows with modifiers', async (t) => {
  const cases: Array<[string, KeyPress['key']]> = [
    ['\x1b[5~', { pageUp: true }],
    ['\x1b[6~', { pageDown: true }],
    ['\x1b[H', { home: true }],
    ['\x1b[F', { end: true }],
    ['\x1bOH', { home: true }],
    ['\x1bOF', { end: true }],
    ['\x1b[1~', { home: true }],
    ['\x1b[4~', { end: true }],
    ['\x1b[7~', { home: true }],
    ['\x1b[8~', { end: true }],
    ['\x1b[3~', { delete: true }],
    ['\x1b[1;5A', { upArrow: true, ctrl: true }],
    ['\x1b[1;2B', { downArrow: true, shift: true }],
    ['\x1b[1;3D', { leftArrow: true, meta: true }],
    ['\x1b[5;5~', { pageUp: true, ctrl: true }],
    ['\x1b[Z', { tab: true, shift: true }],
    ['\x1bOM', { return: true }],
  ];
  for (const [chunk, key] of cases) t.same(keysOf(chunk), [press('', key)], JSON.stringify(chunk));
  t.same(keysOf('\x1b[6~\x1b[6~\x1b[5~'), [
    press('', { pageDown: true }),
    press('', { pageDown: true }),
    press('', { pageUp: true }),
  ]);
});

t.test('a lone Esc is Esc, also before other keys; Backspace, Tab, Ctrl-C', async (t) => {
  const esc = press('', { escape: true });
  t.same(keysOf('\x1b'), [esc]);
  t.same(keysOf('\x1b\x1b'), [esc, esc]);
  t.same(keysOf('\x1bj'), [esc, press('j')], 'Esc then j, not Alt-j');
  t.same(keysOf('\x1b\x1b[B'), [esc, down]);
  t.same(keysOf('\x1b['), [esc, press('[')], 'an unfinished sequence at the end of a chunk');
  t.same(keysOf('\x7f\b'), [press('', { backspace: true }), press('', { backspace: true })]);
  t.same(keysOf('\t'), [press('', { tab: true })]);
  t.same(keysOf('\x03q'), [press('c', { ctrl: true }), press('q')]);
  t.same(keysOf('\n'), [enter]);
});

t.test('unknown sequences, mouse reports and stray control characters are no keys, and swallow nothing', async (t) => {
  t.same(keysOf('\x1b[15~j'), [press('j')], 'F5');
  t.same(keysOf('\x1b[<0;10;5Mk'), [press('k')], 'an SGR mouse report is not Enter');
  t.same(keysOf('\x1bOPk'), [press('k')], 'F1 (SS3)');
  t.same(keysOf('\x00\x1c\x9bj'), [press('j')]);
});

t.test('text: every character, wide ones and emoji whole', async (t) => {
  t.same(keysOf('ab ü'), [press('a'), press('b'), press(' '), press('ü')]);
  t.same(keysOf('日🙂'), [press('日'), press('🙂')]);
});

t.test('pasted text (bracketed paste) is one input, also across chunks, with the keys around it', async (t) => {
  t.same(keysOf('\x1b[200~nightly\nbackup\x1b[201~\r'), [press('nightly\nbackup', { paste: true }), enter]);
  t.same(keysOf('j\x1b[200~pz\x1b[201~'), [press('j'), press('pz', { paste: true })]);
  const first = readKeys('\x1b[200~night');
  t.same(first, { keys: [press('night', { paste: true })], pasting: true });
  const second = readKeys('ly\x1b[201~\x1b[B', first.pasting);
  t.same(second, { keys: [press('ly', { paste: true }), down], pasting: false });
  t.same(readKeys('\x1b[B', false).pasting, false);
  t.same(keysOf('\x1b[200~\x1b[201~'), [], 'an empty paste');
});
