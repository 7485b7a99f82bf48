import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { tempDir } from '../helpers/databases.js';
import { CLI, pingmon, pingmonRaw } from '../helpers/cli.js';
import { TestServer } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { EXITED, Tmux } from '../helpers/tmux.js';

// A CLI that forgives: typos get "did you mean", help and version answer every way they are asked, a URL without
// its scheme is said so, and a password can be piped in.

const suggests = (typed: string, meant: string) =>
  `pingmon: unknown command "${typed}"; did you mean ${meant}? (\`pingmon --help\` lists the commands)\n`;

t.test('a mistyped command gets "did you mean" and exit 2', async (t) => {
  const cases: [string[], string][] = [
    [['monitor', 'list'], suggests('monitor list', '`pingmon monitors list`')],
    [['moniters'], suggests('moniters', '`pingmon monitors`')],
    [['runn'], suggests('runn', '`pingmon run` or `pingmon runs`')],
    [['usres', 'list'], suggests('usres list', '`pingmon users list`')],
    [['nosuch'], 'pingmon: unknown command "nosuch"; run `pingmon --help` for the list of commands\n'],
  ];
  for (const [args, stderr] of cases) {
    const result = await pingmon(args);
    t.equal(result.code, 2, args.join(' '));
    t.equal(result.stderr, stderr);
    t.equal(result.stdout, '');
  }
});

t.test('--help of an unknown command, and pingmon help of one, answer as the command itself', async (t) => {
  for (const args of [['nosuch'], ['monitor', 'list'], ['monitors', 'nosuch']]) {
    const plain = await pingmon(args);
    for (const asked of [
      [...args, '--help'],
      [...args, '-h'],
      ['help', ...args],
    ]) {
      const result = await pingmon(asked);
      t.same(result, plain, asked.join(' '));
    }
  }
});

t.test('a mistyped flag gets "did you mean" and exit 2', async (t) => {
  const json = await pingmon(['monitors', 'list', '--jsn']);
  t.equal(json.code, 2);
  t.equal(json.stderr, 'pingmon: unknown flag --jsn: did you mean `--json`? (see `pingmon monitors list --help`)\n');
  const two = await pingmon(['login', '--pasword=x', '--emial', 'a@example.com']);
  t.equal(two.code, 2);
  t.match(two.stderr, /did you mean `--password`\?; .*did you mean `--email`\?/);
  // pingmon run never stops the job over a flag: the typo is a warning, with the suggestion.
  const run = await pingmon(['run', '--monitr', 'x', '--', 'true']);
  t.equal(run.code, 0);
  t.match(run.stderr, '[pingmon] unknown option --monitr: ignored (did you mean `--monitor`?)');
});

t.test('pingmon help COMMAND shows what COMMAND --help shows', async (t) => {
  for (const args of [['run'], ['monitors', 'list'], ['login'], ['monitors']]) {
    const help = await pingmon(['help', ...args]);
    t.equal(help.code, 0, args.join(' '));
    t.match(help.stdout, /USAGE/);
    t.same(help, await pingmon([...args, '--help']));
  }
  const root = await pingmon(['help']);
  t.equal(root.code, 0);
  t.same(root, await pingmon(['--help']));
});

t.test('pingmon version says what --version and -v say', async (t) => {
  const version = await pingmon(['version']);
  t.equal(version.code, 0);
  t.match(version.stdout, /^pingmon\/\d+\.\d+\.\d+ \S+ node-v\d+/);
  t.same(await pingmon(['--version']), version);
  t.same(await pingmon(['-v']), version);
});

t.test('a server URL without http:// or https:// is said so, wherever it comes from', async (t) => {
  const flag = await pingmon(['login', '--url', 'notaurl', '--email', 'a@example.com', '--password', 'x']);
  t.equal(flag.code, 2);
  t.equal(flag.stderr, 'pingmon: --url needs http:// or https:// in front (got "notaurl"), e.g. http://notaurl\n');
  const listed = await pingmon(['monitors', 'list', '--url', 'localhost:8080']);
  t.equal(listed.code, 2);
  t.match(listed.stderr, '--url needs http:// or https:// in front (got "localhost:8080"), e.g. http://localhost:8080');
  const env = await pingmon(['monitors', 'list'], { PINGMON_URL: 'pingmon.example.com', PINGMON_TOKEN: 'eyJx' });
  t.equal(env.code, 2);
  t.match(env.stderr, /^pingmon: PINGMON_URL needs http:\/\/ or https:\/\/ in front \(got "pingmon\.example\.com"\)/);
  const home = tempDir('pingmon-config-');
  mkdirSync(join(home, 'pingmon'));
  writeFileSync(join(home, 'pingmon', 'config.json'), JSON.stringify({ url: '127.0.0.1:8080', token: 'eyJx' }));
  const stored = await pingmon(['monitors', 'list'], { XDG_CONFIG_HOME: home });
  t.equal(stored.code, 2);
  t.match(stored.stderr, `the url stored in ${join(home, 'pingmon', 'config.json')} needs http:// or https://`);
  const set = await pingmon(['config', 'set', 'url', 'example.com'], { XDG_CONFIG_HOME: home });
  t.equal(set.code, 2);
  t.match(set.stderr, 'url needs http:// or https:// in front (got "example.com")');
});

t.test('login --password-stdin reads the password from a pipe', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const login = (input: string, ...more: string[]) => {
    const home = tempDir('pingmon-config-');
    const args = ['login', '--url', api.url, '--email', account.email, '--password-stdin', ...more];
    return { home, result: pingmonRaw(args, { XDG_CONFIG_HOME: home }, Buffer.from(input)) };
  };

  t.test('one line, its line end dropped (\\n or \\r\\n), or none', async (t) => {
    for (const input of [`${account.password}\n`, `${account.password}\r\n`, account.password]) {
      const { home, result } = login(input);
      const done = await result;
      t.equal(done.code, 0, done.stderr);
      t.match(done.stdout.toString(), `Logged in as ${account.email}`);
      const stored = JSON.parse(readFileSync(join(home, 'pingmon', 'config.json'), 'utf8')) as { token: string };
      t.match(stored.token, /^eyJ/);
    }
  });

  t.test('a wrong password is the server refusing it, as with --password', async (t) => {
    const done = await login('not the password\n').result;
    t.equal(done.code, 1);
    t.equal(done.stderr, 'pingmon: Wrong email or password.\n');
  });

  t.test('refused with another password, with --browser, or without one line', async (t) => {
    const cases: [string, string[], RegExp][] = [
      ['pw\n', ['--password', 'pw'], /--password and --password-stdin both give the password: use one of them/],
      ['pw\n', ['--browser'], /--browser.*--password-stdin|--password-stdin.*--browser/],
      ['', [], /--password-stdin: stdin held no password/],
      ['\n', [], /--password-stdin: stdin held no password/],
      ['one\ntwo\n', [], /--password-stdin: stdin held several lines; give the password alone/],
    ];
    for (const [input, more, message] of cases) {
      const done = await login(input, ...more).result;
      t.equal(done.code, 2, more.join(' ') || JSON.stringify(input));
      t.match(done.stderr, message);
      t.equal(done.stderr.split('\n').length, 2, 'one line');
    }
  });

  t.test('a password piped in without --password-stdin: the error names it', async (t) => {
    const args = ['login', '--url', api.url, '--email', account.email];
    const done = await pingmonRaw(args, { XDG_CONFIG_HOME: tempDir('pingmon-config-') }, Buffer.from('pw\n'));
    t.equal(done.code, 2);
    t.match(done.stderr, 'missing password: pass it as a flag or pipe it in with --password-stdin');
  });

  t.test('refused when stdin is a terminal', async (t) => {
    if (!requireTools(t, 'tmux')) return;
    const argv = [process.execPath, CLI, 'login', '--url', api.url, '--email', account.email, '--password-stdin'];
    const env = { XDG_CONFIG_HOME: tempDir('pingmon-config-') };
    const term = Tmux.start(t, argv, { columns: 200, rows: 10, env });
    const screen = await term.waitFor(EXITED);
    t.equal(EXITED.exec(screen)![1], '2', screen);
    t.match(screen, '--password-stdin reads the password from a pipe or a file, not a terminal');
  });
});
