import { clean } from '@pingmon/sdk/wire';
import type { MonitorStatus } from '@pingmon/sdk/wire';
import { escapeMarkup } from './markup.js';
import { textWidth } from './text-width.js';

// A monitor's badge for a README (docs/dashboard.md#badges): shields.io's "flat" style as SVG, or the JSON of its
// endpoint badge (https://shields.io/badges/endpoint-badge), which shields.io draws in any of its styles.

/** A badge's right half: the status in a word, in the colour shields.io names. */
export const BADGE_FACES: Readonly<Record<MonitorStatus, { message: string; color: BadgeColor }>> = {
  up: { message: 'up', color: 'brightgreen' },
  down: { message: 'down', color: 'red' },
  late: { message: 'late', color: 'yellow' },
  running: { message: 'running', color: 'blue' },
  new: { message: 'new', color: 'lightgrey' },
  paused: { message: 'paused', color: 'lightgrey' },
};

type BadgeColor = 'brightgreen' | 'red' | 'yellow' | 'blue' | 'lightgrey';

const HEX: Readonly<Record<BadgeColor, string>> = {
  brightgreen: '#4c1',
  red: '#e05d44',
  yellow: '#dfb317',
  blue: '#007ec6',
  lightgrey: '#9f9f9f',
};

/** shields.io's endpoint JSON. */
export interface BadgeJson {
  schemaVersion: 1;
  label: string;
  message: string;
  color: BadgeColor;
}

export function badgeJson(label: string, status: MonitorStatus): BadgeJson {
  return { schemaVersion: 1, label: oneLine(label), ...BADGE_FACES[status] };
}

/** Padding on each side of a half's text, in pixels. */
const PAD = 5;

/** The flat badge "label | status" as an SVG document, its halves as wide as their text. */
export function badgeSvg(name: string, status: MonitorStatus): string {
  const label = oneLine(name);
  const { message, color } = BADGE_FACES[status];
  const labelText = Math.round(textWidth(label));
  const messageText = Math.round(textWidth(message));
  const left = labelText + 2 * PAD;
  const right = messageText + 2 * PAD;
  const width = left + right;
  const title = escapeMarkup(`${label}: ${message}`);
  // Text is drawn at ten times its size and scaled down, as shields.io does, for finer positions.
  const text = (content: string, middle: number, length: number) => {
    const escaped = escapeMarkup(content);
    const at = `x="${middle * 10}" transform="scale(.1)" textLength="${length * 10}"`;
    return (
      `<text aria-hidden="true" ${at} y="150" fill="#010101" fill-opacity=".3">${escaped}</text>` +
      `<text ${at} y="140">${escaped}</text>`
    );
  };
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${title}">` +
    `<title>${title}</title>` +
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/>' +
    '<stop offset="1" stop-opacity=".1"/></linearGradient>' +
    `<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)"><rect width="${left}" height="20" fill="#555"/>` +
    `<rect x="${left}" width="${right}" height="20" fill="${HEX[color]}"/>` +
    `<rect width="${width}" height="20" fill="url(#s)"/></g>` +
    '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" ' +
    'text-rendering="geometricPrecision" font-size="110">' +
    text(label, left / 2, labelText) +
    text(message, left + right / 2, messageText) +
    '</g></svg>'
  );
}

/** A name as a badge shows it: without control characters, on one line. */
function oneLine(name: string): string {
  return clean(name).replace(/\s+/g, ' ').trim();
}
