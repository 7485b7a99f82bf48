import { clean } from '@pingmon/sdk/wire';

/** A warning on the job's stderr; it may quote the server's or the meta file's text, so it is cleaned. */
export const warn = (message: string) => void process.stderr.write(`[pingmon] ${clean(message)}\n`);
