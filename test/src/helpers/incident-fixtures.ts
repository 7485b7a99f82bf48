import { readFileSync } from 'node:fs';
import { testContent } from '@pingmon/server/internal';
import type { AlertContent } from '@pingmon/server/internal';
import { ALERT_FIXTURES } from './alert-fixtures.js';

// The alerts of ALERT_FIXTURES as the on-call kinds get them: with their incident's key and cause, the monitor's
// slug, the host and the dashboard's links (a server with PINGMON_PUBLIC_URL). docs/alerts.md's on-call examples
// are made from these.

const DASHBOARD = 'https://pingmon.example.com';
const NIGHTLY_INCIDENT = 'inc_0mwrksum9Qz4Lc7Vb2x';
const MISSED_INCIDENT = 'inc_0mx9k2bz7Tq3Wm8Yd1r';

function links(slug: string, runId: string | null): AlertContent['links'] {
  const monitor = `${DASHBOARD}/monitors/${slug}`;
  return { monitor, run: runId === null ? null : `${monitor}/runs/${runId}` };
}

const nightly = { monitorSlug: 'nightly-backup', host: 'db-1' };
const orders = { monitorSlug: 'orders-export', host: 'etl-2' };

export const INCIDENT_FIXTURES = {
  fail: {
    ...ALERT_FIXTURES.fail,
    ...nightly,
    incidentKey: NIGHTLY_INCIDENT,
    cause: 'fail',
    links: links('nightly-backup', ALERT_FIXTURES.fail.runId),
  },
  /** The success that closed the incident the fail alert opened. */
  recovered: {
    ...ALERT_FIXTURES.recovered,
    ...nightly,
    alertId: 'alert_0mws4kq8Rb2nYc6Tz1e',
    runId: '01a20a6f-3c1d-7e52-8b94-5d2f0e7a1c36',
    errorMessage: 'Up again: 2 failed runs, down 18h31m.',
    createdAt: Date.parse('2026-11-23T03:01:12.514Z'),
    incidentKey: NIGHTLY_INCIDENT,
    cause: 'fail',
    links: links('nightly-backup', '01a20a6f-3c1d-7e52-8b94-5d2f0e7a1c36'),
  },
  silent_failure: {
    ...ALERT_FIXTURES.silent_failure,
    ...orders,
    incidentKey: null,
    cause: null,
    links: links('orders-export', ALERT_FIXTURES.silent_failure.runId),
  },
  long_log: {
    ...ALERT_FIXTURES.long_log,
    ...nightly,
    incidentKey: 'inc_0mwxq3v2Hd8kPz5Rn4c',
    cause: 'fail',
    links: links('nightly-backup', ALERT_FIXTURES.long_log.runId),
  },
  timed_out: {
    ...ALERT_FIXTURES.timed_out,
    ...orders,
    incidentKey: 'inc_0mx9m7cz1Wk6Jq3Ha8s',
    cause: 'timed_out',
    links: links('orders-export', ALERT_FIXTURES.timed_out.runId),
  },
  missed: {
    ...ALERT_FIXTURES.missed,
    monitorSlug: 'nightly-backup',
    incidentKey: MISSED_INCIDENT,
    cause: 'missed',
    links: links('nightly-backup', null),
  },
  still_down: {
    ...ALERT_FIXTURES.missed,
    monitorSlug: 'nightly-backup',
    event: 'still_down',
    alertId: 'alert_0mx9p4f7s2lc6x8d1v3',
    errorMessage: 'Still down: 2 missed runs, down 1d.',
    expectedAt: null,
    createdAt: Date.parse('2027-03-29T01:05:01.872Z'),
    incidentKey: MISSED_INCIDENT,
    cause: 'missed',
    links: links('nightly-backup', null),
  },
  missed_group: {
    ...ALERT_FIXTURES.missed_group,
    monitorSlug: 'sitemap',
    incidentKey: 'inc_0mxa3f7y4Pw9Kd2Zt6m',
    cause: 'missed',
    links: links('sitemap', null),
  },
  test: testContent('on-call', Date.parse('2026-11-22T09:14:03.118Z')),
} satisfies Record<string, AlertContent>;

/** A send's context; a test message's incident is keyed by its messageKey. */
export const CONTEXT = {
  nowSeconds: Date.parse('2026-11-22T08:29:30.000Z') / 1000,
  messageKey: 'msg_0mwrkt2Gf7Lq1Xc9Vb4',
};

/**
 * The examples of one kind in docs/alerts.md, each marked `<!-- example: <type> <fixture> -->` above its ```json
 * block: [fixture name, the JSON].
 */
export function docsExamples(type: string): Array<[string, unknown]> {
  const docs = readFileSync(new URL('../../../docs/alerts.md', import.meta.url), 'utf8');
  const marked = new RegExp(`<!-- example: ${type} (\\w+) -->\\n\`\`\`json\\n([\\s\\S]*?)\`\`\`\\n`, 'g');
  return [...docs.matchAll(marked)].map((m) => [m[1]!, JSON.parse(m[2]!)]);
}
