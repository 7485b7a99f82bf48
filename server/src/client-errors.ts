import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Server } from '@hapi/hapi';
import type { ErrorBody } from '@pingmon/sdk/wire';

/** What Node's parser reports: `rawPacket` holds the request's bytes, headers and credentials included. */
interface ClientError extends Error {
  code?: string;
  reason?: string;
  rawPacket?: Buffer;
}

/** The one Node sets while a response is bound to the socket; writing raw bytes then would corrupt it. */
interface HttpSocket extends Socket {
  _httpMessage?: unknown;
}

/**
 * Requests Node's HTTP parser refuses (a garbage request line, a header without a colon, headers over
 * 16 KB, Content-Length with Transfer-Encoding) never reach a route. hapi answers them with a bare
 * `400 Bad Request` and logs the error with `rawPacket`, the raw request: API keys, tokens and passwords
 * ended up in the log that way. Here they get the error shape of every other error, and a log line
 * that names the fault and the peer only.
 */
export function registerClientErrors(server: Server): void {
  const listener = server.listener;
  const [hapiHandler] = listener.listeners('clientError') as ((err: ClientError, socket: Socket) => void)[];
  listener.removeAllListeners('clientError');
  listener.on('clientError', (err: ClientError, socket: HttpSocket) => {
    delete err.rawPacket;
    // A parse error while a request is in progress (a pipelined one, a broken chunked body): hapi
    // answers through that request, so the reply goes through the error shape anyway.
    if (socket._httpMessage && hapiHandler) return hapiHandler(err, socket);
    server.log(
      ['client', 'info'],
      `malformed HTTP request from ${socket.remoteAddress ?? 'unknown'}: ` +
        `${err.code ?? 'error'} ${err.reason ?? err.message}`,
    );
    if (!socket.writable) return socket.destroy();
    socket.end(rawResponse(errorFor(err)));
  });
}

function errorFor(err: ClientError): ErrorBody {
  const body = (statusCode: number, code: string, message: string): ErrorBody => ({
    success: false,
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    code,
    message,
  });
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return body(
        431,
        'headers_too_large',
        'The request line and headers are larger than this server reads (16 KB in all). ' +
          'Send a shorter URL or fewer headers.',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return body(408, 'request_timeout', 'The request did not arrive in time. Send it again.');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return body(
        413,
        'payload_too_large',
        'The chunk extensions of the request body are too large. Send the body without them.',
      );
    default:
      return body(
        400,
        'malformed_request',
        `The request is not valid HTTP/1.1 (${err.reason ?? 'parse error'}). Check the request line and headers.`,
      );
  }
}

function rawResponse(body: ErrorBody): Buffer {
  const json = Buffer.from(JSON.stringify(body));
  const head = [
    `HTTP/1.1 ${body.statusCode} ${body.error}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${json.length}`,
    'Connection: close',
  ].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`), json]);
}
