import { Errors, Flags } from '@oclif/core';
import { notADuration, parseDuration } from '@pingmon/sdk';

/**
 * A flag taking a duration (docs/cli.md#durations) in whole seconds above 0, as the API counts them; anything
 * else is a usage error (exit 2) naming the flag and the forms.
 */
export const durationFlag = Flags.custom<number>({
  helpValue: 'DURATION',
  parse: async (input, _, { name }) => {
    const seconds = parseDuration(input);
    if (seconds !== undefined && seconds > 0 && Number.isInteger(seconds)) return seconds;
    const what = seconds === undefined ? '' : seconds <= 0 ? 'longer than 0' : 'of whole seconds';
    // A CLIError, as oclif's own flag types throw: a usage error, exit 2.
    throw new Errors.CLIError(notADuration(`--${name}`, input, what));
  },
});
