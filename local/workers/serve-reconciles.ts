import { processRequest } from '../../functions/reconcile/engine/process-request.js';
import type { ReconcilerRegistry } from '../../functions/reconcile/engine/registry.js';
import type { ReconcileContext } from '../../functions/reconcile/engine/skeleton/types.js';
import type { RetryPolicy } from '../../functions/reconcile/engine/work/retry-policy.js';
import type { Clock } from '../../shared/ports/clock.js';
import type { Logger, LogFields } from '../../shared/ports/logger.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import type { EnqueueOptions, ReconcileRequest, WorkQueue } from '../../shared/ports/work-queue.js';
import { type Channel, toWorkerSchema } from './protocol.js';
import { RemoteObjectStore } from './remote-store.js';

export interface WorkerDeps {
  registry: ReconcilerRegistry;
  clock: Clock;
  /** Provider ports built over the worker's (remote) store. */
  providers?: (store: ObjectStore) => Readonly<Record<string, unknown>>;
  policy?: RetryPolicy;
  /** Log lines below this level are dropped in the worker instead of crossing the thread. Default info. */
  logLevel?: LogLevel;
}

type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/**
 * A reconcile worker's side of the channel (ADR 0115): runs processRequest for each request the
 * dispatcher hands it, against a store, queue and logger that all forward to the dispatcher, and
 * answers with the outcome. It keeps no work state: which object runs where, retries and delays
 * are the dispatcher's queue's. Returns a function that stops listening.
 */
export function serveReconciles(channel: Channel, deps: WorkerDeps): () => void {
  const store = new RemoteObjectStore(channel);
  const ctx: ReconcileContext = {
    store,
    queue: remoteQueue(channel),
    clock: deps.clock,
    logger: remoteLogger(channel, LEVELS.indexOf(deps.logLevel ?? 'info'), {}),
    providers: deps.providers?.(store) ?? {},
  };
  const listener = (raw: unknown) => {
    const parsed = toWorkerSchema.safeParse(raw);
    if (!parsed.success) {
      ctx.logger.error('malformed message from the dispatcher; ignored', { error: parsed.error.message });
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'storeResult':
        store.settle(message.id, { json: message.json });
        return;
      case 'storeError':
        store.settle(message.id, { error: message.error });
        return;
      case 'reconcile':
        void processRequest(message.request, message.failures, { registry: deps.registry, context: () => ctx, ...(deps.policy ? { policy: deps.policy } : {}) }).then(
          (outcome) => channel.postMessage({ type: 'outcome', id: message.id, outcome }),
          // processRequest turns every reconcile error into an outcome; this is a bug, retried like a crash.
          (error: unknown) =>
            channel.postMessage({ type: 'outcome', id: message.id, outcome: { type: 'retry', afterSeconds: 1, error: String(error) } }),
        );
    }
  };
  channel.on('message', listener);
  channel.postMessage({ type: 'ready' });
  return () => channel.off('message', listener);
}

/** Enqueues go to the dispatcher's queue in order, ahead of the outcome of the reconcile that made them. */
function remoteQueue(channel: Channel): WorkQueue {
  const post = (requests: readonly ReconcileRequest[], options?: EnqueueOptions) =>
    channel.postMessage({ type: 'enqueue', requests: [...requests], ...(options?.delaySeconds !== undefined ? { delaySeconds: options.delaySeconds } : {}) });
  return {
    enqueue: async (request, options) => post([request], options),
    enqueueMany: async (requests) => post(requests),
  };
}

function remoteLogger(channel: Channel, min: number, base: LogFields): Logger {
  const log = (level: LogLevel) => (message: string, fields?: LogFields) => {
    if (LEVELS.indexOf(level) < min) return;
    const all = { ...base, ...fields };
    try {
      channel.postMessage({ type: 'log', level, message, fields: all });
    } catch {
      // A field that cannot be cloned (a function, a socket) must not fail the reconcile that logs it.
      channel.postMessage({ type: 'log', level, message, fields: { fields: 'not cloneable across threads' } });
    }
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'), child: (fields) => remoteLogger(channel, min, { ...base, ...fields }) };
}
