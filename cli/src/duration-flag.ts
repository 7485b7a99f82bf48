import { Errors, Flags } from '@oclif/core';
import { UsageError, settingSeconds } from './schedule-settings.js';

/**
 * A flag taking a duration (docs/cli.md#durations) in whole seconds above 0, as the API counts them; anything
 * else is a usage error (exit 2) naming the flag and the forms.
 */
export const durationFlag = Flags.custom<number>({
  helpValue: 'DURATION',
  parse: async (input, _, { name }) => {
    try {
      return settingSeconds(name, input);
    } catch (err) {
      // A CLIError, as oclif's own flag types throw: a usage error, exit 2.
      if (err instanceof UsageError) throw new Errors.CLIError(err.message);
      throw err;
    }
  },
});
