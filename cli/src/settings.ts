import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** What `pingmon login` and `pingmon config set` remember, in $XDG_CONFIG_HOME/pingmon/config.json. */
export interface StoredSettings {
  url?: string;
  token?: string;
  apiKey?: string;
  monitor?: string;
}

export const SETTING_KEYS = ['url', 'token', 'api-key', 'monitor'] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

const FIELD: Record<SettingKey, keyof StoredSettings> = { url: 'url', token: 'token', 'api-key': 'apiKey', monitor: 'monitor' };
const ENV: Record<SettingKey, string> = { url: 'PINGMON_URL', token: 'PINGMON_TOKEN', 'api-key': 'PINGMON_API_KEY', monitor: 'PINGMON_MONITOR' };

type Env = Record<string, string | undefined>;

export function settingsPath(env: Env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'pingmon', 'config.json');
}

export function readSettings(env: Env): StoredSettings {
  try {
    return JSON.parse(readFileSync(settingsPath(env), 'utf8')) as StoredSettings;
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return {};
    throw new Error(`cannot read ${settingsPath(env)}: ${(err as Error).message}; fix or delete it`);
  }
}

/** Writes the settings readable by the owner only: the file holds a token and maybe an API key. */
export function writeSettings(env: Env, settings: StoredSettings): string {
  const path = settingsPath(env);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Written beside it, then renamed over it: a reader never sees half a file, and a full disk loses nothing.
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw new Error(`cannot write ${path}: ${(err as Error).message}`);
  }
  return path;
}

/** A setting from, in order: the flag, the PINGMON_* variable, the config file. */
export function resolveSetting(key: SettingKey, flag: string | undefined, env: Env, stored: StoredSettings): string | undefined {
  return flag || env[ENV[key]] || stored[FIELD[key]] || undefined;
}

export function storedField(key: SettingKey): keyof StoredSettings {
  return FIELD[key];
}

export function envName(key: SettingKey): string {
  return ENV[key];
}
