import { testContent } from '../payloads.js';
import type { AlertContent } from '../payloads.js';

// Made-up alerts of every event, one each (a missed alert also grouped): what a channel's message is checked against
// before any real alert exists, and what a preview shows.

/** A matched rule that compares with its value alone, and on one run. */
const FIXED = { baseline: null, window: null, median: null };

const BASE = {
  monitorId: 'mon_0mwrksujegHscDsv5wx',
  monitorName: 'nightly backup',
  monitorSlug: 'nightly-backup',
  logSnippet: null,
  logTail: null,
  meta: {},
  matchedRules: [],
  expectedAt: null,
  lastRunAt: null,
  lastRunStatus: null,
  incidentKey: 'inc_0mx9k2c1q8hz4w7e3n5',
  links: {
    monitor: 'https://pingmon.example.com/monitors/mon_0mwrksujegHscDsv5wx',
    run: null,
  },
};

const LOG =
  '+ pg_dump --format=custom shop > /backup/shop.dump\n+ tar -czf /backup/files.tgz /data\n' +
  'tar: /data/uploads: Cannot open: Permission denied\ntar: Exiting with failure status due to previous errors\n';

const RUN = '01a20144-8f00-7a41-9d7a-2f4f3c1e9b10';
const runLinks = { ...BASE.links, run: `${BASE.links.monitor}/runs/${RUN}` };
const missedError =
  'No run started by 2027-03-28T01:05:00.000Z: one was expected at 2027-03-28 03:00 CEST (01:00 UTC) ' +
  '(startGrace 5m). Last run: started 2027-03-27 03:00 CET (02:00 UTC), succeeded.';

export const SAMPLE_ALERTS: Record<string, AlertContent> = {
  fail: {
    ...BASE,
    event: 'fail',
    alertId: 'alert_0mwrksul2SsbNAWELdY',
    runId: RUN,
    status: 'failed',
    errorMessage: 'backup.sh exited with code 2',
    logSnippet: LOG,
    logTail: LOG.trimEnd(),
    meta: { exitCode: 2 },
    createdAt: Date.parse('2027-03-27T02:14:09.942Z'),
    cause: 'fail',
    links: runLinks,
  },
  timed_out: {
    ...BASE,
    event: 'timed_out',
    alertId: 'alert_0mx9m7d2r3kb8v1f6t4',
    runId: RUN,
    status: 'failed',
    errorMessage: 'no result within maxRuntime (2h)',
    createdAt: Date.parse('2027-03-27T04:00:03.507Z'),
    cause: 'timed_out',
    links: runLinks,
  },
  missed: {
    ...BASE,
    event: 'missed',
    alertId: 'alert_0mx9k2c1q8hz4w7e3n5',
    runId: null,
    status: 'down',
    errorMessage: missedError,
    expectedAt: Date.parse('2027-03-28T01:00:00.000Z'),
    lastRunAt: Date.parse('2027-03-27T02:00:00.000Z'),
    lastRunStatus: 'success',
    host: 'db-1',
    createdAt: Date.parse('2027-03-28T01:05:02.118Z'),
    cause: 'missed',
  },
  missed_group: {
    ...BASE,
    event: 'missed',
    alertId: 'alert_0mxa3f8k2n7qc5v1d9w',
    runId: null,
    status: 'down',
    errorMessage: missedError,
    expectedAt: Date.parse('2027-03-28T01:00:00.000Z'),
    lastRunAt: Date.parse('2027-03-27T02:00:00.000Z'),
    lastRunStatus: 'success',
    host: 'db-1',
    monitors: [
      { monitorId: BASE.monitorId, monitorName: BASE.monitorName, expectedAt: Date.parse('2027-03-28T01:00:00.000Z') },
      {
        monitorId: 'mon_0mwrp4m9e1tHs6y2KqB',
        monitorName: 'cache warmup',
        expectedAt: Date.parse('2027-03-28T01:00:00.000Z'),
      },
    ].map((m) => ({ ...m, errorMessage: missedError })),
    createdAt: Date.parse('2027-03-28T01:05:02.118Z'),
    cause: 'missed',
  },
  still_down: {
    ...BASE,
    event: 'still_down',
    alertId: 'alert_0mxb7w2e4r6ty8u0i2o',
    runId: null,
    status: 'down',
    errorMessage: 'Still down: 1 missed run, down 4h (since 2027-03-28T01:05:02.118Z, a run did not start).',
    createdAt: Date.parse('2027-03-28T05:05:02.118Z'),
    cause: 'missed',
  },
  silent_failure: {
    ...BASE,
    event: 'silent_failure',
    alertId: 'alert_0mwrltn4Xw2bQe8VZ1s',
    runId: RUN,
    status: 'success',
    errorMessage: null,
    meta: { rowsProcessed: 0, durationSeconds: 4210, exitCode: 0 },
    matchedRules: [
      { ruleId: 'rule_0mwrltq0islLxFVKxio', metric: 'rowsProcessed', op: 'lt', value: 1, actual: 0, ...FIXED },
      { ruleId: 'rule_0mwrltqzhjiRbP0gOiX', metric: 'durationSeconds', op: 'gt', value: 3600, actual: 4210, ...FIXED },
    ],
    createdAt: Date.parse('2027-03-27T03:10:45.893Z'),
    incidentKey: null,
    links: runLinks,
  },
  recovered: {
    ...BASE,
    event: 'recovered',
    alertId: 'alert_0mx9q1e5t6ma2y9g8u7',
    runId: RUN,
    status: 'up',
    errorMessage: 'Up again: 1 missed run, down 1d2m.',
    createdAt: Date.parse('2027-03-29T01:07:41.330Z'),
    cause: 'missed',
    links: runLinks,
  },
  test: testContent('my channel', Date.parse('2027-03-29T09:00:00.000Z')),
};
