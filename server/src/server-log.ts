import type { LogEvent, Request, Server } from '@hapi/hapi';
import pino from 'pino';
import { HAPI_CLIENT_ERROR_TAG } from './client-errors.js';
import type { Config } from './config.js';
import { LogLines } from './log-lines.js';
import type { LineLevel } from './log-lines.js';
import { sentStatus } from './sent-status.js';

/** A request that takes this long gets its line at `info`; a 5xx gets one at `warn`; others only at `debug`. */
export const SLOW_REQUEST_MS = 1_000;

/**
 * The server's log on standard output: what `server.log` is told (a 500's cause among it), and a line per request
 * (method, path, status, time, client address: never headers, bodies or query strings) when it is shown. No
 * listener of hapi's request events: with one, hapi builds an event for each step of every request.
 */
export function registerServerLog(server: Server, config: Config, clientAddress: (request: Request) => string): void {
  if (config.logLevel === 'silent') return;
  const lines = new LogLines(config.logLevel, config.logFormat, config.logColor);
  server.events.on('log', (event: LogEvent) => {
    if (event.tags.includes(HAPI_CLIENT_ERROR_TAG)) return;
    if (event.error) lines.failure(event.tags, event.error as Error);
    else lines.event(levelOf(event.tags), event.tags, event.data);
  });
  const least = lines.least;
  server.events.on('response', (request: Request) => {
    const { info } = request;
    const responseTime = (info.completed || info.responded) - info.received;
    const status = sentStatus(request.raw.res);
    const level = requestLevel(status, responseTime);
    // The ping's hot path: nothing is formatted for a line that is not written.
    if (pino.levels.values[level]! < least) return;
    const method = request.method.toUpperCase();
    lines.request(
      level,
      status,
      responseTime,
      `${method} ${request.path} ${status} ${responseTime}ms ${clientAddress(request)}`,
    );
  });
  server.ext('onPostStart', () => lines.start());
  server.ext('onPostStop', () => lines.stop());
}

function requestLevel(status: number, responseTime: number): LineLevel {
  // A 503 is the database's outage, however slow: counted in its own lines (outage-log.ts), not a line per request.
  if (status === 503) return 'debug';
  if (status >= 500) return 'warn';
  return responseTime >= SLOW_REQUEST_MS ? 'info' : 'debug';
}

/** The highest level among the tags (as hapi-pino read them, before); `info` without one. */
function levelOf(tags: string[]): LineLevel {
  if (tags.includes('error')) return 'error';
  if (tags.includes('warn')) return 'warn';
  if (tags.includes('info')) return 'info';
  return tags.includes('debug') ? 'debug' : 'info';
}
