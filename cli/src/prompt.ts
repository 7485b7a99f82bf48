import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/**
 * Asks `question` on the terminal; undefined on Ctrl-C. A hidden answer is edited as any other (backspace,
 * Ctrl-U), but readline echoes it to a stream that keeps nothing: only the question reaches the terminal.
 */
export async function ask(question: string, hidden = false): Promise<string | undefined> {
  const output = hidden ? new Writable({ write: (_chunk, _encoding, done) => done() }) : process.stdout;
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  // Asked once the terminal echoes nothing itself (readline has put it in raw mode).
  if (hidden) process.stdout.write(question);
  // Ctrl-C: readline only pauses by itself (and node would then exit with 13); the caller ends the command.
  const answer = await new Promise<string | undefined>((resolve) => {
    rl.once('SIGINT', () => resolve(undefined));
    rl.question(hidden ? '' : question, resolve);
  });
  rl.close();
  if (answer === undefined || hidden) process.stdout.write('\n');
  return answer;
}
