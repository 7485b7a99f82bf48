import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { notADuration, parseDurationMs } from '@pingmon/sdk';

// The one module of the CLI that reads process.env (`pingmon server` aside, which hands it to the server's config).

/** What `pingmon login` and `pingmon config set` remember, in $XDG_CONFIG_HOME/pingmon/config.json. */
export interface StoredSettings {
  url?: string;
  token?: string;
  apiKey?: string;
  monitor?: string;
}

export const SETTING_KEYS = ['url', 'token', 'api-key', 'monitor'] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

const FIELD: Record<SettingKey, keyof StoredSettings> = {
  url: 'url',
  token: 'token',
  'api-key': 'apiKey',
  monitor: 'monitor',
};
const ENV: Record<SettingKey, string> = {
  url: 'PINGMON_URL',
  token: 'PINGMON_TOKEN',
  'api-key': 'PINGMON_API_KEY',
  monitor: 'PINGMON_MONITOR',
};

export function settingsPath(): string {
  const base = process.env.XDG_CONFIG_HOME || join(process.env.HOME || homedir(), '.config');
  return join(base, 'pingmon', 'config.json');
}

export function readSettings(): StoredSettings {
  try {
    return JSON.parse(readFileSync(settingsPath(), 'utf8')) as StoredSettings;
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return {};
    throw new Error(`cannot read ${settingsPath()}: ${(err as Error).message}; fix or delete it`, { cause: err });
  }
}

/** Writes the settings readable by the owner only: the file holds a token and maybe an API key. */
export function writeSettings(settings: StoredSettings): string {
  const path = settingsPath();
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Written beside it, then renamed over it: a reader never sees half a file, and a full disk loses nothing.
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw new Error(`cannot write ${path}: ${(err as Error).message}`, { cause: err });
  }
  return path;
}

/** A setting from, in order: the flag, the PINGMON_* variable, the config file. */
export function resolveSetting(key: SettingKey, flag: string | undefined, stored: StoredSettings): string | undefined {
  return flag || process.env[ENV[key]] || stored[FIELD[key]] || undefined;
}

/** Why `url` cannot be a server's address ("needs http:// or https://…"), or undefined when it can. */
export function notAServerUrl(url: string): string | undefined {
  if (!/^https?:\/\//i.test(url)) return `needs http:// or https:// in front (got "${url}"), e.g. http://${url}`;
  if (!/^https?:\/\/[^/]/i.test(url) || !URL.canParse(url)) return `must be http(s)://host[:port] (got "${url}")`;
  return undefined;
}

/** The server URL as resolveSetting finds it; a usage error naming where it came from when it is no http(s) URL. */
export function resolveUrl(flag: string | undefined, stored: StoredSettings): string | undefined {
  const url = resolveSetting('url', flag, stored);
  const problem = url === undefined ? undefined : notAServerUrl(url);
  if (!problem) return url;
  const source = flag ? '--url' : process.env.PINGMON_URL ? 'PINGMON_URL' : `the url stored in ${settingsPath()}`;
  throw Object.assign(new Error(`${source} ${problem}`), { exitCode: 2 });
}

export function storedField(key: SettingKey): keyof StoredSettings {
  return FIELD[key];
}

/** COLUMNS, for output that is not a terminal; undefined when unset or not a number. */
export function columnsVariable(): number | undefined {
  return Number(process.env.COLUMNS) || undefined;
}

/** The environment as the server's own config reads it, for the commands that open the database themselves. */
export function serverEnvironment(): NodeJS.ProcessEnv {
  return process.env;
}

/**
 * ink draws only the last frame, at exit, when it believes it runs in CI (CI, CONTINUOUS_INTEGRATION or any CI_*
 * variable set). `pingmon browse` calls this once it knows it has a terminal: it is interactive whatever the
 * environment says. (Setting CI=false instead would also turn colours off.) Nothing is started from there that
 * could miss them.
 */
export function forgetContinuousIntegration(): void {
  for (const name of Object.keys(process.env)) {
    if (name === 'CI' || name === 'CONTINUOUS_INTEGRATION' || name.startsWith('CI_')) delete process.env[name];
  }
}

/** The default of PINGMON_FLUSH_FOR: as long as a background flush tries before the next run takes over. */
const FLUSH_FOR_DEFAULT = '30m';

/**
 * PINGMON_FLUSH_FOR: how long the background flush `pingmon run` starts after keeping a ping in the spool keeps
 * trying (0: none is started). A value that is not a duration is said, and the default used.
 */
export function backgroundFlushFor(): { ms: number; warning?: string } {
  const given = process.env.PINGMON_FLUSH_FOR;
  const ms = given === undefined || given === '' ? undefined : parseDurationMs(given);
  if (ms !== undefined) return { ms };
  const fallback = parseDurationMs(FLUSH_FOR_DEFAULT)!;
  if (given === undefined || given === '') return { ms: fallback };
  return { ms: fallback, warning: `${notADuration('PINGMON_FLUSH_FOR', given)}, or 0: using 30m` };
}
