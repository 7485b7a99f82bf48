import type { Client } from '@pingmon/sdk';
import { render } from 'ink';
import { App } from './app.js';
import { createSource } from './source.js';

// With bracketed paste on, the terminal marks pasted text (key-reader.ts), so that a paste is not read as keys.
const ENTER_ALTERNATE_SCREEN = '\x1b[?1049h\x1b[H\x1b[?2004h';
const LEAVE_ALTERNATE_SCREEN = '\x1b[?2004l\x1b[?1049l';

/** Runs the dashboard full screen until q; the terminal is given back as it was, whatever happens. */
export async function browse({
  connect,
  url,
  refreshMs,
}: {
  connect: () => Client;
  url: string;
  refreshMs: number;
}): Promise<void> {
  let left = false;
  const leave = () => {
    if (!left) process.stdout.write(LEAVE_ALTERNATE_SCREEN);
    left = true;
  };
  process.stdout.write(ENTER_ALTERNATE_SCREEN);
  process.once('exit', leave);
  try {
    const app = render(<App source={createSource(connect)} url={url} refreshMs={refreshMs} />, { exitOnCtrlC: false });
    await app.waitUntilExit();
  } finally {
    leave();
    process.off('exit', leave);
  }
}
