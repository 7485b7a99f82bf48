import { editDistance, nearest } from 'pingmon/internal';
import t from 'tap';

const COMMANDS = ['monitors', 'monitors list', 'monitors show', 'monitors resume', 'run', 'runs', 'login', 'users'];

t.test('a typo is an edit away; a swap of two neighbours is one edit', async (t) => {
  const cases: [string, string, number][] = [
    ['runn', 'run', 1],
    ['moniters', 'monitors', 1],
    ['moniotrs', 'monitors', 1],
    ['monitor list', 'monitors list', 1],
    ['--jsn', '--json', 1],
    ['', 'run', 3],
  ];
  for (const [a, b, distance] of cases) t.equal(editDistance(a, b), distance, `${a} → ${b}`);
});

t.test('the nearest commands within one edit per four characters of the longest word, ties all named', async (t) => {
  const cases: [string, string[]][] = [
    ['runn', ['run', 'runs']],
    ['moniters', ['monitors']],
    ['monitor list', ['monitors list']],
    ['monitors lst', ['monitors list']],
    ['usres', ['users']],
    ['lgoin', ['login']],
    ['monitors frob', []],
    ['monitors nosuch', []],
    ['nosuch', []],
    ['xyz', []],
  ];
  for (const [typed, meant] of cases) t.same(nearest(typed, COMMANDS), meant, typed);
});
