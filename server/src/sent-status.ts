import type { ServerResponse } from 'node:http';

/** nginx's "client closed request", also what hapi records for a request whose client went away. */
export const CLIENT_CLOSED = 499;

/**
 * The status a response went out with, for the request log and the metrics. A response never sent (the client
 * closed the connection first) still holds Node's default 200: a ping cut off while its API key was checked,
 * never recorded, would be counted as answered 200.
 */
export function sentStatus(res: Pick<ServerResponse, 'headersSent' | 'statusCode'>): number {
  return res.headersSent ? res.statusCode : CLIENT_CLOSED;
}
