import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Server } from '@hapi/hapi';
import type { ErrorBody } from '@pingmon/sdk/wire';

/** What Node's parser reports: `rawPacket` holds the request's bytes, headers and credentials included. */
interface ClientError extends Error {
  code?: string;
  reason?: string;
  rawPacket?: Buffer;
}

/** The response Node has bound to the socket (the oldest one unfinished); writing raw bytes then would corrupt it. */
interface HttpSocket extends Socket {
  _httpMessage?: ServerResponse | null;
}

/**
 * The tag of hapi's own log line for a client error: at error level and without the peer, so the server log
 * leaves it out (server-log.ts); registerClientErrors logs the fault and the peer instead.
 */
export const HAPI_CLIENT_ERROR_TAG = 'connection';

/**
 * Requests Node's HTTP parser refuses (a garbage request line, a header without a colon, headers over
 * 16 KB, Content-Length with Transfer-Encoding, a broken chunked body) never reach a route. hapi answers them
 * with a bare `400 Bad Request` and logs the error with `rawPacket`, the raw request: API keys, tokens and
 * passwords ended up in the log that way. Here they get the error shape of every other error, and a log line
 * that names the fault and the peer only. So does an `Expect` header other than 100-continue (Node's bare 417).
 */
export function registerClientErrors(server: Server): void {
  const listener = server.listener;
  const [hapiHandler] = listener.listeners('clientError') as ((err: ClientError, socket: Socket) => void)[];
  listener.removeAllListeners('clientError');
  // Node's parser stays in error: bytes that follow on the socket report the same fault again.
  const answered = new WeakSet<Socket>();
  listener.on('clientError', (err: ClientError, socket: HttpSocket) => {
    delete err.rawPacket;
    if (answered.has(socket)) return;
    answered.add(socket);
    log(server, socket, 'malformed HTTP request', `${err.code ?? 'error'} ${err.reason ?? err.message}`);
    // A broken body of the request in progress: hapi answers through that request, in the error shape.
    if (socket._httpMessage && !socket._httpMessage.req.complete && hapiHandler) return hapiHandler(err, socket);
    // A fault in a pipelined request: the requests read before it are answered first.
    afterResponses(socket, () => {
      if (!socket.writable) return socket.destroy();
      socket.end(rawResponse(errorFor(err)));
    });
  });
  listener.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    log(server, request.socket, 'refused request', 'an Expect header other than 100-continue');
    const body = errorBody(
      417,
      'expectation_failed',
      'The only Expect header this server supports is "Expect: 100-continue". Send the request without it.',
    );
    const json = JSON.stringify(body);
    response.writeHead(417, { ...RAW_HEADERS, 'Content-Length': Buffer.byteLength(json) }).end(json);
  });
}

function log(server: Server, socket: Socket, what: string, fault: string): void {
  server.log(['client', 'info'], `${what} from ${socket.remoteAddress ?? 'unknown'}: ${fault}`);
}

/** Calls `then` once every response bound to or queued on the socket has finished (or the socket closed). */
function afterResponses(socket: HttpSocket, then: () => void): void {
  const response = socket._httpMessage;
  if (!response) return then();
  let called = false;
  const next = () => {
    if (called) return;
    called = true;
    // Node binds the next queued response to the socket on 'finish', before listeners added later run.
    afterResponses(socket, then);
  };
  response.once('finish', next);
  response.once('close', next);
}

function errorBody(statusCode: number, code: string, message: string): ErrorBody {
  return { success: false, statusCode, error: STATUS_CODES[statusCode] ?? 'Error', code, message };
}

function errorFor(err: ClientError): ErrorBody {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return errorBody(
        431,
        'headers_too_large',
        'The request line and headers are larger than this server reads (16 KB in all). ' +
          'Send a shorter URL or fewer headers.',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return errorBody(408, 'request_timeout', 'The request did not arrive in time. Send it again.');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return errorBody(
        413,
        'payload_too_large',
        'The chunk extensions of the request body are too large. Send the body without them.',
      );
    default:
      return errorBody(
        400,
        'malformed_request',
        `The request is not valid HTTP/1.1 (${err.reason ?? 'parse error'}). Check the request line and headers.`,
      );
  }
}

/** The headers of an answer written past hapi: those hapi gives API responses, and the connection closed. */
const RAW_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  Connection: 'close',
} as const;

function rawResponse(body: ErrorBody): Buffer {
  const json = Buffer.from(JSON.stringify(body));
  const head = [
    `HTTP/1.1 ${body.statusCode} ${body.error}`,
    ...Object.entries(RAW_HEADERS).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${json.length}`,
  ].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`), json]);
}
