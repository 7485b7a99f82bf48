import { Fragment } from 'react';
import { Link } from '../router.js';

/** The pages above this one, each a link, separated by "/" (none after the last: the page's own heading follows). */
export function Crumbs({ trail }: { trail: ReadonlyArray<{ to: string; label: string }> }) {
  return (
    <nav className="crumbs" aria-label="Breadcrumb">
      {trail.map((crumb, i) => (
        <Fragment key={crumb.to}>
          {i > 0 && <span aria-hidden="true"> / </span>}
          <Link to={crumb.to}>{crumb.label}</Link>
        </Fragment>
      ))}
    </nav>
  );
}
