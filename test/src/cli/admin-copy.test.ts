import { checkDatabase, loadConfig, openDatabase } from '@pingmon/server';
import { MIGRATION_NAMES, TABLES } from '@pingmon/server/internal';
import { rmSync, symlinkSync } from 'node:fs';
import type { Test } from 'tap';
import t from 'tap';
import { pingmon } from '../helpers/cli.js';
import { createTestDatabase, DATABASE_KINDS, POSTGRES_URL, withKnex } from '../helpers/databases.js';
import type { DatabaseKind, TestDatabase } from '../helpers/databases.js';
import { databaseAt, FIXTURE, login, NO_RETENTION, readsBack } from '../helpers/schema-fixtures.js';
import { TestServer } from '../helpers/server.js';

// The newest committed fixture: a database holding rows in every table, written at every version up to it.
const VERSION = MIGRATION_NAMES.length - 1;

function configOf({ dataDir, databaseUrl, databaseSchema }: TestDatabase) {
  return loadConfig({}, { dataDir, databaseUrl, databaseSchema });
}

/** The fixture at its version, migrated to the latest as a server's start does. */
async function source(t: Test, kind: DatabaseKind): Promise<TestDatabase> {
  const db = await databaseAt(t, kind, VERSION);
  await (await openDatabase(configOf(db))).close();
  return db;
}

async function emptyTarget(t: Test, kind: DatabaseKind): Promise<TestDatabase> {
  const db = await createTestDatabase(kind);
  t.teardown(() => db.drop());
  return db;
}

/** `--to` and, for PostgreSQL, `--to-schema` naming `target`. */
function toFlags(target: TestDatabase): string[] {
  return target.kind === 'sqlite'
    ? ['--to', target.dataDir]
    : ['--to', target.databaseUrl!, '--to-schema', target.databaseSchema!];
}

async function copy(from: TestDatabase, to: TestDatabase, ...more: string[]) {
  const result = await pingmon(['admin', 'copy', ...toFlags(to), ...more], from.env);
  const json = more.includes('--json') ? JSON.parse(result.stdout || 'null') : undefined;
  return { ...result, json };
}

const pairs: Array<[DatabaseKind, DatabaseKind]> =
  DATABASE_KINDS.length === 2
    ? [
        ['sqlite', 'postgres'],
        ['postgres', 'sqlite'],
      ]
    : [['sqlite', 'sqlite']];

/** Every row of every table, in key order, as both databases agree on them (0/1 booleans, numbers). */
async function everything(db: TestDatabase): Promise<Record<string, string[]>> {
  const tables = Object.keys((await checkDatabase(configOf(db))).rows);
  return withKnex(db, async (knex) => {
    const all: Record<string, string[]> = {};
    for (const table of tables) {
      const rows = (await knex(table).select()) as Array<Record<string, unknown>>;
      const sorted = rows.map((row) => Object.entries(row).sort(([a], [b]) => a.localeCompare(b)));
      all[table] = sorted
        .map((row) => JSON.stringify(row.map(([column, value]) => [column, comparable(value)])))
        .sort();
    }
    return all;
  });
}

/** SQLite's 0/1 and PostgreSQL's booleans alike, and pg's bigints (strings) as the numbers SQLite gives. */
function comparable(value: unknown): unknown {
  if (typeof value === 'boolean') return Number(value);
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return value;
}

for (const [from, to] of pairs) {
  t.test(
    `admin copy ${from} → ${to}: while the source serves, then a second pass takes what came meanwhile`,
    async (t) => {
      const src = await source(t, from);
      const served = await TestServer.on(t, src, NO_RETENTION);
      const fixtureToken = await login(served);
      const wrong = await served.request('/auth/login', { body: { email: FIXTURE.email, password: 'wrong password' } });
      t.equal(wrong.status, 401, 'a failed sign-in: a row of login_attempts');
      const dst = await emptyTarget(t, to);

      const first = await copy(src, dst, '--json');
      t.equal(first.code, 0, first.stderr);
      const copied = await checkDatabase(configOf(dst));
      t.same(copied.problems, []);
      t.equal(copied.schemaVersion, MIGRATION_NAMES.at(-1));
      t.same(
        Object.entries(copied.rows).filter(([, count]) => count === 0),
        [],
        'every table has rows: each is tried',
      );
      for (const table of first.json.tables) {
        t.equal(table.rows, copied.rows[table.table], `${table.table}: the rows the copy verified are there`);
        t.equal(table.inserted, table.rows, `${table.table}: every row inserted`);
        t.match(table.checksum, /^[0-9a-f]{32}$/);
      }

      // Meanwhile the source goes on: a new account pings, a fixture monitor is deleted, with its runs.
      const owner = await served.account();
      const monitorId = await served.monitor(owner, 'arrived meanwhile');
      t.equal((await served.ping(owner, monitorId, 'start', { runId: 'run_meanwhile' })).status, 200);
      t.equal((await served.ping(owner, monitorId, 'success', { runId: 'run_meanwhile' })).status, 200);
      const gone = await served.request(`/monitors/${FIXTURE.disk}`, { method: 'DELETE', token: fixtureToken });
      t.equal(gone.status, 204);
      // The cut-over: the source's server stops, the second pass copies what changed.
      await served.server.stop();
      const second = await copy(src, dst, '--update', '--json');
      t.equal(second.code, 0, second.stderr);
      const by = Object.fromEntries(second.json.tables.map((table: { table: string }) => [table.table, table]));
      t.equal(by.accounts.inserted, 1);
      t.equal(by.runs.inserted, 1, 'the run that came meanwhile');
      t.ok(by.runs.deleted >= 1, "the deleted monitor's runs");
      t.equal(by.monitors.deleted, 1);
      t.same(await everything(dst), await everything(src), 'the target is the source, row for row');

      const third = await copy(src, dst, '--update', '--json');
      t.equal(third.code, 0, third.stderr);
      const writes = third.json.tables.map(
        (table: Record<string, number>) => table.inserted + table.updated + table.deleted,
      );
      t.same(
        writes,
        writes.map(() => 0),
        'a pass over an equal target writes nothing',
      );

      const api = await TestServer.on(t, dst, NO_RETENTION);
      t.equal(
        (await api.request('/monitors', { token: fixtureToken })).status,
        200,
        "the source's tokens hold: its secret came",
      );
      const runs = await api.request(`/monitors/${monitorId}/runs`, { token: owner.token });
      t.equal(runs.body.runs[0].status, 'success');
      t.equal((await api.request(`/monitors/${FIXTURE.disk}`, { token: fixtureToken })).status, 404);
    },
  );

  t.test(`admin copy ${from} → ${to}: every fixture row reads back through a server on the copy`, async (t) => {
    const src = await source(t, from);
    const dst = await emptyTarget(t, to);
    const { code, stderr } = await copy(src, dst);
    t.equal(code, 0, stderr);
    await readsBack(t, await TestServer.on(t, dst, NO_RETENTION), VERSION);
  });
}

t.test('admin copy prints a table of what it copied and says it verified', async (t) => {
  const src = await source(t, 'sqlite');
  const dst = await emptyTarget(t, 'sqlite');
  const { code, stdout, stderr } = await copy(src, dst);
  t.equal(code, 0, stderr);
  t.match(stdout, new RegExp(`^copied  ${src.dataDir}/pingmon.db → ${dst.dataDir}/pingmon.db\\n`));
  t.match(stdout, /TABLE +ROWS +INSERTED +UPDATED +DELETED +CHECKSUM\n/);
  t.match(stdout, /\nruns +8 +8 +0 +0 +[0-9a-f]{32}\n/);
  t.match(stdout, /verified: every table's row count and checksum are the source's \(\d+\.\d s\)\n$/);
  t.equal(stderr, '', 'no progress bar when stderr is not a terminal');
});

t.test('admin copy refuses a target that holds data, and leaves it as it was', async (t) => {
  const src = await source(t, 'sqlite');
  const dst = await emptyTarget(t, 'sqlite');
  const api = await TestServer.on(t, dst);
  await api.monitor(await api.account());
  const before = await checkDatabase(configOf(dst));
  const { code, stderr } = await copy(src, dst);
  t.equal(code, 2);
  t.match(
    stderr,
    /already holds data \(\d settings, 1 accounts, 1 users, 1 api_keys, 1 monitors.*\): copy into an empty database/,
  );
  t.same((await checkDatabase(configOf(dst))).rows, before.rows, 'nothing written');
});

t.test('admin copy refuses what it cannot copy, saying what to do', async (t) => {
  const src = await source(t, 'sqlite');
  const same = await pingmon(['admin', 'copy', '--to', src.dataDir], src.env);
  t.equal(same.code, 2);
  t.match(same.stderr, /the source and the target are the same database/);

  const link = `${src.dataDir}-link`;
  symlinkSync(src.dataDir, link);
  t.teardown(() => rmSync(link, { force: true }));
  const linked = await pingmon(['admin', 'copy', '--to', link, '--update'], src.env);
  t.equal(linked.code, 2, 'the same file by a link');
  t.match(linked.stderr, /the source and the target are the same database/);
  if (POSTGRES_URL) {
    const pg = await source(t, 'postgres');
    const alias = `${POSTGRES_URL}?application_name=another-name`;
    const aliased = await pingmon(
      ['admin', 'copy', '--to', alias, '--to-schema', pg.databaseSchema!, '--update'],
      pg.env,
    );
    t.equal(aliased.code, 2, 'the same PostgreSQL database and schema by another URL');
    t.match(aliased.stderr, /the source and the target are the same database/);
  }

  const scheme = await pingmon(['admin', 'copy', '--to', 'mysql://db/pingmon'], src.env);
  t.equal(scheme.code, 2);
  t.match(scheme.stderr, /--to mysql: is not a database pingmon copies to: give a PostgreSQL URL/);

  const dst = await emptyTarget(t, 'sqlite');
  const schema = await pingmon(['admin', 'copy', '--to', dst.dataDir, '--to-schema', 'x'], src.env);
  t.equal(schema.code, 2);
  t.match(schema.stderr, /--to-schema is for a PostgreSQL target/);

  const nothing = await emptyTarget(t, 'sqlite');
  const missing = await pingmon(['admin', 'copy', '--to', dst.dataDir], nothing.env);
  t.equal(missing.code, 1);
  t.match(
    missing.stderr,
    /there is no pingmon database at .*pingmon\.db: --data-dir, or --database-url \(with PINGMON_DATABASE_SCHEMA when/,
  );
  if (POSTGRES_URL) {
    const schemaless = await pingmon(['admin', 'copy', '--database-url', POSTGRES_URL, '--to', dst.dataDir], {});
    t.equal(schemaless.code, 1, 'a database without pingmon tables (the schema forgotten)');
    t.match(schemaless.stderr, /there is no pingmon database at postgres:/);
  }

  const older = await databaseAt(t, 'sqlite', VERSION);
  const old = await pingmon(['admin', 'copy', '--to', dst.dataDir], older.env);
  t.equal(old.code, 1);
  t.match(
    old.stderr,
    new RegExp(
      `is at schema ${MIGRATION_NAMES[VERSION - 1]}, and this pingmon copies schema ${MIGRATION_NAMES.at(-1)}: start`,
    ),
  );
});

const LONG_LOG = 'ERROR «ünïcödé» 🚀 '.repeat(3_500); // about 64 KiB: a batch of logs holds fewer rows

/** 1,000 runs on each of three fixture monitors, every tenth failed with a long log. */
async function manyRuns(db: TestDatabase): Promise<void> {
  await withKnex(db, async (knex) => {
    for (const monitor of [FIXTURE.nightly, FIXTURE.hourly, FIXTURE.weekly]) {
      const runs = Array.from({ length: 1_000 }, (_, i) => ({
        monitor_id: monitor,
        id: `bulk-${String(i).padStart(4, '0')}`,
        account_id: FIXTURE.accountId,
        status: i % 10 === 0 ? 'failed' : 'success',
        started_at: Date.UTC(2026, 1, 1) + i * 60_000,
        finished_at: Date.UTC(2026, 1, 1) + i * 60_000 + 1_500,
        duration_ms: 1_500,
        meta: JSON.stringify({ rows: i }),
        error_message: i % 10 === 0 ? 'exit code 1 — «ünïcödé»' : null,
        has_log: i % 10 === 0 ? 1 : 0,
      }));
      await knex.batchInsert('runs', runs, 50);
      const logs = runs
        .filter((run) => run.has_log)
        .map((run) => ({ monitor_id: monitor, run_id: run.id, content: LONG_LOG }));
      await knex.batchInsert('run_logs', logs, 20);
    }
    // Alerts each with a delivery: keys of as many prefixes as rows.
    const alerts = Array.from({ length: 1_200 }, (_, i) => ({
      id: `alert_bulk${String(i).padStart(11, '0')}`,
      account_id: FIXTURE.accountId,
      monitor_id: FIXTURE.hourly,
      event: 'missed',
      status: 'late',
      meta: '{}',
      matched_rules: '[]',
      created_at: Date.UTC(2026, 1, 1) + i * 60_000,
    }));
    await knex.batchInsert('alerts', alerts, 50);
    const deliveries = alerts.map((alert) => ({
      alert_id: alert.id,
      channel_id: FIXTURE.channel,
      state: 'delivered',
      attempts: 1,
      next_attempt_at: alert.created_at,
    }));
    await knex.batchInsert('alert_deliveries', deliveries, 50);
  });
}

for (const [fromKind, toKind] of pairs) {
  t.test(
    `admin copy ${fromKind} → ${toKind}: thousands of rows and long logs by batches; a second pass finds any change`,
    async (t) => {
      const src = await source(t, fromKind);
      await manyRuns(src);
      const dst = await emptyTarget(t, toKind);
      const first = await copy(src, dst, '--json');
      t.equal(first.code, 0, first.stderr);
      const byTable = (json: { tables: Array<Record<string, number> & { table: string }> }) =>
        Object.fromEntries(json.tables.map((table) => [table.table, table]));
      t.equal(byTable(first.json).runs.rows, 3_008);
      t.equal(byTable(first.json).run_logs.rows, 302);

      await withKnex(src, async (knex) => {
        await knex('runs')
          .where({ monitor_id: FIXTURE.hourly })
          .whereIn('id', ['bulk-0501', 'bulk-0502', 'bulk-0999'])
          .update({ status: 'failed' });
        await knex('run_logs')
          .where({ monitor_id: FIXTURE.weekly, run_id: 'bulk-0100' })
          .update({ content: 'shorter now' });
        await knex('runs')
          .where({ monitor_id: FIXTURE.nightly })
          .whereIn('id', ['bulk-0000', 'bulk-0001', 'bulk-0700'])
          .delete();
        await knex('runs').insert({
          ...(await knex('runs').where({ monitor_id: FIXTURE.weekly, id: 'bulk-0001' }).first()),
          id: 'bulk-1000',
        });
        await knex('alert_deliveries').where({ alert_id: 'alert_bulk00000000500' }).update({ attempts: 2 });
        // Unique values that move between rows: the first row in key order takes the second's.
        await knex('monitors').where({ id: FIXTURE.hourly }).update({ slug: 'passing-through' });
        await knex('monitors').where({ id: FIXTURE.nightly }).update({ slug: 'hourly-sync' });
        await knex('monitors').where({ id: FIXTURE.hourly }).update({ slug: 'nightly-backup' });
        await knex('users').where({ id: 'usr_fixture0000000002' }).update({ email: 'passing@example.com' });
        await knex('users').where({ id: 'usr_fixture0000000001' }).update({ email: 'viewer@example.com' });
        await knex('users').where({ id: 'usr_fixture0000000002' }).update({ email: FIXTURE.email });
      });
      const second = await copy(src, dst, '--update', '--json');
      t.equal(second.code, 0, second.stderr);
      const { runs, run_logs: logs } = byTable(second.json);
      t.same([runs.inserted, runs.updated, runs.deleted], [1, 3, 3]);
      t.same([logs.inserted, logs.updated, logs.deleted], [0, 1, 2], 'bulk-0000 and bulk-0700 had logs');
      const { monitors, users, alert_deliveries: deliveries } = byTable(second.json);
      t.same([monitors.updated, users.updated, deliveries.updated], [2, 2, 1]);
      t.same(await everything(dst), await everything(src), 'the target is the source, row for row');
    },
  );
}

/** An empty SQLite target, migrated, with `trigger` (SQL) in it: a target that misbehaves on purpose. */
async function targetWithTrigger(t: Test, trigger: string): Promise<TestDatabase> {
  const dst = await emptyTarget(t, 'sqlite');
  await (await openDatabase(configOf(dst))).close();
  await withKnex(dst, (knex) => knex.raw(trigger));
  return dst;
}

t.test('admin copy fails naming the table when the target does not read back what was written', async (t) => {
  const src = await source(t, 'sqlite');
  const dst = await targetWithTrigger(
    t,
    "create trigger tamper after insert on runs begin update runs set host = 'elsewhere' " +
      'where monitor_id = new.monitor_id and id = new.id; end',
  );
  const { code, stderr } = await copy(src, dst);
  t.equal(code, 1);
  t.match(
    stderr,
    new RegExp(
      'runs differs after the copy: the source has 8 rows \\(checksum [0-9a-f]{32}\\), .*pingmon\\.db 8 ' +
        '\\(checksum [0-9a-f]{32}\\); was a server writing to the target\\?',
    ),
  );
});

t.test('a copy that stopped halfway is finished by a second pass with --update', async (t) => {
  const src = await source(t, 'sqlite');
  const dst = await targetWithTrigger(
    t,
    "create trigger full_disk before insert on run_logs begin select raise(abort, 'database or disk is full'); end",
  );
  const failed = await copy(src, dst);
  t.equal(failed.code, 1);
  t.notMatch(failed.stderr, /insert into/, 'the reason, not the statement');
  t.match(
    failed.stderr,
    /cannot write run_logs to .*pingmon\.db \(a batch of 2 from mon_fixture0000000001, .*\): .*disk is full/,
  );
  await withKnex(dst, (knex) => knex.raw('drop trigger full_disk'));
  const again = await copy(src, dst);
  t.equal(again.code, 2, 'the half copy is data: refused without --update');
  const finished = await copy(src, dst, '--update');
  t.equal(finished.code, 0, finished.stderr);
  t.same(await everything(dst), await everything(src));
});

for (const kind of DATABASE_KINDS) {
  t.test(`${kind}: the copy knows every table of the schema, and its primary key`, async (t) => {
    const db = await emptyTarget(t, kind);
    await (await openDatabase(configOf(db))).close();
    const schema = await withKnex(db, async (knex) => {
      const keys: Record<string, string[]> = {};
      if (kind === 'sqlite') {
        const tables = (await knex.raw("select name from sqlite_master where type = 'table'")) as Array<{
          name: string;
        }>;
        for (const { name } of tables) {
          const columns = (await knex.raw('select name, pk from pragma_table_info(?)', [name])) as Array<{
            name: string;
            pk: number;
          }>;
          keys[name] = columns
            .filter((c) => c.pk > 0)
            .sort((a, b) => a.pk - b.pk)
            .map((c) => c.name);
        }
      } else {
        const { rows } = await knex.raw<{ rows: Array<{ table: string; column: string }> }>(
          'select c.table_name as "table", k.column_name as "column" from information_schema.table_constraints c ' +
            'join information_schema.key_column_usage k on k.constraint_name = c.constraint_name ' +
            'and k.table_schema = c.table_schema where c.constraint_type = ? and c.table_schema = ? ' +
            'order by c.table_name, k.ordinal_position',
          ['PRIMARY KEY', db.databaseSchema!],
        );
        for (const row of rows) (keys[row.table] ??= []).push(row.column);
      }
      return keys;
    });
    const ours = Object.fromEntries(Object.entries(schema).filter(([name]) => !/^(knex|sqlite)_/.test(name)));
    t.same(ours, Object.fromEntries(TABLES.map((table) => [table.name, [...table.key]])));
  });
}
