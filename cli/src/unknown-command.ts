import type { Interfaces } from '@oclif/core';
import { didYouMean } from './did-you-mean.js';

/**
 * Says that `id` (oclif's, words joined by `:`) is no command, with the nearest commands or topics, and exits 2.
 * Shared by the command_not_found hook and `--help`/`pingmon help` of an unknown command: the two answer alike.
 */
export function unknownCommand(config: Interfaces.Config, id: string): never {
  const typed = id.replaceAll(':', ' ');
  const commands = config.commands.filter((command) => !command.hidden).map((command) => command.id);
  const names = [...commands, ...config.topics.map((topic) => topic.name)].map((name) => name.replaceAll(':', ' '));
  const suggestion = didYouMean(typed, names, (name) => `pingmon ${name}`);
  const hint = suggestion
    ? `${suggestion} (\`pingmon --help\` lists the commands)`
    : 'run `pingmon --help` for the list of commands';
  process.stderr.write(`pingmon: unknown command "${typed}"; ${hint}\n`);
  process.exit(2);
}
