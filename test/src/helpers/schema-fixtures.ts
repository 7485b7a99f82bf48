import { checkDatabase } from '@pingmon/server';
import { migrate, MIGRATION_NAMES, migrationsUpTo } from '@pingmon/server/internal';
import type { Knex } from 'knex';
import type { Test } from 'tap';
import { createTestDatabase, knexOf } from './databases.js';
import type { DatabaseKind, TestDatabase } from './databases.js';
import type { TestServer } from './server.js';

// Databases as earlier versions of pingmon left them (docs/deploy.md#upgrading): the real migrations up to a
// version, one at a time, and after each the rows that version wrote, in plain SQL of its schema. A database at
// version N so holds rows written at every version up to N, as one that lived through them does.

/** The versions whose databases are committed as SQL text in test/schema-fixtures/ (src/schema-fixtures.ts). */
export const COMMITTED_VERSIONS = Array.from({ length: MIGRATION_NAMES.length - 1 }, (_, i) => i + 1);
/** The PostgreSQL schema the committed dumps name; a test loading one puts its own in its place. */
export const FIXTURE_SCHEMA = 'pingmon_fixture';

/** 2026-01-01: times are fixed, the fixture files stay the same; tests turn retention off. */
const T0 = Date.UTC(2026, 0, 1);
const at = (minutes: number) => T0 + minutes * 60_000;

export const FIXTURE = {
  email: 'owner@example.com',
  password: 'correct horse battery',
  /** scrypt of the password with a fixed salt, as secrets.ts makes them. */
  passwordHash: 'scrypt$16384$8$1$BwcHBwcHBwcHBwcHBwcHBw$jqNYMZJ6k8yP9UrEwEFdAphyQW3NDqRG8javhwKNA-0',
  accountId: 'acc_fixture0000000001',
  nightly: 'mon_fixture0000000001',
  disk: 'mon_fixture0000000002',
  hourly: 'mon_fixture0000000003',
  weekly: 'mon_fixture0000000004',
  channel: 'ch_fixture00000000001',
} as const;

/** What the API must show of a database made at `version`, once the current server has migrated it. */
export function expectedAt(version: number) {
  const monitors = ['nightly backup'];
  if (version >= 2) monitors.push('disk check');
  if (version >= 4) monitors.push('hourly sync');
  if (version >= 11) monitors.push('Weekly Report');
  // Runs of the nightly backup, oldest first.
  const nightlyRuns = ['run_fixture_ok_v1', 'run_fixture_failed_v1'];
  if (version >= 2) nightlyRuns.push('run_fixture_failed_v2');
  if (version >= 9) nightlyRuns.push('run_fixture_host_v9');
  if (version >= 14) nightlyRuns.push('run_fixture_fingerprint_v14');
  if (version >= 21) nightlyRuns.push('run_fixture_redacted_v21');
  if (version >= 22) nightlyRuns.push('run_fixture_running_v22');
  return {
    monitors,
    nightlyRuns,
    channels: version >= 13 ? ['ops hook', 'on-call repeat'] : version >= 2 ? ['ops hook'] : [],
    // The server may raise more at its start (the hourly sync's missed openings): these must be among them.
    alerts: [
      ...(version >= 2 ? ['alert_fixture00000001'] : []),
      ...(version >= 4 ? ['alert_fixture00000002'] : []),
      ...(version >= 8 ? ['alert_fixture00000003'] : []),
    ],
    rules: (version >= 2 ? 1 : 0) + (version >= 15 ? 1 : 0),
    users: version >= 16 ? 2 : 1,
  };
}

/** The rows each version wrote, in its own columns; versions that only changed columns or indexes add none. */
const ROWS_AT: Record<number, (knex: Knex) => Promise<void>> = {
  1: async (knex) => {
    const { accountId, nightly } = FIXTURE;
    await knex('accounts').insert({ id: accountId, plan: 'unlimited', created_at: at(0) });
    await knex('users').insert({
      id: 'usr_fixture0000000001',
      account_id: accountId,
      email: FIXTURE.email,
      password_hash: FIXTURE.passwordHash,
      created_at: at(0),
    });
    await knex('api_keys').insert({
      id: 'key_fixture0000000001',
      account_id: accountId,
      name: 'cron host',
      prefix: 'pm_fixture',
      key_hash: 'f'.repeat(64),
      created_at: at(0),
      revoked_at: null,
    });
    await knex('monitors').insert({ id: nightly, account_id: accountId, name: 'nightly backup', created_at: at(1) });
    await knex('runs').insert([
      run(nightly, 'run_fixture_ok_v1', 10, { status: 'success', meta: '{"rows":120}', has_log: false }),
      run(nightly, 'run_fixture_failed_v1', 20, { status: 'failed', error_message: 'exit 1', has_log: true }),
    ]);
    await knex('run_logs').insert({ monitor_id: nightly, run_id: 'run_fixture_failed_v1', content: 'disk full\n' });
    await knex('monitors')
      .where('id', nightly)
      .update({ last_opened_at: at(20) });
  },
  2: async (knex) => {
    const { accountId, nightly, disk, channel } = FIXTURE;
    await knex('monitors').insert({ id: disk, account_id: accountId, name: 'disk check', created_at: at(30) });
    await knex('rules').insert({
      id: 'rule_fixture000000001',
      account_id: accountId,
      monitor_id: disk,
      metric: 'free_gb',
      op: '<',
      value: 10,
      created_at: at(31),
    });
    await knex('monitors').where('id', disk).update({ rule_count: 1 });
    await knex('channels').insert({
      id: channel,
      account_id: accountId,
      name: 'ops hook',
      type: 'webhook',
      url: 'https://hooks.example.com/pingmon',
      secret: null,
      restricted: true,
      enabled: true,
      created_at: at(32),
    });
    await knex('channel_monitors').insert({ channel_id: channel, monitor_id: nightly });
    await knex('runs').insert(
      run(nightly, 'run_fixture_failed_v2', 40, { status: 'failed', error_message: 'exit 2', matched_rules: null }),
    );
    await alertFor(knex, 'alert_fixture00000001', 'run_fixture_failed_v2', 41);
  },
  4: async (knex) => {
    const { accountId, hourly, nightly } = FIXTURE;
    await knex('monitors').insert({
      id: hourly,
      account_id: accountId,
      name: 'hourly sync',
      created_at: at(50),
      schedule: '{"cron":"0 * * * *","timezone":"UTC"}',
      start_grace: 300,
      next_expected_at: at(60),
      missed_at: at(65),
    });
    // An incident open on the nightly backup; a missed alert of the hourly sync, which has no run.
    await knex('monitors')
      .where('id', nightly)
      .update({ incident_opened_at: at(40), incident_cause: 'fail', fail_streak: 1 });
    await knex('alerts').insert({
      id: 'alert_fixture00000002',
      account_id: accountId,
      monitor_id: hourly,
      run_id: null,
      event: 'missed',
      status: 'late',
      meta: '{}',
      matched_rules: '[]',
      created_at: at(66),
      expected_at: at(60),
    });
  },
  6: async (knex) => {
    await knex('sessions').insert({
      id: 'ses_fixture0000000001',
      user_id: 'usr_fixture0000000001',
      account_id: FIXTURE.accountId,
      created_at: at(70),
      expires_at: at(70 + 60 * 24 * 365 * 5),
      ended_at: null,
    });
  },
  7: async (knex) => {
    await knex('sweepers').insert({
      id: 'swp_fixture0000000001',
      host: 'pingmon-1',
      pid: 4242,
      process_started_at: at(0),
      interval_ms: 15_000,
      started_at: at(0),
      beat_at: at(80),
      stopped_at: at(80),
    });
  },
  8: async (knex) => {
    await knex('runs').insert(run(FIXTURE.disk, 'run_fixture_failed_v8', 90, { status: 'failed', has_log: true }));
    await knex('run_logs').insert({ monitor_id: FIXTURE.disk, run_id: 'run_fixture_failed_v8', content: 'no space' });
    await alertFor(knex, 'alert_fixture00000003', 'run_fixture_failed_v8', 91, FIXTURE.disk, { log_tail: 'no space' });
  },
  9: async (knex) => {
    await knex('runs').insert(run(FIXTURE.nightly, 'run_fixture_host_v9', 100, { status: 'success', host: 'db-1' }));
  },
  10: async (knex) => {
    await knex('maintenance_windows').insert({
      id: 'mw_fixture00000000001',
      account_id: FIXTURE.accountId,
      cron: '0 2 * * 0',
      timezone: 'Europe/Berlin',
      duration_ms: 3_600_000,
      monitor_ids: JSON.stringify([FIXTURE.nightly]),
      created_at: at(110),
    });
    await knex('monitors')
      .where('id', FIXTURE.disk)
      .update({ snoozed_until: at(60 * 24 * 365 * 5) });
  },
  11: async (knex) => {
    await knex('monitors').insert({
      id: FIXTURE.weekly,
      account_id: FIXTURE.accountId,
      name: 'Weekly Report',
      slug: 'weekly-report',
      created_at: at(120),
    });
  },
  12: async (knex) => {
    await knex('events').insert({
      id: 'evt_fixture0000000001',
      account_id: FIXTURE.accountId,
      monitor_id: FIXTURE.hourly,
      kind: 'paused',
      at: at(130),
      data: '{}',
    });
    await knex('monitors').where('id', FIXTURE.hourly).update({ paused: true });
  },
  13: async (knex) => {
    await knex('channels').insert({
      id: 'ch_fixture00000000002',
      account_id: FIXTURE.accountId,
      name: 'on-call repeat',
      type: 'webhook',
      url: 'https://oncall.example.com/hook',
      restricted: false,
      enabled: true,
      created_at: at(140),
      options: '{}',
      repeat_every: 3600,
    });
  },
  14: async (knex) => {
    await knex('runs').insert(
      run(FIXTURE.nightly, 'run_fixture_fingerprint_v14', 150, { status: 'failed', fingerprint: '0123456789abcdef' }),
    );
  },
  15: async (knex) => {
    await knex('rules').insert({
      id: 'rule_fixture000000002',
      account_id: FIXTURE.accountId,
      monitor_id: FIXTURE.disk,
      metric: 'duration',
      op: '>',
      value: 2,
      created_at: at(160),
      baseline_runs: 10,
      baseline_min_runs: 3,
    });
    await knex('monitors').where('id', FIXTURE.disk).update({ rule_count: 2 });
  },
  16: async (knex) => {
    await knex('users').insert({
      id: 'usr_fixture0000000002',
      account_id: FIXTURE.accountId,
      email: 'viewer@example.com',
      password_hash: FIXTURE.passwordHash,
      created_at: at(170),
      role: 'viewer',
    });
    await knex('invites').insert({
      id: 'inv_fixture0000000001',
      account_id: FIXTURE.accountId,
      email: 'new@example.com',
      role: 'member',
      token_hash: 'e'.repeat(64),
      invited_by: 'usr_fixture0000000001',
      created_at: at(171),
      expires_at: at(171 + 60 * 24 * 7),
    });
  },
  17: async (knex) => {
    await knex('api_keys').insert({
      id: 'key_fixture0000000002',
      account_id: FIXTURE.accountId,
      name: 'read only',
      prefix: 'pm_fixtur2',
      key_hash: 'd'.repeat(64),
      created_at: at(180),
      scope: 'read',
      monitor_ids: JSON.stringify([FIXTURE.nightly]),
    });
  },
  18: async (knex) => {
    await knex('audit_entries').insert({
      id: 'aud_fixture0000000001',
      account_id: FIXTURE.accountId,
      at: at(190),
      actor_type: 'user',
      actor_id: 'usr_fixture0000000001',
      actor_name: FIXTURE.email,
      address: '192.0.2.1',
      action: 'monitor.create',
      target_type: 'monitor',
      target_id: FIXTURE.weekly,
      target_name: 'Weekly Report',
      monitor_id: FIXTURE.weekly,
    });
  },
  19: async (knex) => {
    await knex('accounts').where('id', FIXTURE.accountId).update({ slug: 'fixture-co' });
    await knex('status_pages').insert({ account_id: FIXTURE.accountId, title: 'Fixture Co', updated_at: at(200) });
    await knex('status_page_monitors').insert({
      account_id: FIXTURE.accountId,
      monitor_id: FIXTURE.nightly,
      position: 0,
    });
  },
  20: async (knex) => {
    // The viewer's second factor: the owner signs in with a password alone in the tests.
    await knex('second_factors').insert({
      user_id: 'usr_fixture0000000002',
      account_id: FIXTURE.accountId,
      secret: 'JBSWY3DPEHPK3PXP',
      created_at: at(210),
      enabled_at: at(211),
    });
    await knex('recovery_codes').insert({
      user_id: 'usr_fixture0000000002',
      code_hash: 'c'.repeat(64),
      created_at: at(211),
    });
  },
  21: async (knex) => {
    await knex('runs').insert(
      run(FIXTURE.nightly, 'run_fixture_redacted_v21', 220, { status: 'success', redactions: 2 }),
    );
  },
  22: async (knex) => {
    await knex('runs').insert(
      run(FIXTURE.nightly, 'run_fixture_running_v22', 230, { status: 'running', finished_at: null, duration_ms: null }),
    );
    await knex('run_outputs').insert({
      monitor_id: FIXTURE.nightly,
      run_id: 'run_fixture_running_v22',
      content: 'copying…\n',
      from_offset: 0,
      to_offset: 9,
      updated_at: at(231),
    });
  },
};

function run(monitorId: string, id: string, minute: number, columns: Record<string, unknown>) {
  return {
    monitor_id: monitorId,
    id,
    account_id: FIXTURE.accountId,
    started_at: at(minute),
    finished_at: at(minute) + 2_000,
    duration_ms: 2_000,
    meta: '{}',
    error_message: null,
    has_log: false,
    ...columns,
  };
}

async function alertFor(
  knex: Knex,
  id: string,
  runId: string,
  minute: number,
  monitorId: string = FIXTURE.nightly,
  columns: Record<string, unknown> = {},
) {
  await knex('alerts').insert({
    id,
    account_id: FIXTURE.accountId,
    monitor_id: monitorId,
    run_id: runId,
    event: 'fail',
    status: 'failed',
    error_message: 'exit 2',
    log_snippet: 'disk full',
    meta: '{}',
    matched_rules: '[]',
    created_at: at(minute),
    ...columns,
  });
  await knex('alert_deliveries').insert({
    alert_id: id,
    channel_id: FIXTURE.channel,
    state: 'delivered',
    attempts: 1,
    next_attempt_at: at(minute),
    delivered_at: at(minute) + 200,
  });
  await knex('delivery_attempts').insert({
    alert_id: id,
    channel_id: FIXTURE.channel,
    attempt: 1,
    attempted_at: at(minute),
    duration_ms: 200,
    status_code: 200,
  });
}

/** Migrates an empty database to `version` (1 = 001-initial), writing each version's rows on the way. */
export async function buildFixture(knex: Knex, kind: DatabaseKind, version: number): Promise<void> {
  for (let step = 1; step <= version; step++) {
    await migrate(knex, kind, migrationsUpTo(step));
    await ROWS_AT[step]?.(knex);
  }
}

/** Retention off: the fixtures' rows are dated 2026-01-01 and must all be there to be read back. */
export const NO_RETENTION = { retentionMs: null, auditRetentionMs: null };

/** A fresh test database migrated to `version`, holding the rows every version up to it wrote. */
export async function databaseAt(t: Test, kind: DatabaseKind, version: number): Promise<TestDatabase> {
  const db = await createTestDatabase(kind);
  t.teardown(() => db.drop());
  const knex = knexOf(db);
  try {
    if (kind === 'postgres') await knex.raw('create schema ??', [db.databaseSchema!]);
    await buildFixture(knex, kind, version);
  } finally {
    await knex.destroy();
  }
  return db;
}

export async function login(api: TestServer, email: string = FIXTURE.email): Promise<string> {
  const reply = await api.request('/auth/login', { body: { email, password: FIXTURE.password } });
  if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${reply.text}`);
  return reply.body.token;
}

async function read(api: TestServer, token: string, path: string) {
  const reply = await api.request(path, { token });
  if (reply.status !== 200) throw new Error(`GET ${path} answered ${reply.status}: ${reply.text}`);
  return reply.body;
}

const names = (items: Array<{ name: string }>) => items.map((item) => item.name).sort();

/** The data of a database made at `version`, read back through the API of `api`, a server that migrated it. */
export async function readsBack(t: Test, api: TestServer, version: number): Promise<void> {
  const expected = expectedAt(version);
  const token = await login(api);

  const { monitors } = await read(api, token, '/monitors?limit=100');
  t.same(names(monitors), [...expected.monitors].sort(), 'every monitor');
  const { runs } = await read(api, token, `/monitors/${FIXTURE.nightly}/runs?limit=100`);
  t.same(runs.map((run: { runId: string }) => run.runId).sort(), [...expected.nightlyRuns].sort(), 'every run');
  const log = await read(api, token, `/monitors/${FIXTURE.nightly}/runs/run_fixture_failed_v1/log`);
  t.same(log, { hasLog: true, content: 'disk full\n' }, 'a log');
  const { channels } = await read(api, token, '/channels');
  t.same(names(channels), [...expected.channels].sort(), 'every channel');
  const { alerts } = await read(api, token, '/alerts?limit=100');
  const alertIds = alerts.map((alert: { alertId: string }) => alert.alertId);
  t.same(
    expected.alerts.filter((id) => !alertIds.includes(id)),
    [],
    'every alert',
  );
  if (version >= 2) {
    const { rules } = await read(api, token, `/monitors/${FIXTURE.disk}/rules`);
    t.equal(rules.length, expected.rules, 'every rule');
  }
  const { users } = await read(api, token, '/users');
  t.equal(users.length, expected.users, 'every user');
  if (version >= 22) {
    const running = runs.find((run: { runId: string }) => run.runId === 'run_fixture_running_v22');
    t.equal(running?.status, 'running', 'a running run stays open');
  }

  const check = await checkDatabase(api.config);
  t.same(
    { schemaVersion: check.schemaVersion, pending: check.pending, problems: check.problems },
    { schemaVersion: MIGRATION_NAMES.at(-1), pending: [], problems: [] },
    'the database is at the latest schema and holds together',
  );
}
