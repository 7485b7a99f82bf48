import { createElement } from 'react';
import type { FunctionComponent } from 'react';
import { render } from 'ink-testing-library';
import { waitFor } from '../../helpers/wait.js';

// Helpers of the TUI tests (not a test file itself: tap runs only *.test.js).

const ESCAPES = /\x1b\[[0-9;?]*[A-Za-z]/g;

export const KEYS = {
  up: '\x1b[A',
  down: '\x1b[B',
  pageUp: '\x1b[5~',
  pageDown: '\x1b[6~',
  enter: '\r',
  escape: '\x1b',
  backspace: '\x7f',
  ctrlC: '\x03',
} as const;

export interface Screen {
  /** The last frame, without colours. */
  frame(): string;
  /** Writes keys, one at a time, as a terminal sends them. */
  press(...keys: string[]): void;
  /** Waits until the frame satisfies `ok`, and returns it; fails after `timeoutMs` showing the last frame. */
  waitFor(ok: string | RegExp | ((frame: string) => boolean), timeoutMs?: number): Promise<string>;
  /** Changes the terminal size the way a terminal does: new dimensions, then a 'resize' event. */
  resize(columns: number, rows: number): void;
  unmount(): void;
}

export function renderScreen<P extends object>(
  component: FunctionComponent<P>,
  props: P,
  size = { columns: 100, rows: 30 },
): Screen {
  const instance = render(createElement(component, props));
  const screen: Screen = {
    frame: () => (instance.lastFrame() ?? '').replace(ESCAPES, ''),
    press: (...keys) => {
      for (const key of keys) instance.stdin.write(key);
    },
    waitFor: async (ok, timeoutMs = 15_000) => {
      const test =
        typeof ok === 'function'
          ? ok
          : (frame: string) => (typeof ok === 'string' ? frame.includes(ok) : ok.test(frame));
      let frame = '';
      // A frame changes only after an event turn: each pause gives the app one.
      const seen = await waitFor(() => (test((frame = screen.frame())) ? { frame } : undefined), {
        timeoutMs,
        what: `the screen to show ${String(ok)}`,
        show: () => `last frame:\n${frame}`,
      });
      return seen.frame;
    },
    resize: (columns, rows) => {
      Object.defineProperty(instance.stdout, 'columns', { value: columns, configurable: true });
      Object.defineProperty(instance.stdout, 'rows', { value: rows, configurable: true });
      instance.stdout.emit('resize');
    },
    unmount: () => instance.unmount(),
  };
  screen.resize(size.columns, size.rows);
  return screen;
}

/** The lines of a frame, for assertions on layout. */
export function lines(frame: string): string[] {
  return frame.split('\n');
}
