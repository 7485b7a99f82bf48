import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { CLI, pingmon } from '../helpers/cli.js';
import { tempDir } from '../helpers/databases.js';
import { requireTools } from '../helpers/system-tools.js';
import type { SystemTool } from '../helpers/system-tools.js';
import { Tmux } from '../helpers/tmux.js';

// What a shell user expects of a command: its version, completion, and no colour where colour is not wanted.

const VERSION = (
  JSON.parse(readFileSync(new URL('../../../cli/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

t.test('pingmon --version and -v print the version, exit 0', async (t) => {
  for (const flag of ['--version', '-v']) {
    const result = await pingmon([flag]);
    t.equal(result.code, 0, flag);
    t.match(result.stdout, new RegExp(`^pingmon/${VERSION.replace(/\./g, '\\.')} \\S+ node-v\\d+`), flag);
  }
});

t.test("the completion plugin's errors are pingmon's one line, exit 2", async (t) => {
  const env = { XDG_CACHE_HOME: tempDir('pingmon-cache-') };
  for (const [args, message] of [
    [['autocomplete', 'fish'], 'Expected fish to be one of: zsh, bash, powershell'],
    [['autocomplete', 'bash', '--bogus'], 'Nonexistent flag: --bogus'],
  ] as const) {
    const result = await pingmon([...args], env);
    t.equal(result.code, 2, args.join(' '));
    t.equal(result.stderr, `pingmon: ${message}\n`, 'one line, no usage after it');
    t.equal(result.stdout, '');
  }
});

/** A terminal whose shell has `pingmon` on its PATH and its completion set up as the instructions say. */
async function shellWithCompletion(t: Test, shell: 'bash' | 'zsh'): Promise<Tmux> {
  const home = tempDir('pingmon-home-');
  const bin = join(home, 'bin');
  mkdirSync(bin);
  symlinkSync(CLI, join(bin, 'pingmon'));
  const env = { HOME: home, XDG_CACHE_HOME: join(home, '.cache'), PATH: `${bin}:${process.env.PATH}` };
  // `pingmon autocomplete SHELL` builds the completion files and prints how to set them up.
  const instructions = await pingmon(['autocomplete', shell], env);
  t.equal(instructions.code, 0, instructions.stderr);
  t.match(instructions.stdout, `pingmon autocomplete script ${shell}`);
  const setup = await pingmon(['autocomplete', 'script', shell], env);
  t.equal(setup.code, 0, setup.stderr);
  const rc = join(home, shell === 'bash' ? '.bashrc' : '.zshrc');
  writeFileSync(rc, `PS1='$ '\nPROMPT='$ '\n${setup.stdout}\n`);
  const argv = shell === 'bash' ? ['bash', '--noprofile', '--rcfile', rc, '-i'] : ['zsh', '-i'];
  const term = Tmux.start(t, argv, { columns: 120, rows: 20, env: { ...env, ZDOTDIR: home } });
  await term.waitFor(/^\$/m);
  return term;
}

for (const shell of ['bash', 'zsh'] as const) {
  t.test(`${shell} completes pingmon's commands and flags`, async (t) => {
    // bash is in every Debian system; zsh and tmux are not.
    const tools: SystemTool[] = shell === 'zsh' ? ['zsh', 'tmux'] : ['tmux'];
    if (!requireTools(t, ...tools)) return;
    const term = await shellWithCompletion(t, shell);
    // Each line is typed, completed with Tab, then cleared with Ctrl-U for the next.
    const cases: Array<[typed: string, completed: string]> = [
      ['pingmon monitors cr', 'pingmon monitors create'],
      ['pingmon chan', 'pingmon channels'],
      ['pingmon run --mon', 'pingmon run --monitor'],
      ['pingmon server --wo', 'pingmon server --workers'],
    ];
    for (const [typed, completed] of cases) {
      term.type(typed);
      term.keys('Tab');
      await term.waitFor((screen) => screen.split('\n').some((line) => line.startsWith(`$ ${completed}`)));
      t.pass(`${typed} ⇥ → ${completed}`);
      term.keys('C-u');
      await term.waitFor((screen) => screen.trimEnd().split('\n').at(-1) === '$');
    }
  });
}

t.test('help has colours in a terminal only: not with NO_COLOR, not in a pipe', async (t) => {
  // `script` gives the command a pseudo-terminal, as a person's shell would (not under CI, where help has none).
  const inTerminal = (env: Record<string, string>) =>
    spawnSync('script', ['-qc', `${process.execPath} ${CLI} monitors --help`, '/dev/null'], {
      encoding: 'utf8',
      env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/COLOR|^CI$/.test(k))), ...env },
    }).stdout;
  const sgr = /\x1b\[[0-9;]*m/;
  t.match(inTerminal({ TERM: 'xterm-256color' }), sgr, 'coloured in a terminal');
  t.notMatch(inTerminal({ TERM: 'xterm-256color', NO_COLOR: '1' }), sgr, 'not with NO_COLOR');
  const piped = await pingmon(['monitors', '--help']);
  t.equal(piped.code, 0);
  t.notMatch(piped.stdout, sgr, 'not in a pipe');
});
