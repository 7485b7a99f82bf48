import type { ApiError } from '../api.js';

/** What went wrong reading a page; `stale` when the page still shows what it read before. */
export function Problem({ error, stale }: { error: ApiError | undefined; stale: boolean }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {error.message}
      {stale ? ' Showing what was read before; trying again.' : ' Trying again.'}
    </p>
  );
}

/** Why a change made on the page (create, delete, test) was refused, or nothing. */
export function Failure({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="error" role="alert">
      {message}
    </p>
  );
}
