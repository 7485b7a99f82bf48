import { Flags } from '@oclif/core';
import { createClient, PingmonError } from '@pingmon/sdk';
import { BaseCommand } from '../base-command.js';
import { browserLogin } from '../browser-login.js';
import { ask } from '../prompt.js';
import { chooseRunKey, createRunKey, wrongKey } from '../run-key.js';
import { notAServerUrl, readSettings, resolveUrl, writeSettings } from '../settings.js';
import { readStdin } from '../stdin.js';

export default class Login extends BaseCommand {
  static override summary = 'Log in and remember the server and your token (and an API key for pingmon run)';
  static override description =
    'Asks for what is not given (in a terminal), then stores the URL and a user token in ' +
    '$XDG_CONFIG_HOME/pingmon/config.json, readable by you only. In a terminal, when no API key is stored, it ' +
    'offers to store one for `pingmon run`: one you paste, or a new ping-only key.';
  static override examples = [
    '<%= config.bin %> login --url http://127.0.0.1:8080 --email ops@example.com',
    '<%= config.bin %> login --url http://127.0.0.1:8080 --email ops@example.com --create-api-key',
    '<%= config.bin %> login --url http://127.0.0.1:8080 --email ops@example.com --code 123456',
    '<%= config.bin %> login --url https://pingmon.example.com --browser',
    'cat ~/.pingmon-password | <%= config.bin %> login --url http://127.0.0.1:8080 --email ops@example.com --password-stdin',
  ];
  static override flags = {
    url: Flags.string({ description: 'pingmon server [env: PINGMON_URL; default: the stored one]' }),
    email: Flags.string({ description: 'your email' }),
    password: Flags.string({ description: 'your password (asked for, hidden, when omitted)', env: 'PINGMON_PASSWORD' }),
    'password-stdin': Flags.boolean({
      description: 'read the password from stdin (one line), e.g. piped from a file or a secret manager',
      exclusive: ['browser'],
    }),
    code: Flags.string({
      description: 'the code of your second factor, or a recovery code (asked for when the server needs one)',
    }),
    'api-key': Flags.string({
      description: 'an API key of the account (pm_…) to store for `pingmon run`',
      exclusive: ['create-api-key'],
    }),
    'create-api-key': Flags.boolean({ description: 'create a ping-only API key and store it for `pingmon run`' }),
    browser: Flags.boolean({
      description:
        'sign in through the dashboard in a browser on this computer (single sign-on included) instead of a password',
      exclusive: ['email', 'password', 'code'],
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Login);
    const stored = readSettings();
    const password = flags['password-stdin'] ? await this.passwordFromStdin() : flags.password;
    const url = resolveUrl(flags.url, stored) ?? (await this.askUrl());
    const login = flags.browser
      ? await browserLogin(url, (line) => this.log(line))
      : await this.logIn(
          url,
          flags.email ?? (await this.ask('Email: ')),
          password ?? (await this.ask('Password: ', true)),
          flags.code,
        );
    const path = writeSettings({ ...stored, url, token: login.token });
    this.log(
      `Logged in as ${login.user.email} ` +
        `(account ${login.account.accountId}, plan ${login.account.plan}) until ${login.expiresAt}.`,
    );
    this.log(`Saved to ${path}.`);
    const client = createClient({ baseUrl: url, token: login.token });
    let apiKey: string | undefined;
    if (flags['api-key'] !== undefined) {
      const wrong = await wrongKey(client, flags['api-key']);
      if (wrong) this.error(`--api-key: ${wrong}; no API key stored`, { exit: 1 });
      apiKey = flags['api-key'];
    } else if (flags['create-api-key']) {
      apiKey = (await createRunKey(client, (line) => this.log(line))).key;
    } else if (stored.apiKey) {
      this.log(`pingmon run uses the API key stored there (${stored.apiKey.slice(0, 10)}…).`);
    } else if (process.stdin.isTTY) {
      apiKey = await chooseRunKey(client, { ask: (q, hidden) => this.ask(q, hidden), log: (line) => this.log(line) });
    }
    if (apiKey === undefined) {
      if (!stored.apiKey)
        this.log(
          'pingmon run needs an API key: `pingmon config set api-key pm_…` (or `pingmon login --create-api-key`).',
        );
      return;
    }
    writeSettings({ ...readSettings(), apiKey });
    this.log(`API key ${apiKey.slice(0, 10)}… stored for pingmon run: a crontab line needs only --monitor.`);
  }

  /** --password-stdin, as `docker login` reads it: one line from a pipe or file, its line end dropped. */
  private async passwordFromStdin(): Promise<string> {
    // PINGMON_PASSWORD fills flags.password too: only a --password on the command line conflicts.
    if (this.argv.some((arg) => arg === '--password' || arg.startsWith('--password=')))
      this.error('--password and --password-stdin both give the password: use one of them', { exit: 2 });
    if (process.stdin.isTTY)
      this.error(
        '--password-stdin reads the password from a pipe or a file, not a terminal: ' +
          '`cat pw.txt | pingmon login --password-stdin …`, or leave it out to be asked',
        { exit: 2 },
      );
    const password = (await readStdin()).replace(/\r?\n$/, '');
    if (password === '') this.error('--password-stdin: stdin held no password', { exit: 2 });
    if (/[\r\n]/.test(password))
      this.error('--password-stdin: stdin held several lines; give the password alone', { exit: 2 });
    return password;
  }

  private async askUrl(): Promise<string> {
    const url = await this.ask('Server URL (e.g. http://127.0.0.1:8080): ');
    const problem = notAServerUrl(url);
    if (problem) this.error(`the server URL ${problem}`, { exit: 2 });
    return url;
  }

  /** The login, with the second factor's code asked for when the server says the user has one. */
  private async logIn(url: string, email: string, password: string, code: string | undefined) {
    const client = createClient({ baseUrl: url });
    try {
      return await client.login(email, password, code);
    } catch (err) {
      if (code !== undefined || !(err instanceof PingmonError) || err.code !== 'second_factor_required') throw err;
    }
    return client.login(email, password, await this.ask('Second-factor code (or a recovery code): '));
  }

  private async ask(question: string, hidden = false): Promise<string> {
    if (!process.stdin.isTTY)
      this.error(
        `missing ${question
          .replace(/[:(].*$/, '')
          .trim()
          .toLowerCase()}: pass it as a flag${hidden ? ' or pipe it in with --password-stdin' : ''} ` +
          '(see pingmon login --help)',
        { exit: 2 },
      );
    const answer = await ask(question, hidden);
    // Ctrl-C ends the command, as a shell's Ctrl-C does, with 130 and nothing more stored.
    if (answer === undefined) this.exit(130);
    // A password is taken as typed; a URL or an email without the spaces around it.
    return hidden ? answer! : answer!.trim();
  }
}
