/**
 * What opening the database changed or found (file modes tightened, a shared data directory), on standard error:
 * the admin commands that open it print it as the server logs it, and their standard output stays theirs.
 */
export function printDatabaseNotices(db: { readonly notices: readonly string[] }): void {
  for (const notice of db.notices) process.stderr.write(`pingmon: ${notice}\n`);
}
