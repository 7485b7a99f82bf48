import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Test } from 'tap';
import { tempDir } from './databases.js';
import { pingmon } from './cli.js';
import { requireTools } from './system-tools.js';
import type { ConfigOverrides } from '@pingmon/server';
import { TestServer } from './server.js';
import type { TestAccount } from './server.js';

type Verify = (
  secret: string,
  header: string | undefined,
  rawBody: Buffer | string,
  toleranceSeconds?: number,
) => boolean;

/** The signature recipes of docs/alerts.md, taken from the page itself: the Node function and the openssl line. */
export async function documentedRecipes(): Promise<{ verify: Verify; openssl: string }> {
  const page = readFileSync(new URL('../../../docs/alerts.md', import.meta.url), 'utf8');
  const js = /```js\n((?:(?!```)[\s\S])*export function verifyPingmonSignature(?:(?!```)[\s\S])*)```/.exec(page)![1]!;
  const dir = tempDir('pingmon-recipe-');
  writeFileSync(join(dir, 'verify.mjs'), js);
  const { verifyPingmonSignature } = (await import(pathToFileURL(join(dir, 'verify.mjs')).href)) as {
    verifyPingmonSignature: Verify;
  };
  rmSync(dir, { recursive: true, force: true });
  return { verify: verifyPingmonSignature, openssl: /^.*openssl dgst.*$/m.exec(page)![0] };
}

/** Checks a delivered webhook with both documented recipes. */
export async function checkSignature(
  t: Test,
  secret: string,
  sent: { headers: Record<string, unknown>; body: string },
): Promise<void> {
  const { verify, openssl } = await documentedRecipes();
  const header = String(sent.headers['x-pingmon-signature']);
  t.ok(verify(secret, header, Buffer.from(sent.body, 'utf8')), 'the documented Node recipe verifies the raw body');
  t.ok(verify(secret, header, sent.body), 'given as a string too');
  t.notOk(verify('another-secret-entirely', header, sent.body), 'not with another secret');
  t.notOk(verify(secret, header, sent.body.replace('"event"', '"event" ')), 'not once the body is changed');
  t.notOk(verify(secret, header, sent.body, -1), 'not outside the time tolerance');
  const [, ts, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header)!;
  // A test of its own, skipped without openssl (failed under CI=true): the Node recipe's checks above run anyway.
  await t.test('the documented openssl line', async (t) => {
    if (!requireTools(t, 'openssl')) return;
    const dir = tempDir('pingmon-openssl-');
    writeFileSync(join(dir, 'body.json'), sent.body);
    const shell = spawnSync('bash', ['-c', openssl], {
      cwd: dir,
      env: { ...process.env, t: ts, secret },
      encoding: 'utf8',
    });
    rmSync(dir, { recursive: true, force: true });
    t.equal(shell.stdout.trim(), v1, `the documented openssl line prints v1 (${shell.stderr.trim()})`);
  });
}

export const USAGE_HINT = new RegExp(
  String.raw`^pingmon: .* expected METRIC OP NUMBER \[× median\(RUNS\)\] \[for RUNS runs \| in K of the last RUNS\] ` +
    String.raw`\(OP: < <= > >= == != or lt lte gt gte eq neq\), ` +
    String.raw`e\.g\. pingmon rules add mon_\w+ 'rowsProcessed < 1'\n$`,
);

/**
 * A server for the alert commands' tests, and `as(account)`: `pingmon …` as that account, logged in through
 * PINGMON_URL and PINGMON_TOKEN, with `json` parsing `--json` output.
 */
export async function alertsCli(t: Test, overrides: ConfigOverrides = {}) {
  // A failed delivery waits a minute before its retry, so `pingmon alerts` can be caught showing it pending. No
  // attempt here is meant to time out: the receivers answer at once, however long a loaded machine takes.
  const api = await TestServer.start(t, 'sqlite', {
    alertPollMs: 50,
    alertRetryBaseMs: 60_000,
    alertTimeoutMs: 30_000,
    ...overrides,
  });
  const configHome = tempDir('pingmon-config-');
  /** `pingmon …` as `account`, logged in through PINGMON_URL and PINGMON_TOKEN; `--json` output parsed. */
  const as = (account: TestAccount, extra: Record<string, string> = {}) => {
    const env = { PINGMON_URL: api.url, PINGMON_TOKEN: account.token, XDG_CONFIG_HOME: configHome, ...extra };
    const cli = (...args: string[]) => pingmon(args, env);
    const json = async (...args: string[]) => {
      const result = await cli(...args, '--json');
      if (result.code !== 0) throw new Error(`pingmon ${args.join(' ')} exited with ${result.code}: ${result.stderr}`);
      return JSON.parse(result.stdout);
    };
    return { cli, json };
  };
  return { api, as, configHome };
}
