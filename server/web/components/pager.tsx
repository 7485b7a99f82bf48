import { useState } from 'react';

/** Where one is in a paged list: the cursors of the pages before this one (none on the first page). */
export interface Pages {
  cursor: string | undefined;
  back: (() => void) | undefined;
  forward: (nextCursor: string) => void;
}

export function usePages(): Pages {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    cursor: cursors.at(-1),
    back: cursors.length > 0 ? () => setCursors(cursors.slice(0, -1)) : undefined,
    forward: (nextCursor) => setCursors([...cursors, nextCursor]),
  };
}

/**
 * Newer and Older. A button without a page to go to is disabled; while the next page is read, the current one stays
 * shown and a press is ignored (disabling the pressed button would take the keyboard's focus away from it).
 */
export function Pager(props: { pages: Pages; nextCursor: string | null | undefined; loading: boolean; what: string }) {
  const { pages, nextCursor, loading } = props;
  const older = nextCursor ? () => pages.forward(nextCursor) : undefined;
  const go = (to: (() => void) | undefined) => () => !loading && to?.();
  return (
    <nav className="pager" aria-label={`Pages of ${props.what}`} aria-busy={loading}>
      <button type="button" disabled={!pages.back} onClick={go(pages.back)}>
        Newer
      </button>
      <button type="button" disabled={!older} onClick={go(older)}>
        Older
      </button>
    </nav>
  );
}
