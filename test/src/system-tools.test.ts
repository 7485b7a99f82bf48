import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import type { Test } from 'tap';
import { finished } from './helpers/cli.js';
import { tempDir } from './helpers/databases.js';
import { SYSTEM_TOOLS } from './helpers/system-tools.js';

// A test that needs a system tool the machine lacks is skipped with the package to install, and fails under CI.

const FIXTURE = fileURLToPath(new URL('./fixtures/needs-tools.js', import.meta.url));

/** The fixture, run by node as a test file of its own, with a PATH of only `dir` and only `env` besides. */
async function needing(tools: string[], dir: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [FIXTURE, ...tools], {
    env: { PATH: dir, HOME: dir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return finished(child);
}

/** A directory for the PATH holding an executable (or not) file for each of `commands`. */
function binWith(t: Test, commands: string[], mode = 0o755): string {
  const dir = tempDir('pingmon-bin-');
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const command of commands) {
    writeFileSync(join(dir, command), '#!/bin/sh\nexit 0\n');
    chmodSync(join(dir, command), mode);
  }
  return dir;
}

const ZSH_NOTE = 'no zsh on the PATH: install it with `apt-get install -y zsh`';

t.test('a missing tool skips the test with the package to install, outside CI', async (t) => {
  for (const ci of [{}, { CI: 'false' }] as Array<Record<string, string>>) {
    const result = await needing(['zsh'], binWith(t, []), ci);
    t.equal(result.code, 0, `exits 0 (${result.stderr})`);
    t.match(result.stdout, `ok 1 - a test that needs system tools # SKIP ${ZSH_NOTE}`, JSON.stringify(ci));
    t.notMatch(result.stdout, 'ok 1 - it ran', 'the test did not run');
  }
  const notExecutable = await needing(['zsh'], binWith(t, ['zsh'], 0o644));
  t.match(notExecutable.stdout, `# SKIP ${ZSH_NOTE}`, 'a zsh file that cannot be run is missing too');
  const two = await needing(['zsh', 'tmux'], binWith(t, []));
  t.match(two.stdout, `# SKIP ${ZSH_NOTE}; no tmux on the PATH: install it with \`apt-get install -y tmux\``);
  const chromium = await needing(['chromium'], binWith(t, []), { PINGMON_TEST_CHROMIUM: '/nonexistent/chromium' });
  t.match(
    chromium.stdout,
    '# SKIP no Chromium at /nonexistent/chromium: install it with `apt-get install -y chromium` ' +
      '(or set PINGMON_TEST_CHROMIUM)',
  );
});

t.test('a missing tool fails the test under CI=true, saying what to install', async (t) => {
  const result = await needing(['zsh', 'tmux'], binWith(t, ['tmux']), { CI: 'true' });
  t.equal(result.code, 1, 'the test file fails');
  t.match(result.stdout, `not ok 1 - ${ZSH_NOTE} (CI=true: every test must run)`);
  t.notMatch(result.stdout, /no tmux on the PATH|ok 1 - it ran/, 'tmux is there; the test did not run');
});

t.test('a test runs when its tools are on the PATH', async (t) => {
  for (const ci of [{}, { CI: 'true' }] as Array<Record<string, string>>) {
    const result = await needing(['zsh', 'tmux'], binWith(t, ['zsh', 'tmux']), ci);
    t.equal(result.code, 0, `exits 0 (${result.stderr})`);
    t.match(result.stdout, 'ok 1 - it ran', JSON.stringify(ci));
    t.notMatch(result.stdout, 'SKIP', 'nothing skipped');
  }
});

t.test('CI installs every tool the tests need, and the README and docs/testing.md list them', async (t) => {
  const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
  const ci = read('.ci/run');
  const packages = Object.values(SYSTEM_TOOLS)
    .map((tool) => tool.package)
    .sort();
  for (const name of packages) t.match(ci, `missing+=(${name})`, `.ci/run installs ${name} when it is missing`);
  for (const page of ['README.md', 'docs/testing.md']) {
    t.match(read(page), `apt-get install -y ${packages.join(' ')}\n`, `${page} lists them`);
  }
});
