import { Args, loadHelpClass } from '@oclif/core';
import { BaseCommand } from '../base-command.js';

export default class HelpCommand extends BaseCommand {
  static override summary = 'Show the help of pingmon or of one of its commands (as `pingmon COMMAND --help`)';
  static override examples = ['<%= config.bin %> help run', '<%= config.bin %> help monitors list'];
  static override strict = false;
  static override args = { command: Args.string({ description: 'the command, e.g. run or monitors list' }) };

  async run(): Promise<void> {
    const { argv } = await this.parse(HelpCommand);
    const Help = await loadHelpClass(this.config);
    await new Help(this.config, this.config.pjson.oclif.helpOptions).showHelp(argv as string[]);
  }
}
