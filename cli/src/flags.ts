import { Flags } from '@oclif/core';

/** Where the data lives, for the commands that open the database themselves (server, admin). */
export const databaseFlags = {
  'data-dir': Flags.string({
    description: 'directory of the embedded SQLite database [env: PINGMON_DATA_DIR; default: $XDG_DATA_HOME/pingmon]',
    helpValue: 'DIR',
  }),
  'database-url': Flags.string({
    description: 'use PostgreSQL instead of SQLite, e.g. postgres://user@host:5432/db [env: PINGMON_DATABASE_URL]',
    helpValue: 'URL',
  }),
};
