// The public addresses of an account's status page and badges (docs/dashboard.md#status-page), under the server's
// address: written here once, for the server's answers, the CLI and the dashboard.

/** The most monitors a status page shows. */
export const MAX_PUBLIC_MONITORS = 100;

/** The status page of the account of slug `accountSlug`. */
export function statusPagePath(accountSlug: string): string {
  return `/status/${encodeURIComponent(accountSlug)}`;
}

/** A public monitor's badge: an SVG image, or shields.io's endpoint JSON. */
export function badgePath(accountSlug: string, monitorSlug: string, format: 'svg' | 'json'): string {
  return `/badge/${encodeURIComponent(accountSlug)}/${encodeURIComponent(monitorSlug)}.${format}`;
}
