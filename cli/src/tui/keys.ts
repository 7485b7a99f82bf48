import type { Key } from 'ink';
import type { Action, State } from './state.js';

export type Command = Exclude<Action, { type: 'key' }>;

/** What a key does, given the state: the whole key map in one place (docs/cli.md lists the same). */
export function commandFor(state: State, input: string, key: Partial<Key>): Command | undefined {
  if (key.ctrl && input === 'c') return { type: 'quit' };
  if (state.screen === 'monitors' && state.monitors.filtering) return filterCommand(input, key);
  const back = key.escape || key.backspace || key.delete;
  if (state.help) return input === 'q' ? { type: 'quit' } : input === '?' || back ? { type: 'toggleHelp' } : undefined;
  if (key.upArrow || input === 'k') return { type: 'move', by: -1 };
  if (key.downArrow || input === 'j') return { type: 'move', by: 1 };
  if (key.pageUp) return { type: 'page', by: -1 };
  if (key.pageDown || input === ' ') return { type: 'page', by: 1 };
  if (key.return) return { type: 'open' };
  if (back) return { type: 'back' };
  switch (input) {
    case 'g':
      return { type: 'jump', to: 'top' };
    case 'G':
      return { type: 'jump', to: 'bottom' };
    case 'q':
      return { type: 'quit' };
    case '?':
      return { type: 'toggleHelp' };
    case 'r':
      return { type: 'refresh' };
    case '/':
      return state.screen === 'monitors' ? { type: 'filterStart' } : undefined;
    case 'f':
      return state.screen === 'runs' ? { type: 'toggleFailedOnly' } : undefined;
    case 'p':
      return state.screen === 'monitors' ? { type: 'togglePause' } : undefined;
    case 'z':
      return state.screen === 'monitors' ? { type: 'cycleSnooze' } : undefined;
    case 'e':
      return state.screen === 'detail' ? { type: 'toggleLog' } : undefined;
    default:
      return undefined;
  }
}

/**
 * Keys that reach the program together (typed faster than it reads, sent by tmux send-keys, pasted) arrive as
 * one input; taken one by one they do what they would have done alone.
 */
export function splitKeys(input: string, key: Partial<Key>): Array<[string, Partial<Key>]> {
  const flagged = Object.values(key).some(Boolean);
  if (input.length <= 1 || flagged || input.includes('\x1b')) return [[input, key]];
  return [...input].map((char): [string, Partial<Key>] => {
    if (char === '\r' || char === '\n') return ['', { return: true }];
    if (char === '\x7f' || char === '\b') return ['', { backspace: true }];
    return [char, {}];
  });
}

/** While typing a filter, letters are text; arrows still move and Enter still opens. */
function filterCommand(input: string, key: Partial<Key>): Command | undefined {
  if (key.escape) return { type: 'filterClear' };
  if (key.return) return { type: 'filterDone' };
  if (key.backspace || key.delete) return { type: 'filterErase' };
  if (key.upArrow) return { type: 'move', by: -1 };
  if (key.downArrow) return { type: 'move', by: 1 };
  if (key.ctrl || key.meta || key.tab || key.pageUp || key.pageDown || key.leftArrow || key.rightArrow)
    return undefined;
  // Pasted text arrives as one input: keep what is printable of it.
  const text = input.replace(/[\x00-\x1f\x7f-\x9f]/g, '');
  return text ? { type: 'filterType', text } : undefined;
}
