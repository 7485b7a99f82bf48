export { createServer, API_PREFIX } from './server.js';
export { loadConfig, ConfigError, redactUrl } from './config.js';
export type { Config, ConfigOverrides } from './config.js';
export { openDatabase, closeDatabase, DatabaseUnavailableError } from './db/index.js';
export type { Database } from './db/index.js';
export { createAccount, AccountInputError } from './bootstrap.js';
export type { NewAccount } from './bootstrap.js';
export { stopGracefully } from './lifecycle.js';
export type { StopHooks, Stopping } from './lifecycle.js';
