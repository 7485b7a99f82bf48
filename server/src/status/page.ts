import type { MonitorStatus } from '@pingmon/sdk/wire';
import type { DayBar } from '../domain/uptime.js';
import { plural, UPTIME_DAYS, uptimeShare } from '../domain/uptime.js';
import type { PublicMonitor, PublicPage } from '../use-cases/status-page.js';
import { escapeMarkup as e } from './markup.js';
import { STATUS_STYLES } from './styles.js';

// The public status page as HTML (docs/dashboard.md#status-page): server-rendered, no script, the public monitors'
// names, statuses and last 90 days; never a log, and an error message only when the page's owner chose so.

const STATES: Readonly<Record<MonitorStatus, { word: string; tone: string }>> = {
  up: { word: 'Up', tone: 'ok' },
  down: { word: 'Down', tone: 'bad' },
  late: { word: 'Late', tone: 'pending' },
  running: { word: 'Running', tone: 'running' },
  new: { word: 'No runs yet', tone: 'muted' },
  paused: { word: 'Paused', tone: 'muted' },
};

const DAY_WORDS: Readonly<Record<DayBar['state'], string>> = {
  ok: 'runs, no failure',
  failed: 'a failure, a missed run or a timeout',
  none: 'no runs recorded, or before the monitor',
};

/** The longest error message shown: the page is an overview, the dashboard has the rest. */
const ERROR_MAX_CHARS = 300;

export function renderStatusPage(page: PublicPage, now: number): string {
  const title = page.title ?? page.slug;
  const body =
    `<header><h1>${e(title)}</h1>${summary(page.monitors)}` +
    `<p class="muted">As of ${minute(now)} UTC. Each bar is a day (UTC), the last ${UPTIME_DAYS} days, ` +
    'today on the right.</p></header>' +
    (page.monitors.length === 0
      ? '<p>No monitors are shown on this page yet.</p>'
      : `<ul class="monitors">${page.monitors.map((m) => monitorItem(m, page.showErrorMessages)).join('')}</ul>` +
        legend()) +
    '<footer class="muted">Monitored with pingmon.</footer>';
  return document(`${title} status`, body);
}

export function renderNotFound(): string {
  return document(
    'No status page',
    '<h1>No status page here</h1><p>No status page has this address. Check the link with whoever gave it to you.</p>',
  );
}

function document(title: string, body: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="color-scheme" content="light dark">' +
    `<title>${e(title)}</title><link rel="icon" href="data:,"><style>${STATUS_STYLES}</style></head>` +
    `<body><main>${body}</main></body></html>`
  );
}

function summary(monitors: readonly PublicMonitor[]): string {
  const count = (status: MonitorStatus) => monitors.filter((m) => m.status === status).length;
  const total = monitors.length;
  const [down, late, paused, fresh] = [count('down'), count('late'), count('paused'), count('new')];
  let line: string;
  let tone: string;
  if (down > 0) {
    line = `${down} of ${plural(total, 'monitor')} down${late > 0 ? `, ${late} late` : ''}`;
    tone = 'bad';
  } else if (late > 0) {
    line = `${late} of ${plural(total, 'monitor')} late`;
    tone = 'pending';
  } else if (total - paused - fresh > 0) {
    line = `All monitors up${paused > 0 ? ` (${paused} paused)` : ''}`;
    tone = 'ok';
  } else {
    line = total === 0 ? 'Nothing to show yet' : 'No monitor has reported yet';
    tone = 'muted';
  }
  return `<p class="summary ${tone}">${e(line)}</p>`;
}

function monitorItem({ monitor, status, lastRun, bars }: PublicMonitor, showErrorMessages: boolean): string {
  const state = STATES[status];
  const share = uptimeShare(bars);
  const facts = lastRun
    ? [
        `Last run ${minute(lastRun.startedAt)} UTC`,
        share === null ? `no runs in the last ${UPTIME_DAYS} days` : `${share} of days with runs had no failure`,
      ]
    : ['No runs recorded'];
  const error =
    showErrorMessages && status === 'down' && lastRun?.status === 'failed' && lastRun.errorMessage
      ? `<p class="error">${e(cut(lastRun.errorMessage))}</p>`
      : '';
  return (
    `<li class="monitor"><div class="head"><h2>${e(monitor.name)}</h2>` +
    `<span class="state ${state.tone}">${state.word}</span></div>` +
    `<p class="muted">${e(facts.join(' · '))}</p>${error}` +
    `<ol class="bars" aria-label="${e(monitor.name)}, the last ${UPTIME_DAYS} days">` +
    bars
      .map(
        (bar) => `<li class="day-${bar.state}" title="${e(bar.text)}"><span class="sr-only">${e(bar.text)}</span></li>`,
      )
      .join('') +
    `</ol><p class="axis muted" aria-hidden="true"><span>${UPTIME_DAYS} days ago</span><span>today</span></p></li>`
  );
}

function legend(): string {
  const item = (state: DayBar['state']) =>
    `<li><span class="key day-${state}" aria-hidden="true"></span>${DAY_WORDS[state]}</li>`;
  const items = (['ok', 'failed', 'none'] as const).map(item).join('');
  return `<ul class="legend muted" aria-label="What the colours mean">${items}</ul>`;
}

/** "2027-03-27 12:00". */
function minute(at: number): string {
  return new Date(at).toISOString().slice(0, 16).replace('T', ' ');
}

function cut(text: string): string {
  const chars = [...text];
  return chars.length <= ERROR_MAX_CHARS ? text : `${chars.slice(0, ERROR_MAX_CHARS - 1).join('')}…`;
}
