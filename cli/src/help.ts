import { Help } from '@oclif/core';
import { unknownCommand } from './unknown-command.js';

/** oclif's help, except that the help of an unknown command answers as the command itself would: did you mean, exit 2. */
export default class PingmonHelp extends Help {
  override async showHelp(argv: string[]): Promise<void> {
    const words: string[] = [];
    for (const arg of argv) {
      if (arg === '--' || arg.startsWith('-')) break;
      if (words.length > 0 || arg !== 'help') words.push(arg);
    }
    const known = words.some((_, i) => this.config.findCommand(words.slice(0, i + 1).join(':')));
    if (words.length > 0 && !known && !this.config.findTopic(words.join(':'))) unknownCommand(this.config, words.join(':'));
    return super.showHelp(argv);
  }
}
