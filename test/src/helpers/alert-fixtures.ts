import type { AlertContent } from '@pingmon/server/internal';

/** What a matched rule without a baseline or a window holds beside its comparison. */
export const FIXED_RULE = { baseline: null, window: null, median: null };

/** A job's log as it usually is: a banner and progress first, the cause at the end. */
const LONG_LOG = [
  '=== nightly backup 2.4.1 on db1 ===',
  '+ pg_dump --format=custom shop > /backup/shop.dump',
  ...Array.from({ length: 30 }, (_, i) => `pg_dump: dumping contents of table "public.t${i + 1}"`),
  '+ tar -czf /backup/files.tgz /data',
  'tar: /data/uploads/2026/11: Cannot open: Permission denied',
  'tar: Exiting with failure status due to previous errors',
  '',
].join('\n');

/**
 * The alerts the documented examples show (docs/alerts.md, "Payloads"): the tests that compare the docs with what
 * the server sends, and the ones about one kind of alert, start from these.
 */
export const ALERT_FIXTURES = {
  fail: {
    event: 'fail',
    alertId: 'alert_0mwrksul2SsbNAWELdY',
    monitorId: 'mon_0mwrksujegHscDsv5wx',
    monitorName: 'nightly backup',
    runId: '01a20144-8f00-7a41-9d7a-2f4f3c1e9b10',
    status: 'failed',
    errorMessage: 'backup.sh exited with code 2',
    logSnippet:
      'tar: /data/db: Cannot open: Permission denied\ntar: Exiting with failure status due to previous errors\n',
    logTail: 'tar: /data/db: Cannot open: Permission denied\ntar: Exiting with failure status due to previous errors',
    meta: { exitCode: 2 },
    matchedRules: [],
    expectedAt: null,
    lastRunAt: null,
    lastRunStatus: null,
    createdAt: Date.parse('2026-11-22T08:29:29.942Z'),
  },
  silent_failure: {
    event: 'silent_failure',
    alertId: 'alert_0mwrltn4Xw2bQe8VZ1s',
    monitorId: 'mon_0mwrltmy9ImY4CyHsUL',
    monitorName: 'orders export',
    runId: '01a2027a-b2dc-76ed-9e66-ad7a75f39d78',
    status: 'success',
    errorMessage: null,
    logSnippet: null,
    logTail: null,
    meta: { rowsProcessed: 0, durationSeconds: 4210, exitCode: 0 },
    matchedRules: [
      { ruleId: 'rule_0mwrltq0islLxFVKxio', metric: 'rowsProcessed', op: 'lt', value: 1, actual: 0, ...FIXED_RULE },
      {
        ruleId: 'rule_0mwrltqzhjiRbP0gOiX',
        metric: 'durationSeconds',
        op: 'gt',
        value: 3600,
        actual: 4210,
        ...FIXED_RULE,
      },
    ],
    expectedAt: null,
    lastRunAt: null,
    lastRunStatus: null,
    createdAt: Date.parse('2026-11-22T08:58:45.893Z'),
  },
  backticks: {
    event: 'fail',
    alertId: 'alert_0mwrm2c8Tq4kHLz0aJm',
    monitorId: 'mon_0mwrm2bx3PjR8sWq5nE',
    monitorName: 'docs build',
    runId: '01a2027f-61c2-7d6e-8f0a-3b9c2d4e5f60',
    status: 'failed',
    errorMessage: 'exit code 1',
    logSnippet: 'README.md:12: unclosed ``` block\n',
    logTail: 'README.md:12: unclosed ``` block',
    meta: { exitCode: 1 },
    matchedRules: [],
    expectedAt: null,
    lastRunAt: null,
    lastRunStatus: null,
    createdAt: Date.parse('2026-11-22T09:03:51.204Z'),
  },
  long_log: {
    event: 'fail',
    alertId: 'alert_0mwxq3v8Lr5nT2cWy7k',
    monitorId: 'mon_0mwrksujegHscDsv5wx',
    monitorName: 'nightly backup',
    runId: '01a2192e-b89b-7145-a681-76bfb7b73ac7',
    status: 'failed',
    errorMessage: 'exit code 2: tar: Exiting with failure status due to previous errors',
    logSnippet: LONG_LOG.slice(0, 500),
    logTail: LONG_LOG.slice(LONG_LOG.indexOf('pg_dump: dumping contents of table "public.t24"')).trimEnd(),
    meta: { exitCode: 2 },
    matchedRules: [],
    expectedAt: null,
    lastRunAt: null,
    lastRunStatus: null,
    createdAt: Date.parse('2026-11-26T03:00:41.067Z'),
  },
  missed: {
    logSnippet: null,
    logTail: null,
    meta: {},
    matchedRules: [],
    event: 'missed',
    alertId: 'alert_0mx9k2c1q8hz4w7e3n5',
    monitorId: 'mon_0mwrksujegHscDsv5wx',
    monitorName: 'nightly backup',
    runId: null,
    status: 'down',
    errorMessage:
      'No run started by 2027-03-28T01:05:00.000Z: ' +
      'one was expected at 2027-03-28 03:00 CEST (01:00 UTC) (startGrace 5m). ' +
      'Last run: started 2027-03-27 03:00 CET (02:00 UTC), succeeded.',
    expectedAt: Date.parse('2027-03-28T01:00:00.000Z'),
    lastRunAt: Date.parse('2027-03-27T02:00:00.000Z'),
    lastRunStatus: 'success',
    host: 'db-1',
    createdAt: Date.parse('2027-03-28T01:05:02.118Z'),
  },
  missed_group: {
    logSnippet: null,
    logTail: null,
    lastRunAt: Date.parse('2027-03-28T09:00:00.000Z'),
    lastRunStatus: 'success',
    meta: {},
    matchedRules: [],
    event: 'missed',
    alertId: 'alert_0mxa3f8k2n7qc5v1d9w',
    monitorId: 'mon_0mwrp4k2c8vDq1x7LsA',
    monitorName: 'sitemap',
    runId: null,
    status: 'down',
    errorMessage:
      'No run started by 2027-03-28T10:02:00.000Z: one was expected at 2027-03-28T10:00:00.000Z (startGrace 2m). ' +
      'Last run: started 2027-03-28T09:00:00.000Z, succeeded.',
    expectedAt: Date.parse('2027-03-28T10:00:00.000Z'),
    host: 'web-1',
    monitors: [
      {
        monitorId: 'mon_0mwrp4k2c8vDq1x7LsA',
        monitorName: 'sitemap',
        expectedAt: Date.parse('2027-03-28T10:00:00.000Z'),
        errorMessage:
          'No run started by 2027-03-28T10:02:00.000Z: one was expected at 2027-03-28T10:00:00.000Z (startGrace 2m). ' +
          'Last run: started 2027-03-28T09:00:00.000Z, succeeded.',
      },
      {
        monitorId: 'mon_0mwrp4m9e1tHs6y2KqB',
        monitorName: 'cache warmup',
        expectedAt: Date.parse('2027-03-28T10:00:00.000Z'),
        errorMessage:
          'No run started by 2027-03-28T10:02:00.000Z: one was expected at 2027-03-28T10:00:00.000Z (startGrace 2m). ' +
          'Last run: started 2027-03-28T09:00:00.000Z, succeeded.',
      },
      {
        monitorId: 'mon_0mwrp4p3g5wJu8z4MrC',
        monitorName: 'mail queue',
        expectedAt: Date.parse('2027-03-28T10:00:00.000Z'),
        errorMessage:
          'No run started by 2027-03-28T10:02:00.000Z: one was expected at 2027-03-28T10:00:00.000Z (startGrace 2m). ' +
          'Last run: started 2027-03-28T09:00:00.000Z, succeeded.',
      },
    ],
    createdAt: Date.parse('2027-03-28T10:02:01.604Z'),
  },
  timed_out: {
    logSnippet: null,
    logTail: null,
    meta: {},
    matchedRules: [],
    event: 'timed_out',
    alertId: 'alert_0mx9m7d2r3kb8v1f6t4',
    monitorId: 'mon_0mwrltmy9ImY4CyHsUL',
    monitorName: 'orders export',
    runId: '01a20d3e-5c41-7b2a-9f10-6e8d4c2b1a09',
    status: 'failed',
    errorMessage: 'no result within maxRuntime (2h)',
    expectedAt: null,
    lastRunAt: null,
    lastRunStatus: null,
    createdAt: Date.parse('2027-03-28T06:00:03.507Z'),
  },
  recovered: {
    logSnippet: null,
    logTail: null,
    meta: {},
    matchedRules: [],
    event: 'recovered',
    alertId: 'alert_0mx9q1e5t6ma2y9g8u7',
    monitorId: 'mon_0mwrksujegHscDsv5wx',
    monitorName: 'nightly backup',
    runId: '01a48ed3-1092-7f5e-8a6c-1d2e3f4a5b6c',
    status: 'up',
    errorMessage: 'Up again: 1 missed run, down 1d2m.',
    expectedAt: null,
    lastRunAt: null,
    lastRunStatus: null,
    createdAt: Date.parse('2027-03-29T01:07:41.330Z'),
  },
} satisfies Record<string, AlertContent>;
