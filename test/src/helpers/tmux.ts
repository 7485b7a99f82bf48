import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { waitFor } from './wait.js';

interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface TmuxOptions {
  columns: number;
  rows: number;
  /** The environment of the command (PINGMON_* of the test process are not passed on). */
  env: Record<string, string>;
}

/** What the shell prints once the command ends, so a test can see it exit and with which code. */
export const EXITED = /\[exited with (\d+)\]/;

/**
 * A command in a real terminal: a detached tmux session of a fixed size on a private tmux server (its own
 * socket, no user configuration), driven with send-keys and read with capture-pane. Killed in teardown.
 */
export class Tmux {
  private constructor(
    private readonly socket: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * Starts `argv` (quoted for the shell) in a new session. The test calls requireTools(t, 'tmux') first, which skips
   * it without tmux (fails it under CI=true); a tmux that is there but cannot run fails here.
   */
  static start(t: Teardown, argv: string[], options: TmuxOptions): Tmux {
    const version = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
    if (version.error || version.status !== 0) {
      throw new Error(`this test needs tmux, which could not be run: ${version.error?.message ?? version.stderr}`);
    }
    // tap sets FORCE_COLOR=0 and NO_COLOR=1 for its tests: a person's terminal has colours.
    const dropped = (key: string) =>
      key.startsWith('PINGMON_') || key.startsWith('TMUX') || key === 'FORCE_COLOR' || key === 'NO_COLOR';
    const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !dropped(key)));
    const tmux = new Tmux(`pingmon-test-${randomBytes(6).toString('hex')}`, {
      ...clean,
      TERM: 'xterm-256color',
      ...options.env,
    });
    // The shell stays after the command: its exit code stays readable on the screen.
    const script = `${argv.map(quote).join(' ')}; echo "[exited with $?]"; sleep 3600`;
    tmux.run(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      'test',
      '-x',
      String(options.columns),
      '-y',
      String(options.rows),
      script,
    );
    const socketPath = tmux.run('display-message', '-p', '-t', 'test', '#{socket_path}').trim();
    t.teardown(() => {
      // Ends the session's processes too; "no server running" only means they are gone already. tmux leaves
      // its socket file behind.
      spawnSync('tmux', ['-L', tmux.socket, 'kill-server'], { env: tmux.env });
      rmSync(socketPath, { force: true });
    });
    return tmux;
  }

  /** Sends keys by tmux name (Enter, Escape, BSpace, Up, NPage, C-c) or single characters. */
  keys(...keys: string[]): void {
    this.run('send-keys', '-t', 'test', ...keys);
  }

  /** Sends text as typed, every character literally. */
  type(text: string): void {
    this.run('send-keys', '-t', 'test', '-l', text);
  }

  /** Pastes text as a terminal does: marked as pasted (bracketed) when the program asked for that. */
  paste(text: string): void {
    this.run('set-buffer', '-b', 'test', text);
    this.run('paste-buffer', '-p', '-d', '-b', 'test', '-t', 'test');
  }

  /** The screen as text; with `colours`, with the SGR escape sequences tmux keeps for each cell. */
  capture(colours = false): string {
    return this.run('capture-pane', '-p', '-t', 'test', ...(colours ? ['-e'] : []));
  }

  resize(columns: number, rows: number): void {
    this.run('resize-window', '-t', 'test', '-x', String(columns), '-y', String(rows));
  }

  /** Polls the screen until it satisfies `ok` (bounded), and returns it; the error shows the last screen. */
  async waitFor(ok: string | RegExp | ((screen: string) => boolean), timeoutMs = 20_000): Promise<string> {
    const test =
      typeof ok === 'function'
        ? ok
        : (screen: string) => (typeof ok === 'string' ? screen.includes(ok) : ok.test(screen));
    let screen = '';
    // Wrapped: an empty screen can be the one waited for.
    const seen = await waitFor(() => (test((screen = this.capture())) ? { screen } : undefined), {
      timeoutMs,
      intervalMs: 50,
      what: `the terminal to show ${String(ok)}`,
      show: () => `it shows:\n${screen}`,
    });
    return seen.screen;
  }

  private run(...args: string[]): string {
    const result = spawnSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8', env: this.env });
    if (result.error || result.status !== 0)
      throw new Error(`tmux ${args[0]} failed: ${result.error?.message ?? result.stderr}`);
    return result.stdout;
  }
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
