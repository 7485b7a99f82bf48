import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { createClient } from '@pingmon/sdk';
import type { Channel, Monitor } from '@pingmon/sdk';
import { CLI, cliEnv, finished, pingmon } from '../helpers/cli.js';
import { TestServer } from '../helpers/server.js';

// Monitors as code on a real server, the CLI as a process: export, apply, edit, create, prune, dry runs, bad files.

t.test('pingmon monitors export and pingmon apply', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account();
  const env = { PINGMON_URL: api.url, PINGMON_TOKEN: account.token };
  const cli = (...args: string[]) => pingmon(args, env);
  const client = createClient({ baseUrl: api.url, token: account.token });

  const nightly = await client.createMonitor({
    name: 'nightly backup',
    schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' },
    maxRuntime: 7200,
    failureThreshold: 2,
  });
  await client.createRule(nightly.monitorId, { metric: 'rowsProcessed', op: 'lt', value: 1 });
  const lookBack = { baseline: { runs: 20, minRuns: 5 }, window: { runs: 5, atLeast: 3 } };
  await client.createRule(nightly.monitorId, { metric: 'durationMs', op: 'gt', value: 3, ...lookBack });
  const hourly = await client.createMonitor({ name: 'hourly sync', schedule: { every: 3600 } });
  const hook = 'http://127.0.0.1:9/hook';
  const ops = await client.createChannel({ name: 'ops hook', type: 'webhook', url: hook, secret: 'top-secret-value' });
  await client.updateChannel(ops.channelId, { monitorIds: [nightly.monitorId] });
  await client.createChannel({ name: 'all hook', type: 'webhook', url: hook });

  const dir = t.testdir();
  const file = join(dir, 'pingmon.yaml');
  const apply = (...flags: string[]) => cli('apply', '-f', file, ...flags);
  const monitorsOnServer = async () => (await client.listMonitors()).monitors;
  const channel = async (id: string) => (await client.listChannels()).channels.find((c) => c.channelId === id)!;

  t.test('export, then apply: no changes', async (t) => {
    const exported = await cli('monitors', 'export');
    t.equal(exported.code, 0, exported.stderr);
    t.match(exported.stdout, /- slug: nightly-backup\n {4}name: nightly backup\n/);
    t.match(exported.stdout, /maxRuntime: 2h\n {4}failureThreshold: 2\n {4}rules:\n {6}- rowsProcessed < 1\n/);
    t.match(
      exported.stdout,
      /\n {6}- durationMs > 3 × median\(20, min 5\) in 3 of the last 5\n/,
      'a rule that looks back',
    );
    t.match(exported.stdout, /- name: ops hook\n {4}type: webhook\n {4}monitors:\n {6}- nightly-backup\n/);
    t.notMatch(exported.stdout, /top-secret-value|127\.0\.0\.1/, 'no secret, no URL');
    writeFileSync(file, exported.stdout);
    const applied = await apply();
    t.equal(applied.code, 0, applied.stderr);
    t.match(applied.stdout, /^= unchanged hourly-sync$/m);
    t.match(applied.stdout, /No changes: the server already is as .*pingmon\.yaml says\.\n$/);

    const json = await cli('monitors', 'export', '--format', 'json');
    const jsonFile = join(dir, 'pingmon.json');
    writeFileSync(jsonFile, json.stdout);
    t.match(JSON.parse(json.stdout), { version: 1, monitors: [{ slug: 'hourly-sync' }, { slug: 'nightly-backup' }] });
    t.equal((await cli('apply', '-f', jsonFile)).code, 0, 'the JSON export applies as no change too');
    const piped = spawn(process.execPath, [CLI, 'apply', '-f', '-'], { env: cliEnv(env), stdio: 'pipe' });
    piped.stdin.end(exported.stdout);
    t.match(await finished(piped), { code: 0, stdout: /No changes: the server already is as stdin says\./ }, '-f -');
  });

  t.test('an edit is one update; --dry-run shows it and changes nothing', async (t) => {
    writeFileSync(file, readFileSync(file, 'utf8').replace('maxRuntime: 2h', 'maxRuntime: 3h'));
    const dry = await apply('--dry-run');
    t.equal(dry.code, 3, dry.stderr);
    t.match(dry.stdout, /^~ update {4}nightly-backup: maxRuntime 2h → 3h$/m);
    t.match(dry.stdout, /Would apply: 1 updated\. Nothing was changed \(--dry-run\)\./);
    t.equal((await client.getMonitor(nightly.monitorId)).maxRuntime, 7200, 'nothing changed');
    const applied = await apply();
    t.equal(applied.code, 3, applied.stderr);
    t.match(applied.stdout, /Applied: 1 updated\./);
    t.equal((await client.getMonitor(nightly.monitorId)).maxRuntime, 10800);
    const again = await apply();
    t.equal(again.code, 0, 'the same file twice: no changes');
  });

  t.test('a new monitor is created with its rules, and routed', async (t) => {
    const text = readFileSync(file, 'utf8')
      .replace(
        'channels:\n',
        '  - slug: new-job\n    name: new job\n    schedule:\n      every: 10m\n    startGrace: 1m\n' +
          '    rules:\n      - bytes < 100\nchannels:\n',
      )
      .replace('      - nightly-backup\n', '      - nightly-backup\n      - new-job\n');
    writeFileSync(file, text);
    const applied = await apply();
    t.equal(applied.code, 3, applied.stderr);
    t.match(applied.stdout, /^\+ create {4}new-job$/m);
    t.match(applied.stdout, /^~ channel {3}ops hook: monitors nightly-backup → new-job, nightly-backup$/m);
    const created = (await monitorsOnServer()).find((m: Monitor) => m.slug === 'new-job');
    t.match(created, { name: 'new job', schedule: { every: 600 }, startGrace: 60 });
    t.match((await client.listRules(created!.monitorId)).rules, [{ metric: 'bytes', op: 'lt', value: 100 }]);
    const routed: Channel = await channel(ops.channelId);
    t.same([...routed.monitorIds!].sort(), [created!.monitorId, nightly.monitorId].sort());
    t.equal((await apply()).code, 0);
  });

  t.test('a monitor left out of the file is kept, or deleted with --prune', async (t) => {
    writeFileSync(file, readFileSync(file, 'utf8').replace(/ {2}- slug: hourly-sync\n(?: {4}.*\n)+/, ''));
    const kept = await apply();
    t.equal(kept.code, 0, kept.stderr);
    t.match(kept.stdout, /^\? kept {6}hourly-sync \(not in the file; --prune deletes it\)$/m);
    const dry = await apply('--prune', '--dry-run');
    t.equal(dry.code, 3);
    t.match(dry.stdout, /^- delete {4}hourly-sync \(with its runs and logs\)$/m);
    t.ok(
      (await monitorsOnServer()).some((m) => m.monitorId === hourly.monitorId),
      'still there after --dry-run',
    );
    const pruned = await apply('--prune');
    t.equal(pruned.code, 3, pruned.stderr);
    t.match(pruned.stdout, /Applied: 1 deleted\./);
    t.notOk(
      (await monitorsOnServer()).some((m) => m.monitorId === hourly.monitorId),
      'deleted',
    );
    t.equal((await apply('--prune')).code, 0);
  });

  t.test('a bad file: each mistake with its line, and nothing read or changed', async (t) => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'monitors:\n  - slug: nightly-backup\n    grace: 10m\n  - slug: x\n    maxRuntime: 2 hours\n');
    const refused = await cli('apply', '-f', bad);
    t.equal(refused.code, 1);
    t.equal(refused.stdout, '');
    t.match(
      refused.stderr,
      /^pingmon: .*bad\.yaml:3: monitors\[0\]\.grace: grace is not a field here; write startGrace\n/,
    );
    t.match(
      refused.stderr,
      /bad\.yaml:5: monitors\[1\]\.maxRuntime: "2 hours" is not a duration: write a duration such/,
    );
    const missing = await cli('apply', '-f', join(dir, 'nope.yaml'));
    t.match(missing, { code: 1, stderr: /nope\.yaml: no such file; write one with `pingmon monitors export > / });
    writeFileSync(bad, 'monitors: []\nchannels:\n  - name: pager\n    monitors: all\n');
    const unknown = await cli('apply', '-f', bad);
    t.equal(unknown.code, 1);
    t.match(unknown.stderr, /bad\.yaml:3: channel "pager" does not exist: create it first with `pingmon channels add/);
    writeFileSync(bad, 'monitors:\n  - slug: broken\n    schedule: {cron: "0 25 * * *"}\n');
    const server = await cli('apply', '-f', bad);
    t.equal(server.code, 1);
    t.match(server.stderr, /bad\.yaml:2: monitor broken: schedule\.cron: .*cannot be read.*Done before it: nothing\./);
    t.equal((await cli('apply')).code, 2, 'no -f: a usage error');
  });
});
