export * from './types.js';
export * from './limits.js';
export { PingmonError } from './errors.js';
export { createPinger } from './pinger.js';
export type { PingerOptions, Pinger, SuccessOptions, FailOptions } from './pinger.js';
export { createClient } from './client.js';
export type { Client, ClientOptions } from './client.js';
export { newRunId } from './ids.js';
export { formatDuration, parseDuration } from './durations.js';
