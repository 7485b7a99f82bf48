import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pingmon } from '../helpers/cli.js';
import type { DatabaseKind } from '../helpers/databases.js';
import { inShape } from './fuzz.js';
import { withServer } from './scenarios.js';

// The standing probe of what an attacker on the host, or with an account's credentials, once got through (issue
// 24): the database readable by every local user, JSON nested past the stack, channel URLs that hide a loopback
// address in IPv6, and terminal escapes in names and messages printed by the CLI. Each finding is a sentence.

const DEPTH = 5_000;
const nested = (open: string, close: string, inner = '0') => open.repeat(DEPTH) + inner + close.repeat(DEPTH);
const DEEP_BODIES = [
  `{"meta":{"a":${nested('[', ']')}}}`,
  `{"meta":${nested('{"a":', '}')}}`,
  nested('[', ']'),
  `{"name":${nested('[', ']')},"errorMessage":${nested('[', ']')},"url":${nested('{"a":', '}')}}`,
];
const BODY_ROUTES = [
  'POST /ping/{monitor}/start',
  'POST /ping/{monitor}/success',
  'POST /ping/{monitor}/fail',
  'POST /auth/login',
  'POST /auth/session',
  'POST /me/password',
  'POST /monitors',
  'PATCH /monitors/{monitor}',
  'POST /monitors/{monitor}/rules',
  'POST /channels',
  'POST /api-keys',
];
/** URLs whose host is, or hides, an address no public channel may reach; all refused when created. */
const HIDDEN_LOOPBACK_URLS = [
  'http://[::ffff:0:127.0.0.1]/',
  'http://[64:ff9b::127.0.0.1]/',
  'http://[2002:7f00:1::]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
  'http://localhost%00:18999/',
];
const ESCAPES = 'ESC[2J \u001b[2J OSC \u001b]0;owned\u0007 BEL \u0007 CSI \u009b31m DEL \u007f';
/** What a terminal must never be sent from other people's text: C0 controls but tab and newline, DEL, C1. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

export async function probeScenario(kind: DatabaseKind): Promise<string[]> {
  // The data directory is made by the server, under the laxest umask a host commonly has.
  const umask = process.umask(0o022);
  try {
    return await withServer(kind, 1, (setup) => probe(kind, setup), {
      env: { PINGMON_CHANNELS_PUBLIC_ONLY: 'true' },
      dataDir: 'fresh',
    });
  } finally {
    process.umask(umask);
  }
}

async function probe(
  kind: DatabaseKind,
  { server, account, dataDir }: Parameters<Parameters<typeof withServer>[2]>[0],
) {
  const problems: string[] = [];
  const send = async (method: string, path: string, body: string | undefined, headers: Record<string, string>) => {
    const reply = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    return { status: reply.status, body: await reply.text() };
  };
  const user = { authorization: `Bearer ${account.token}`, 'x-pingmon-request': '1' };
  const monitor = account.monitorIds[0]!;

  // PostgreSQL keeps nothing in the data directory.
  const files = kind === 'sqlite' ? ['', ...readdirSync(dataDir).filter((name) => name.startsWith('pingmon.db'))] : [];
  for (const file of files) {
    const mode = statSync(join(dataDir, file)).mode & 0o777;
    const wanted = file === '' ? 0o700 : 0o600;
    if (mode !== wanted)
      problems.push(`${file || 'the data directory'} is ${mode.toString(8)}, not ${wanted.toString(8)}`);
  }

  // Fields a route does not read are ignored, however deep; what it reads is refused in the error shape, never 5xx.
  for (const route of BODY_ROUTES) {
    const [method, template] = route.split(' ') as [string, string];
    const headers = route.includes('/ping/') ? { 'x-api-key': account.apiKey } : user;
    for (const body of DEEP_BODIES) {
      const answer = await send(method, template.replace('{monitor}', monitor), body, headers);
      const metaRefused = !/ping\/\{monitor\}\/(success|fail)/.test(route) || !body.startsWith('{"meta"');
      if (answer.status >= 500 || (answer.status >= 400 && !inShape(answer)))
        problems.push(`${route} with JSON nested ${DEPTH} deep answered ${answer.status} ${answer.body.slice(0, 120)}`);
      else if (!metaRefused && !answer.body.includes('"invalid_meta"'))
        problems.push(`${route} with a meta nested ${DEPTH} deep answered ${answer.status}, not 400 invalid_meta`);
    }
  }

  for (const url of HIDDEN_LOOPBACK_URLS) {
    const answer = await send('POST', '/channels', JSON.stringify({ type: 'webhook', url }), user);
    if (answer.status !== 400) problems.push(`a channel to ${url} answered ${answer.status}, not 400`);
  }

  problems.push(...(await escapesReachTheTerminal(server.url, account, monitor)));
  return problems;
}

/** Names and messages with terminal escapes, stored through the API, then read back by the CLI's commands. */
async function escapesReachTheTerminal(
  url: string,
  account: { apiKey: string; token: string },
  monitor: string,
): Promise<string[]> {
  const call = (method: string, path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${url}/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const user = { authorization: `Bearer ${account.token}` };
  await call('PATCH', `/monitors/${monitor}`, { name: `backup ${ESCAPES}` }, user);
  await call('POST', '/api-keys', { name: `key ${ESCAPES}` }, user);
  await call('POST', '/channels', { type: 'webhook', url: 'https://hooks.example.com/x', name: `ch ${ESCAPES}` }, user);
  const failed = await call(
    'POST',
    `/ping/${monitor}/fail`,
    { errorMessage: ESCAPES, logOutput: ESCAPES },
    {
      'x-api-key': account.apiKey,
    },
  );
  if (failed.status !== 200) return [`the fail ping with escapes answered ${failed.status}`];
  const env = { PINGMON_URL: url, PINGMON_TOKEN: account.token };
  const problems: string[] = [];
  for (const args of [
    ['monitors', 'list'],
    ['monitors', 'show', monitor],
    ['runs', monitor],
    ['alerts'],
    ['channels', 'list'],
    ['keys', 'list'],
  ]) {
    const result = await pingmon(args, env);
    const output = result.stdout + result.stderr;
    if (result.code !== 0) problems.push(`pingmon ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
    else if (CONTROL.test(output)) problems.push(`pingmon ${args.join(' ')} printed a control character`);
  }
  return problems;
}
