import { Help } from '@oclif/core';
import { unknownCommand } from './unknown-command.js';

/** oclif's help, but the help of an unknown command answers as the command itself: did you mean, exit 2. */
export class PingmonHelp extends Help {
  override async showHelp(argv: string[]): Promise<void> {
    const words: string[] = [];
    for (const arg of argv) {
      if (arg === '--' || arg.startsWith('-')) break;
      if (words.length > 0 || arg !== 'help') words.push(arg);
    }
    const known = words.some((_, i) => this.config.findCommand(words.slice(0, i + 1).join(':')));
    const id = words.join(':');
    if (words.length > 0 && !known && !this.config.findTopic(id)) unknownCommand(this.config, id);
    return super.showHelp(argv);
  }
}
