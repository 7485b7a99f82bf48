import t from 'tap';
import { MONITOR_DEFAULTS } from '@pingmon/sdk/wire';
import { exportText, planApply, planChanges, readMonitorsFile } from 'pingmon/internal';
import type { Current, Desired } from 'pingmon/internal';

// `pingmon apply`'s plan, as data: create, update, unchanged, delete (with --prune) or keep, and channel routing.

const current: Current = {
  monitors: [
    {
      monitorId: 'mon_1',
      slug: 'nightly-backup',
      name: 'nightly backup',
      settings: { ...MONITOR_DEFAULTS, schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' }, maxRuntime: 7200 },
      rules: [{ ruleId: 'rule_1', metric: 'rowsProcessed', op: 'lt', value: 1 }],
    },
    { monitorId: 'mon_2', slug: 'hourly-sync', name: 'hourly sync', settings: { ...MONITOR_DEFAULTS }, rules: [] },
    { monitorId: 'mon_3', slug: 'old-job', name: 'old job', settings: { ...MONITOR_DEFAULTS }, rules: [] },
  ],
  channels: [
    { channelId: 'ch_1', name: 'ops slack', type: 'slack', enabled: true, monitorIds: null },
    { channelId: 'ch_2', name: 'db hook', type: 'webhook', enabled: true, monitorIds: ['mon_1'] },
  ],
};
/** Channel names need not be unique on the server; the file cannot tell these apart. */
const twins: Current['channels'] = [
  { channelId: 'ch_3', name: 'twin', type: 'webhook', enabled: true, monitorIds: null },
  { channelId: 'ch_4', name: 'twin', type: 'slack', enabled: true, monitorIds: null },
];

/** The file `text` read, or the test fails. */
function desired(text: string): Desired {
  const result = readMonitorsFile(text, 'pingmon.yaml');
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.desired;
}

t.test('the export applied to the same server changes nothing', async (t) => {
  const text = exportText(current, 'yaml');
  t.match(text, /^# pingmon monitors, their rules and channel routing \(pingmon monitors export\)\.\n/);
  t.match(text, /- slug: nightly-backup\n {4}name: nightly backup\n {4}schedule:\n {6}cron: 0 3 \* \* \*\n/);
  t.match(text, /maxRuntime: 2h\n {4}rules:\n {6}- rowsProcessed < 1\n/);
  t.notMatch(text, /startGrace|failAlerts|paused/, 'defaults are left out');
  for (const format of ['yaml', 'json'] as const) {
    const result = planApply(desired(exportText(current, format)), current, { prune: true });
    t.ok(result.ok, format);
    if (!result.ok) continue;
    t.equal(planChanges(result.plan), false, `${format}: no changes`);
    t.same(new Set(result.plan.monitors.map((s) => s.action)), new Set(['unchanged']));
    t.same(new Set(result.plan.channels.map((s) => s.action)), new Set(['unchanged']));
  }
});

t.test('an edit is one update, a new monitor a create, a missing one kept or, with --prune, deleted', async (t) => {
  const file = [
    'monitors:',
    '  - slug: nightly-backup',
    '    name: nightly backup',
    '    schedule: {cron: "0 3 * * *", timezone: Europe/Berlin}',
    '    maxRuntime: 3h',
    '    rules: [rowsProcessed < 1, rowsProcessed < 1, durationMs > 60000]',
    '  - slug: hourly-sync',
    '    name: hourly sync',
    '  - slug: new-job',
  ].join('\n');
  const kept = planApply(desired(file), current, { prune: false });
  t.ok(kept.ok);
  if (!kept.ok) return;
  t.match(kept.plan.monitors, [
    {
      action: 'update',
      slug: 'nightly-backup',
      monitorId: 'mon_1',
      changes: { maxRuntime: 10800 },
      fields: [{ field: 'maxRuntime', from: '2h', to: '3h' }],
      addRules: [{ metric: 'durationMs', op: 'gt', value: 60000 }],
      removeRules: [],
    },
    { action: 'unchanged', slug: 'hourly-sync' },
    { action: 'create', slug: 'new-job', monitor: { name: 'new-job', settings: MONITOR_DEFAULTS } },
    { action: 'keep', slug: 'old-job', monitorId: 'mon_3' },
  ]);
  t.equal(
    kept.plan.monitors[0]?.action === 'update' && kept.plan.monitors[0].addRules.length,
    1,
    'a rule twice is one',
  );
  t.ok(planChanges(kept.plan));
  const pruned = planApply(desired(file), current, { prune: true });
  t.match(pruned.ok && pruned.plan.monitors.at(-1), { action: 'delete', slug: 'old-job', monitorId: 'mon_3' });

  const noRules = planApply(desired('monitors:\n  - slug: hourly-sync\n  - slug: nightly-backup\n'), current, {
    prune: false,
  });
  t.match(noRules.ok && noRules.plan.monitors[1], {
    action: 'update',
    changes: { name: 'nightly-backup', schedule: null, maxRuntime: null },
    removeRules: [{ ruleId: 'rule_1' }],
  });
  t.match(noRules.ok && noRules.plan.monitors[0], { action: 'update', fields: [{ field: 'name' }] });
});

t.test('channel routing: by slug, all, or refused with what to do', async (t) => {
  const monitors =
    'monitors:\n  - slug: nightly-backup\n    name: nightly backup\n' +
    '    schedule: {cron: "0 3 * * *", timezone: Europe/Berlin}\n    maxRuntime: 2h\n    rules: [rowsProcessed < 1]\n' +
    '  - slug: hourly-sync\n    name: hourly sync\n  - slug: new-job\n';
  const routed = planApply(
    desired(
      `${monitors}channels:\n  - name: ops slack\n    monitors: [new-job, hourly-sync]\n` +
        '  - name: db hook\n    monitors: all\n    enabled: false\n',
    ),
    current,
    { prune: false },
  );
  t.match(routed.ok && routed.plan.channels, [
    {
      action: 'update',
      channelId: 'ch_1',
      monitors: ['new-job', 'hourly-sync'],
      fields: [{ field: 'monitors', from: 'all', to: 'hourly-sync, new-job' }],
    },
    {
      action: 'update',
      channelId: 'ch_2',
      monitors: 'all',
      enabled: false,
      fields: [
        { field: 'monitors', from: 'nightly-backup', to: 'all' },
        { field: 'enabled', from: 'true', to: 'false' },
      ],
    },
  ]);
  const refused = (channels: string, prune = false) => {
    const server = { ...current, channels: [...current.channels, ...twins] };
    const result = planApply(desired(`${monitors}channels:\n${channels}`), server, { prune });
    return result.ok ? [] : result.errors.map((e) => `line ${e.line}: ${e.message}`);
  };
  t.match(refused('  - name: pager\n    monitors: all\n'), [
    /^line 11: channel "pager" does not exist: create it first with `pingmon channels add --name 'pager' …`/,
  ]);
  t.match(refused('  - name: twin\n    monitors: all\n'), [
    /^line 11: channel "twin" names 2 channels \(ch_3, ch_4\): rename one with `pingmon channels update ch_4 --name/,
  ]);
  t.match(refused('  - name: ops slack\n    type: discord\n    monitors: all\n'), [
    /is a slack channel, not discord: write type: slack, or leave type out/,
  ]);
  t.match(refused('  - name: ops slack\n    monitors: [nightly-bakup]\n'), [
    /routes "nightly-bakup", which is neither in the file nor on the server: check the slug/,
  ]);
  t.match(refused('  - name: ops slack\n    monitors: [old-job]\n', true), [/routes old-job, which --prune deletes/]);
  t.same(refused('  - name: ops slack\n    monitors: [old-job]\n'), [], 'kept without --prune: it may be routed');
});
