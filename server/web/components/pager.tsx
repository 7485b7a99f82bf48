/**
 * Newer and Older. A button without a page to go to is disabled; while the next page is read, the current one stays
 * shown and a press is ignored (disabling the pressed button would take the keyboard's focus away from it).
 */
export function Pager(props: { newer?: () => void; older?: () => void; loading: boolean; what: string }) {
  const go = (to: (() => void) | undefined) => () => !props.loading && to?.();
  return (
    <nav className="pager" aria-label={`Pages of ${props.what}`} aria-busy={props.loading}>
      <button type="button" disabled={!props.newer} onClick={go(props.newer)}>
        Newer
      </button>
      <button type="button" disabled={!props.older} onClick={go(props.older)}>
        Older
      </button>
    </nav>
  );
}
