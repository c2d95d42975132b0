import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type ApiRequest, type ApiResponse, MAX_BODY_BYTES, type ResponseStream } from '../functions/api/http.js';
import { errorResponse } from '../functions/api/status.js';
import { TooLargeError } from '../shared/errors/index.js';

export type RequestHandler = (request: ApiRequest) => Promise<ApiResponse>;

/** How long the embedded server waits on a client; Node's own defaults but for keep-alive. */
export interface ConnectionTimeouts {
  /** An idle connection after a response is closed after this long (Node: 5 s). */
  keepAliveMs: number;
  /**
   * A request's headers must arrive within this long of the connection opening or of the
   * previous response (Node: 60 s); otherwise the connection is closed without a reply.
   */
  headersMs: number;
  /** How often Node checks the headers timeout (Node: 30 s); a timeout fires up to this late. */
  checkIntervalMs: number;
}

export const DEFAULT_CONNECTION_TIMEOUTS: ConnectionTimeouts = { keepAliveMs: 5_000, headersMs: 60_000, checkIntervalMs: 30_000 };

/** The embedded server: Node's http adapted to the same request/response the Lambda handler uses. */
export async function listen(
  handler: RequestHandler,
  options: { host: string; port: number; tls?: { key: string; cert: string }; timeouts?: ConnectionTimeouts },
): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    void serve(req, res, handler);
  };
  const timeouts = options.timeouts ?? DEFAULT_CONNECTION_TIMEOUTS;
  const serverOptions = { connectionsCheckingInterval: timeouts.checkIntervalMs, headersTimeout: timeouts.headersMs, keepAliveTimeout: timeouts.keepAliveMs };
  // kubectl sends bearer tokens only over TLS, so kubeconfig clients need `tls`.
  const server: Server = options.tls
    ? createTlsServer({ ...serverOptions, key: options.tls.key, cert: options.tls.cert }, onRequest)
    : createServer(serverOptions, onRequest);
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? (address satisfies AddressInfo).port : options.port;
  return {
    server,
    url: `${options.tls ? 'https' : 'http'}://${options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Node's error codes for a client that sent nothing (more) in time or went away. */
const SILENT_CLIENT_ERRORS = new Set(['ERR_HTTP_REQUEST_TIMEOUT', 'ECONNRESET']);

/**
 * Requests Node's HTTP parser refuses before any handler runs (a malformed method or request
 * line, headers over the size limit) still get a Kubernetes Status, then the connection closes.
 * A connection on which no request arrived in time is closed without a reply, as Go's net/http
 * (the API server's) does: Go clients open connections they may never use, and a reply they did
 * not ask for is logged as "Unsolicited response received on idle HTTP channel".
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || (error.code !== undefined && SILENT_CLIENT_ERRORS.has(error.code))) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const body = JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: tooLarge ? 'the request line or headers are too large' : 'the request could not be parsed as HTTP',
    reason: 'BadRequest',
    code: status,
  });
  const reason = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

async function serve(req: IncomingMessage, res: ServerResponse, handler: RequestHandler): Promise<void> {
  let response: ApiResponse;
  try {
    const body = await readBody(req);
    const { path, query } = splitRequestTarget(req.url ?? '/');
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    response = await handler({ method: req.method ?? 'GET', path, query, headers, body: body.toString('utf8'), bodyBytes: body });
  } catch (error) {
    response = errorResponse(error);
  }
  if (response.stream) return stream(response, response.stream, res);
  const body = response.bytes ?? response.body;
  res.writeHead(response.status, { ...response.headers, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** A watch: chunked, flushed event by event, with Node's write buffer as the back-pressure signal. */
function stream(response: ApiResponse, body: ResponseStream, res: ServerResponse): void {
  res.writeHead(response.status, { ...response.headers, 'transfer-encoding': 'chunked' });
  res.flushHeaders();
  res.on('drain', () => body.drained());
  res.on('close', () => body.cancel());
  body.start({
    write: (chunk) => res.write(chunk),
    end: () => res.end(),
  });
}

/**
 * The raw path and the query of a request target. The path stays percent-encoded and is not
 * normalised (WHATWG URL parsing would turn `namespaces/%2e%2e/configmaps` into `/configmaps`):
 * the API routes on raw segments (functions/api/paths.ts).
 */
export function splitRequestTarget(target: string): { path: string; query: URLSearchParams } {
  const mark = target.indexOf('?');
  const path = mark < 0 ? target : target.slice(0, mark);
  return { path: path.startsWith('/') ? path : `/${path}`, query: new URLSearchParams(mark < 0 ? '' : target.slice(mark + 1)) };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES && !failed) {
        failed = true;
        reject(new TooLargeError(`the request body is over the limit of ${MAX_BODY_BYTES} bytes`));
        return;
      }
      if (!failed) chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}
