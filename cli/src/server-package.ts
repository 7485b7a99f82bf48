import { readFileSync } from 'node:fs';
import { Errors } from '@oclif/core';
import type * as ServerPackage from '@pingmon/server';

/**
 * The server is a package of its own, `@pingmon/server`, which job hosts leave out: it brings hapi, knex, pg and
 * better-sqlite3, a native module. Only the commands that open a database load it, and only when they run.
 */
export async function loadServer(command: string): Promise<typeof ServerPackage> {
  try {
    return await import('@pingmon/server');
  } catch (err) {
    if (!isServerMissing(err)) throw err;
    const tarball = `pingmon-server-${ownVersion()}.tgz`;
    throw new Errors.CLIError(
      `${command} needs the server package, which is not installed here: install it beside this one from its ` +
        `tarball, npm install -g ./${tarball} (docs/cli.md#installing; this install has what job hosts need: ` +
        'pingmon run and the API commands)',
      { exit: 1 },
    );
  }
}

/** The server package itself missing; not one of its own dependencies, whose error must show as it is. */
function isServerMissing(err: unknown): boolean {
  const { code, message } = err as { code?: string; message?: string };
  return code === 'ERR_MODULE_NOT_FOUND' && /['"]@pingmon\/server['"]/.test(message ?? '');
}

/** The server package must be the command's own version: its tarball is named after it. */
function ownVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}
