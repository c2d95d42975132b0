import { keyString } from '../../shared/contracts/object.js';
import type { Logger } from '../../shared/ports/logger.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import type { ReconcileRequest, WorkQueue } from '../../shared/ports/work-queue.js';
import type { RequestHandler, RequestOutcome } from '../../shared/work/request-outcome.js';
import { serializeError } from './error-codec.js';
import { type Channel, fromWorkerSchema, type FromWorker } from './protocol.js';
import { callStore } from './store-calls.js';

/** One worker as the dispatcher holds it: a thread, or an in-process channel in tests. */
export interface WorkerHandle {
  channel: Channel;
  /** Called once when the worker is gone (crashed or terminated). */
  onExit(listener: (error?: Error) => void): void;
  terminate(): Promise<void>;
}

export type SpawnWorker = (index: number) => WorkerHandle;

export interface ReconcileDispatcherOptions {
  workers: number;
  spawn: SpawnWorker;
  /** The store workers' calls run on (the reconcilers' store: benchmark wrappers apply). */
  store: ObjectStore;
  /** Where workers' enqueues go; read per message, so the queue may be built after the dispatcher. */
  queue: () => WorkQueue;
  logger: Logger;
}

interface Slot {
  index: number;
  handle: WorkerHandle;
  ready: Promise<void>;
  inFlight: Map<number, { request: ReconcileRequest; resolve: (outcome: RequestOutcome) => void; reject: (error: Error) => void }>;
  alive: boolean;
  /** Said it was ready once: a worker that dies before that cannot load, and is not restarted in a loop. */
  started: boolean;
}

/**
 * The main thread's half of `--workers N` (ADR 0115): the work queue stays here, with its dirty
 * and processing sets, so one reconcile per object is in flight across all workers exactly as in
 * one process; its handler hands each request to the least busy worker and resolves with the
 * outcome the worker sends back. Workers' store calls and enqueues run here, on the one store
 * and queue. A worker that dies fails its in-flight requests (the queue retries them, as SQS
 * redelivers after a crashed Lambda) and is replaced.
 */
export class ReconcileDispatcher {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private stopping = false;

  constructor(private readonly options: ReconcileDispatcherOptions) {
    if (!Number.isInteger(options.workers) || options.workers < 1) throw new Error(`workers must be an integer ≥ 1, not ${options.workers}`);
  }

  /**
   * The queue's handler: one try of one request on some worker. The request counts on its worker
   * from the moment it is picked, so requests the queue starts in one turn spread over the workers.
   */
  readonly handler: RequestHandler = async (request, failures) => {
    const slot = this.pick();
    const id = this.nextId++;
    return new Promise<RequestOutcome>((resolve, reject) => {
      slot.inFlight.set(id, { request, resolve, reject });
      const send = (): void => {
        if (!slot.inFlight.has(id)) return; // already failed by exited()
        if (!slot.alive) {
          slot.inFlight.delete(id);
          reject(new Error(`reconcile worker ${slot.index} exited; the request is retried`));
          return;
        }
        slot.handle.channel.postMessage({ type: 'reconcile', id, request, failures });
      };
      slot.ready.then(send, (error: unknown) => {
        if (slot.inFlight.delete(id)) reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  };

  /** Starts every worker and waits until each says it is ready. */
  async start(): Promise<void> {
    for (let index = 0; index < this.options.workers; index++) this.slots.push(this.launch(index));
    await Promise.all(this.slots.map((s) => s.ready));
  }

  /** Terminates the workers; requests still on them fail (and are not retried: the queue has stopped first). */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.slots.map((s) => s.handle.terminate()));
  }

  /** Requests running on each worker right now. */
  load(): number[] {
    return this.slots.map((s) => s.inFlight.size);
  }

  private pick(): Slot {
    let best: Slot | undefined;
    for (const slot of this.slots) if (slot.alive && (!best || slot.inFlight.size < best.inFlight.size)) best = slot;
    if (!best) throw new Error('no reconcile worker is running');
    return best;
  }

  private launch(index: number): Slot {
    const handle = this.options.spawn(index);
    let markReady: () => void = () => {};
    let failStart: (error: Error) => void = () => {};
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failStart = reject;
    });
    // Awaited by start() and by each request; a replacement that fails to start must not go unhandled.
    ready.catch(() => {});
    const slot: Slot = { index, handle, ready, inFlight: new Map(), alive: true, started: false };
    handle.channel.on('message', (raw) => {
      const parsed = fromWorkerSchema.safeParse(raw);
      if (parsed.success) this.receive(slot, parsed.data, markReady);
      else this.options.logger.error('malformed message from a reconcile worker; ignored', { worker: index, error: parsed.error.message });
    });
    handle.onExit((error) => this.exited(slot, failStart, error));
    return slot;
  }

  private receive(slot: Slot, message: FromWorker, markReady: () => void): void {
    const { channel } = slot.handle;
    switch (message.type) {
      case 'ready':
        slot.started = true;
        markReady();
        return;
      case 'outcome': {
        const waiting = slot.inFlight.get(message.id);
        slot.inFlight.delete(message.id);
        waiting?.resolve(message.outcome);
        return;
      }
      case 'store':
        callStore(this.options.store, message.method, message.args).then(
          (value) => slot.alive && channel.postMessage({ type: 'storeResult', id: message.id, ...(value === undefined ? {} : { json: JSON.stringify(value) }) }),
          (error: unknown) => slot.alive && channel.postMessage({ type: 'storeError', id: message.id, error: serializeError(error) }),
        );
        return;
      case 'enqueue': {
        const queue = this.options.queue();
        const { delaySeconds } = message;
        const sent = delaySeconds === undefined ? queue.enqueueMany(message.requests) : Promise.all(message.requests.map((r) => queue.enqueue(r, { delaySeconds })));
        sent.catch((error: unknown) => this.options.logger.error('a worker enqueue failed', { error: String(error) }));
        return;
      }
      case 'log':
        this.options.logger[message.level](message.message, { worker: slot.index, ...message.fields });
    }
  }

  private exited(slot: Slot, failStart: (error: Error) => void, error?: Error): void {
    if (!slot.alive) return;
    slot.alive = false;
    failStart(new Error(`reconcile worker ${slot.index} exited before it was ready${error ? `: ${error.message}` : ''}`));
    for (const [, waiting] of slot.inFlight) waiting.reject(new Error(`reconcile worker ${slot.index} exited during ${keyString(waiting.request)}${error ? `: ${error.message}` : ''}`));
    slot.inFlight.clear();
    if (this.stopping) return;
    if (!slot.started) {
      this.options.logger.error('a reconcile worker could not start; not restarting it', { worker: slot.index, ...(error ? { error: error.message } : {}) });
      return;
    }
    this.options.logger.error('a reconcile worker exited; starting another', { worker: slot.index, ...(error ? { error: error.message } : {}) });
    const position = this.slots.indexOf(slot);
    if (position >= 0) this.slots[position] = this.launch(slot.index);
  }
}
