import type { StatusPage } from '@pingmon/sdk';
import { readSettings, resolveSetting } from './settings.js';

// What `pingmon status-page show` and `set` print: the page's public address and each public monitor's badges.

/** The server's address as users open it (the logged-in one, or --url / PINGMON_URL), without /api/v1. */
export function serverAddress(flags: { url?: string }): string {
  const url = resolveSetting('url', flags.url, readSettings()) ?? '';
  return url.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
}

/** The lines describing `page`, its addresses under `server`. */
export function statusPageLines(page: StatusPage, server: string): string[] {
  if (page.path === null) {
    return ['No status page: set one with `pingmon status-page set --slug acme --monitor nightly-backup`.'];
  }
  const pageUrl = server + page.path;
  const errors = page.showErrorMessages ? 'error messages shown' : 'error messages hidden';
  const lines = [`Status page: ${pageUrl}`, `Title: ${page.title ?? page.slug} (${errors})`];
  if (page.monitors.length === 0) {
    lines.push('No public monitors: add some with `pingmon status-page set --monitor SLUG`.');
    return lines;
  }
  lines.push(`Public monitors (${page.monitors.length}):`);
  for (const monitor of page.monitors) {
    const svg = server + monitor.svgBadgePath!;
    lines.push(
      `  ${monitor.slug} (${monitor.name})`,
      `    badge:    ${svg}`,
      `    shields:  https://img.shields.io/endpoint?url=${encodeURIComponent(server + monitor.jsonBadgePath!)}`,
      `    markdown: [![${markdownText(monitor.name)}](${svg})](${pageUrl})`,
    );
  }
  return lines;
}

/** `text` fit for a Markdown image's alt text: brackets and backslashes escaped, on one line. */
function markdownText(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');
}
