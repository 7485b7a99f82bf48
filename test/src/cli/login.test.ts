import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { tempDir } from '../helpers/databases.js';
import { CLI } from '../helpers/cli.js';
import { TestServer } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { EXITED, Tmux } from '../helpers/tmux.js';

// `pingmon login` in a real terminal (tmux): what is asked, what is echoed, what is stored. tmux shows no
// trailing spaces: a prompt is waited for without its own.

t.test('pingmon login in a terminal asks for the email and the password, and never shows the password', async (t) => {
  if (!requireTools(t, 'tmux')) return;
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const configHome = tempDir('pingmon-config-');
  const env = { XDG_CONFIG_HOME: configHome };
  const term = Tmux.start(t, [process.execPath, CLI, 'login', '--url', api.url], { columns: 100, rows: 24, env });
  await term.waitFor('Email:');
  term.type(`  ${account.email} `);
  term.keys('Enter');
  await term.waitFor('Password:');
  // A typo, taken back: the line is edited as in any prompt.
  term.type(`${account.password}x`);
  term.keys('BSpace', 'Enter');
  const screen = await term.waitFor(EXITED);
  t.equal(EXITED.exec(screen)![1], '0', screen);
  const email = account.email.replace(/\./g, '\\.');
  t.match(screen, new RegExp(`Email: {3}${email} *\nPassword: *\nLogged in as ${email}`));
  t.notMatch(screen, /correct|horse|battery/, 'nothing of the password is shown');
  const file = join(configHome, 'pingmon', 'config.json');
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { url: string; token: string };
  t.equal(stored.url, api.url);
  t.match(stored.token, /^eyJ/);
});

t.test('pingmon login asks for the server when none is known, and Ctrl-C at the password stores nothing', async (t) => {
  if (!requireTools(t, 'tmux')) return;
  const configHome = tempDir('pingmon-config-');
  const env = { XDG_CONFIG_HOME: configHome };
  const term = Tmux.start(t, [process.execPath, CLI, 'login'], { columns: 100, rows: 24, env });
  await term.waitFor('Server URL (e.g. http://127.0.0.1:8080):');
  term.type('http://127.0.0.1:1');
  term.keys('Enter');
  await term.waitFor('Email:');
  term.type('ops@example.com');
  term.keys('Enter');
  await term.waitFor('Password:');
  term.type('secret');
  term.keys('C-c');
  const screen = await term.waitFor(EXITED);
  t.equal(EXITED.exec(screen)![1], '130', 'Ctrl-C ends it as a shell would: 130');
  t.notMatch(screen, /secret/);
  t.throws(() => readFileSync(join(configHome, 'pingmon', 'config.json')), { code: 'ENOENT' }, 'nothing stored');
});
