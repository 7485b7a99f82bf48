import type { KeyFlags } from './key-reader.js';
import type { Action, State } from './state.js';

export type Command = Exclude<Action, { type: 'key' } | { type: 'keys' }>;

/** What a key does, given the state: the whole key map in one place (docs/cli.md lists the same). */
export function commandFor(state: State, input: string, key: KeyFlags): Command | undefined {
  if (key.ctrl && input === 'c') return { type: 'quit' };
  if (state.screen === 'monitors' && state.monitors.filtering) return filterCommand(input, key);
  const back = key.escape || key.backspace || key.delete;
  if (state.help) return input === 'q' ? { type: 'quit' } : input === '?' || back ? { type: 'toggleHelp' } : undefined;
  // Text pasted outside the filter is not keys: a pasted "pz" must not pause and snooze a monitor.
  if (key.paste) return undefined;
  if (key.upArrow || input === 'k') return { type: 'move', by: -1 };
  if (key.downArrow || input === 'j') return { type: 'move', by: 1 };
  if (key.pageUp) return { type: 'page', by: -1 };
  if (key.pageDown || input === ' ') return { type: 'page', by: 1 };
  if (key.home) return { type: 'jump', to: 'top' };
  if (key.end) return { type: 'jump', to: 'bottom' };
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
      if (state.screen === 'timeline') return { type: 'cycleEventFilter' };
      return state.screen === 'runs' ? { type: 'toggleFailedOnly' } : undefined;
    case 's':
      return state.screen === 'runs' || state.screen === 'detail' ? { type: 'toggleSameFailure' } : undefined;
    case 't':
      return state.screen === 'runs' || state.screen === 'timeline' ? { type: 'toggleTimeline' } : undefined;
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

/** While typing a filter, letters are text; arrows still move and Enter still opens. */
function filterCommand(input: string, key: KeyFlags): Command | undefined {
  if (key.escape) return { type: 'filterClear' };
  if (key.return) return { type: 'filterDone' };
  if (key.backspace || key.delete) return { type: 'filterErase' };
  if (key.upArrow) return { type: 'move', by: -1 };
  if (key.downArrow) return { type: 'move', by: 1 };
  if (!input || key.ctrl || key.meta) return undefined;
  // Pasted text (one input, which may hold line ends and tabs): what is printable of it.
  const text = input.replace(/[\x00-\x1f\x7f-\x9f]/g, ' ').replace(/\s+/g, ' ');
  return text ? { type: 'filterType', text } : undefined;
}
