import { parentPort, workerData } from 'node:worker_threads';
import dynalite from 'dynalite';
import { dynaliteThreadDataSchema } from './dynalite-thread-protocol.js';
import { dynalitePatchedStores, installDynaliteIteratorClose } from './dynalite-iterator-close.js';

/**
 * dynalite in a thread of its own (ADR 0116): its request parsing, validation and LevelDB work
 * (milliseconds of CPU per call) no longer share the event loop with the API, the change feed and
 * the queue. It listens on the Unix socket only (ADR 0042); `close` from the parent closes it.
 */
if (parentPort) {
  const port = parentPort;
  const data = dynaliteThreadDataSchema.parse(workerData);
  installDynaliteIteratorClose();
  const patchedBefore = dynalitePatchedStores();
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...(data.path ? { path: data.path } : {}) });
  if (dynalitePatchedStores() !== patchedBefore + 1) {
    port.postMessage({ type: 'failed', error: 'dynalite was built without the iterator-close workaround (ADR 0042): its module layout changed' });
  } else {
    server.once('error', (error: Error) => port.postMessage({ type: 'failed', error: error.message }));
    server.listen({ path: data.socketPath, readableAll: false, writableAll: false }, () => port.postMessage({ type: 'listening' }));
    port.on('message', (message: unknown) => {
      if (message !== 'close') return;
      server.close(() => port.postMessage({ type: 'closed' }));
    });
  }
}
