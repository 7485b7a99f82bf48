import type { Hook } from '@oclif/core';

/** An unknown command fails like every other usage error: one line saying what to do, exit 2. */
const hook: Hook<'command_not_found'> = async function (options) {
  process.stderr.write(
    `pingmon: unknown command "${options.id.replaceAll(':', ' ')}"; run \`pingmon --help\` for the list of commands\n`,
  );
  process.exit(2);
};

export default hook;
