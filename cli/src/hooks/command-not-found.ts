import type { Hook } from '@oclif/core';
import { unknownCommand } from '../unknown-command.js';

/** An unknown command fails like every other usage error: one line saying what to do, exit 2. */
const hook: Hook<'command_not_found'> = async function (options) {
  unknownCommand(options.config, options.id);
};

export default hook;
