import { useEffect } from 'react';

// The browser tab belongs to the whole document, so its state is the document's: the open page's title, and how
// many monitors are down (from the monitors page's poll, or a lighter one on every other page: tab-status.tsx).
let pageTitle = 'pingmon';
let down: number | undefined;

const RED = '#d1242f';
const GREEN = '#1a7f37';
const GREY = '#6e7781';

/** A dot: red with a "!" when a monitor is down, green when none is, grey before anything is known. */
function favicon(count: number | undefined): string {
  const fill = count === undefined ? GREY : count > 0 ? RED : GREEN;
  const mark = count
    ? '<rect x="7" y="3" width="2" height="6.5" rx="1" fill="#fff"/><circle cx="8" cy="12" r="1.3" fill="#fff"/>'
    : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7.5" fill="${fill}"/>${mark}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function show(): void {
  document.title = down ? `(${down} down) ${pageTitle}` : pageTitle;
  const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (icon) icon.href = favicon(down);
}

/** The tab's title while the page is shown: its parts (those given) and "pingmon", joined by " · ". */
export function useTitle(...parts: Array<string | undefined>): void {
  const title = [...parts.filter(Boolean), 'pingmon'].join(' · ');
  useEffect(() => {
    pageTitle = title;
    show();
  }, [title]);
}

/** How many monitors are down; undefined when not known (signed out). */
export function setDownCount(count: number | undefined): void {
  if (count === down) return;
  down = count;
  show();
}
