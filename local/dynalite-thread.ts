import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import dynalite from 'dynalite';
import { type DynaliteRequest, type DynaliteResponse, dynaliteRequestSchema, dynaliteThreadDataSchema } from './dynalite-thread-protocol.js';
import { dynalitePatchedStores, installDynaliteIteratorClose } from './dynalite-iterator-close.js';

/**
 * dynalite in a thread of its own (ADR 0116): its request parsing, validation and LevelDB work
 * (milliseconds of CPU per call) no longer share the event loop with the API, the change feed and
 * the queue. It listens on the Unix socket (ADR 0042) and also takes requests over the parent
 * port, which spares each call its socket writes and HTTP parsing on both ends; `close` from the
 * parent closes it.
 */
if (parentPort) {
  const port = parentPort;
  const data = dynaliteThreadDataSchema.parse(workerData);
  installDynaliteIteratorClose();
  const patchedBefore = dynalitePatchedStores();
  const server: Server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...(data.path ? { path: data.path } : {}) });
  if (dynalitePatchedStores() !== patchedBefore + 1) {
    port.postMessage({ type: 'failed', error: 'dynalite was built without the iterator-close workaround (ADR 0042): its module layout changed' });
  } else {
    server.once('error', (error: Error) => port.postMessage({ type: 'failed', error: error.message }));
    server.listen({ path: data.socketPath, readableAll: false, writableAll: false }, () => port.postMessage({ type: 'listening' }));
    port.on('message', (message: unknown) => {
      if (message === 'close') {
        server.close(() => port.postMessage({ type: 'closed' }));
        return;
      }
      if (message === 'heap') {
        const gc: unknown = Reflect.get(globalThis, 'gc');
        if (typeof gc === 'function') {
          gc();
          gc();
        }
        port.postMessage({ type: 'heap', usedBytes: getHeapStatistics().used_heap_size });
        return;
      }
      const request = dynaliteRequestSchema.safeParse(message);
      if (request.success) serve(server, request.data, (response) => port.postMessage(response));
    });
  }
}

/**
 * Hands one request to dynalite's own HTTP request listener with the few parts of a request and a
 * response it uses (headers, method, url, data and end events; statusCode, setHeader, end).
 */
function serve(server: Server, request: DynaliteRequest, reply: (response: DynaliteResponse) => void): void {
  const req = Object.assign(new EventEmitter(), { method: request.method, url: request.url, headers: request.headers });
  const headers: Record<string, string> = {};
  const res = {
    statusCode: 200,
    contentType: '',
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    end(body?: string) {
      reply({ type: 'response', id: request.id, statusCode: res.statusCode, headers, body: body ?? '' });
    },
  };
  server.emit('request', req, res);
  if (request.body.length > 0) req.emit('data', Buffer.from(request.body, 'utf8'));
  req.emit('end');
}
