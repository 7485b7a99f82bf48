import { CLI, runCli, startListening } from './processes.js';
import type { Started } from './processes.js';

export interface Pingmon {
  server: Started;
  env: Record<string, string>;
  apiKey: string;
  /** Monitors without a schedule: a success only writes its run. */
  monitorIds: string[];
  /** Monitors on a cron schedule: each success also moves the monitor's next expected time. */
  scheduledIds: string[];
}

/**
 * Starts `pingmon server` (of the build whose `cli/bin/run.js` is `cli`, `nodeArgs` given to its node, run by
 * `launcher`) on the database `env` names, with an unlimited account, `monitors` monitors and `scheduled` more on a
 * cron schedule (every minute).
 */
export async function startPingmon(
  env: Record<string, string>,
  monitors = 1,
  scheduled = 0,
  cli = CLI,
  nodeArgs: string[] = [],
  launcher: string[] = [],
) {
  const created = JSON.parse(
    await runCli(
      [
        'admin',
        'create-account',
        '--email',
        'bench@example.com',
        '--password',
        'benchmark!',
        '--plan',
        'unlimited',
        '--json',
      ],
      env,
      cli,
    ),
  );
  const server = await startListening([...nodeArgs, cli, 'server', '--port', '0'], env, launcher);
  const login = await fetch(`${server.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'benchmark!' }),
  });
  const { token } = (await login.json()) as { token: string };
  const create = async (settings: object) => {
    const monitor = await fetch(`${server.url}/monitors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'bench', ...settings }),
    });
    return ((await monitor.json()) as { monitorId: string }).monitorId;
  };
  const monitorIds: string[] = [];
  for (let i = 0; i < monitors; i++) monitorIds.push(await create({}));
  const scheduledIds: string[] = [];
  for (let i = 0; i < scheduled; i++)
    scheduledIds.push(await create({ schedule: { cron: '* * * * *' }, startGrace: 60 }));
  return { server, env, apiKey: created.apiKey as string, monitorIds, scheduledIds } satisfies Pingmon;
}
