import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { Flags } from '@oclif/core';
import { createClient } from '@pingmon/sdk';
import { BaseCommand } from '../base-command.js';
import { readSettings, resolveSetting, writeSettings } from '../settings.js';

export default class Login extends BaseCommand {
  static override summary = 'Log in and remember the server and your token';
  static override description =
    'Asks for what is not given (in a terminal), then stores the URL and a user token in ' +
    '$XDG_CONFIG_HOME/pingmon/config.json, readable by you only.';
  static override examples = ['<%= config.bin %> login --url http://127.0.0.1:8080 --email ops@example.com'];
  static override flags = {
    url: Flags.string({ description: 'pingmon server [env: PINGMON_URL; default: the stored one]' }),
    email: Flags.string({ description: 'your email' }),
    password: Flags.string({ description: 'your password (asked for, hidden, when omitted)', env: 'PINGMON_PASSWORD' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Login);
    const stored = readSettings();
    const url =
      resolveSetting('url', flags.url, stored) ?? (await this.ask('Server URL (e.g. http://127.0.0.1:8080): '));
    const email = flags.email ?? (await this.ask('Email: '));
    const password = flags.password ?? (await this.ask('Password: ', true));
    const login = await createClient({ baseUrl: url }).login(email, password);
    const path = writeSettings({ ...stored, url, token: login.token });
    this.log(
      `Logged in as ${login.user.email} ` +
        `(account ${login.account.accountId}, plan ${login.account.plan}) until ${login.expiresAt}.`,
    );
    this.log(`Saved to ${path}.`);
  }

  private async ask(question: string, hidden = false): Promise<string> {
    if (!process.stdin.isTTY)
      this.error(
        `missing ${question
          .replace(/[:(].*$/, '')
          .trim()
          .toLowerCase()}: pass it as a flag (see pingmon login --help)`,
        { exit: 2 },
      );
    // A hidden answer is edited as any other (backspace, Ctrl-U, Ctrl-C), but readline echoes it to a stream
    // that keeps nothing: only the question reaches the terminal.
    const output = hidden ? new Writable({ write: (_chunk, _encoding, done) => done() }) : process.stdout;
    const rl = createInterface({ input: process.stdin, output, terminal: true });
    // Asked once the terminal echoes nothing itself (readline has put it in raw mode).
    if (hidden) process.stdout.write(question);
    // Ctrl-C: readline only pauses by itself (and node would then exit with 13); it ends the command, as a
    // shell's Ctrl-C does, with 130 and nothing stored.
    const answer = await new Promise<string | undefined>((resolve) => {
      rl.once('SIGINT', () => resolve(undefined));
      rl.question(hidden ? '' : question, resolve);
    });
    rl.close();
    if (answer === undefined) {
      process.stdout.write('\n');
      this.exit(130);
    }
    if (hidden) process.stdout.write('\n');
    // A password is taken as typed; a URL or an email without the spaces around it.
    return hidden ? answer! : answer!.trim();
  }
}
