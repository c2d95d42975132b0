import { keyString } from '../contracts/object.js';
import { type Clock, systemClock } from '../ports/clock.js';
import { type Logger, silentLogger } from '../ports/logger.js';
import type { CausedEnqueueOptions, EnqueueOptions, ObjectVersion, ReconcileRequest, WorkQueue } from '../ports/work-queue.js';
import { PendingWakes } from './pending-wakes.js';
import type { RequestHandler, RequestOutcome } from './request-outcome.js';
import { schedulePeriodicRun } from './periodic-run.js';
import { systemTimers, type Timers } from './timers.js';
import { ReadyByKind } from './ready-by-kind.js';
import { LatencySamples } from './latency-samples.js';
import { emptyCounters, type WorkCounters } from './work-counters.js';

export interface InProcessWorkQueueOptions {
  /** One try of one request (processRequest bound to its ports). */
  handler: RequestHandler;
  /** Requests for different objects that may run at once, all kinds together. Default 4. */
  concurrency?: number;
  /**
   * Requests of one kind that may run at once (controller-runtime's MaxConcurrentReconciles per
   * controller, a Lambda function's reserved concurrency): reconciles of a kind that wait long
   * (key generation, a provider API, a runtime extension) then hold only that kind's slots, never
   * every slot. Default: `concurrency` (no limit of its own).
   */
  concurrencyPerKind?: number;
  clock?: Clock;
  timers?: Timers;
  /** idle() still waits for delayed requests due within this many ms. Default 50. */
  idleHorizonMs?: number;
  /** A periodic full resync (e.g. `() => resyncAll(store, registry, queue)`). */
  resync?: { intervalSeconds: number; run: () => Promise<void> };
  logger?: Logger;
}

export interface DeadLetter {
  request: ReconcileRequest;
  error: string;
  /** epoch ms */
  at: number;
}

interface Pending {
  request: ReconcileRequest;
  /** epoch ms of the first enqueue this pending entry absorbed */
  since: number;
  wakes: PendingWakes;
}

interface Waiting {
  request: ReconcileRequest;
  dueAt: number;
  cancel: () => void;
  /** When it was asked for, in the queue's own order of events (`moment`). */
  askedAt: number;
}

/**
 * client-go's workqueue in one process: a FIFO of object keys with a dirty set (pending) and a
 * processing set. An object is never processed twice at once; enqueues while it is pending
 * coalesce; enqueues while it runs mark it dirty, so it runs at most once more afterwards (not
 * at all when every change that marked it made a version the run had read, ADR 0137, or the
 * run ended with its object gone and nothing marked it that the run had not seen, ADR 0149).
 * Delayed requests wait in timers (any length); failures back off as processRequest decides.
 */
export class InProcessWorkQueue implements WorkQueue {
  readonly counters: WorkCounters = emptyCounters();
  readonly deadLetters: DeadLetter[] = [];
  private readonly latencies = new LatencySamples();
  private readonly pending = new Map<string, Pending>();
  private readonly processing = new Set<string>();
  private readonly ready: ReadyByKind;
  private readonly waiting = new Map<string, Waiting>();
  private readonly failures = new Map<string, number>();
  /** Counts the queue's events, to tell what was asked for before a run started. */
  private moment = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private idleWaiters: Array<() => void> = [];
  private running = false;
  private stopped = false;
  private cancelResync: (() => void) | undefined;
  private readonly concurrency: number;
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly horizonMs: number;
  private readonly logger: Logger;

  constructor(private readonly options: InProcessWorkQueueOptions) {
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.ready = new ReadyByKind(Math.max(1, Math.min(this.concurrency, options.concurrencyPerKind ?? this.concurrency)));
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? systemTimers;
    this.horizonMs = options.idleHorizonMs ?? 50;
    this.logger = options.logger ?? silentLogger;
  }

  async enqueue(request: ReconcileRequest, options: EnqueueOptions & CausedEnqueueOptions = {}): Promise<void> {
    if (this.stopped) return;
    this.counters.enqueued++;
    const delayMs = Math.max(0, (options.delaySeconds ?? 0) * 1000);
    if (delayMs > 0) this.addAfter(request, delayMs);
    else this.add(request, options.cause);
  }

  async enqueueMany(requests: readonly ReconcileRequest[], options: CausedEnqueueOptions = {}): Promise<void> {
    for (const request of requests) await this.enqueue(request, options);
  }

  /** Begins processing (and the resync timer, if configured). */
  start(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    const resync = this.options.resync;
    if (resync) this.cancelResync = schedulePeriodicRun({ ...resync, active: () => this.running, timers: this.timers, logger: this.logger, name: 'resync' });
    this.pump();
  }

  /**
   * Stops taking work. With `drain`, first waits until the queue is idle; otherwise queued and
   * delayed requests are dropped (they are level-triggered: a restart's resync finds them again).
   * Always waits for reconciles already running.
   */
  async stop(options: { drain?: boolean } = {}): Promise<void> {
    if (options.drain && this.running) await this.idle();
    this.running = false;
    this.stopped = true;
    this.cancelResync?.();
    for (const w of this.waiting.values()) w.cancel();
    this.waiting.clear();
    this.ready.clear();
    this.pending.clear();
    await Promise.allSettled([...this.inFlight]);
    this.checkIdle();
  }

  /** Resolves when nothing is pending, running, or delayed until within the idle horizon. */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.checkIdle();
    });
  }

  /** Enqueue-to-start latency percentile in ms (p in 0..100). */
  latencyPercentile(p: number): number | undefined {
    return this.latencies.percentile(p);
  }

  /**
   * The enqueue-to-start waits (ms) recorded since the last take, and forgets them: a caller that
   * measures phases apart (the benchmark's create and delete, not its bulk resync) takes them
   * at each phase's end.
   */
  takeLatencySamples(): number[] {
    return this.latencies.take();
  }

  /** Number of objects pending or running right now. */
  depth(): number {
    return new Set([...this.pending.keys(), ...this.processing]).size;
  }

  private add(request: ReconcileRequest, cause?: ObjectVersion): void {
    const id = keyString(request);
    const pending = this.pending.get(id);
    if (pending) {
      this.counters.coalesced++;
      pending.wakes.add(cause);
      return;
    }
    this.pending.set(id, { request, since: this.clock.now().getTime(), wakes: new PendingWakes(cause) });
    if (!this.processing.has(id)) this.ready.push(request, id);
    this.pump();
  }

  /** Keeps only the earliest due time per object, like client-go's waiting heap. */
  private addAfter(request: ReconcileRequest, delayMs: number): void {
    const id = keyString(request);
    const dueAt = this.clock.now().getTime() + delayMs;
    const existing = this.waiting.get(id);
    if (existing && existing.dueAt <= dueAt) {
      this.counters.coalesced++;
      return;
    }
    existing?.cancel();
    const cancel = this.timers.schedule(delayMs, () => {
      if (this.waiting.get(id)?.dueAt !== dueAt) return;
      this.waiting.delete(id);
      this.add(request);
      this.checkIdle();
    });
    this.waiting.set(id, { request, dueAt, cancel, askedAt: ++this.moment });
  }

  /** Starts work while there are free slots, the kinds in turn (ReadyByKind). */
  private pump(): void {
    while (this.running && this.processing.size < this.concurrency) {
      const id = this.ready.next();
      if (id === undefined) return;
      const entry = this.pending.get(id);
      if (entry) this.begin(id, entry);
    }
  }

  private begin(id: string, entry: Pending): void {
    this.pending.delete(id);
    this.processing.add(id);
    this.ready.started(entry.request);
    this.latencies.record(this.clock.now().getTime() - entry.since);
    const task = this.work(id, entry.request).finally(() => {
      this.inFlight.delete(task);
    });
    this.inFlight.add(task);
  }

  private async work(id: string, request: ReconcileRequest): Promise<void> {
    this.counters.processed++;
    const startedAt = ++this.moment;
    let outcome: RequestOutcome;
    try {
      outcome = await this.options.handler(request, this.failures.get(id) ?? 0);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error('request handler threw; retrying', { key: id, error: message });
      outcome = { type: 'retry', afterSeconds: 1, error: message };
    }
    if (!this.stopped) {
      this.dropRequeueAnsweredBy(id, startedAt, outcome);
      this.apply(id, request, outcome);
    }
    this.dropWakesAlreadyRead(id, outcome);
    this.processing.delete(id);
    this.ready.finished(request);
    if (this.pending.has(id) && this.running) this.ready.push(request, id);
    this.pump();
    this.checkIdle();
  }

  /**
   * A delayed run asked for before this run started (an earlier run's requeue or backoff) is
   * answered by this run when it succeeded: its own outcome says again whether, and when, to look
   * again (ADR 0137).
   */
  private dropRequeueAnsweredBy(id: string, startedAt: number, outcome: RequestOutcome): void {
    if (outcome.type !== 'done' && outcome.type !== 'requeue') return;
    const waiting = this.waiting.get(id);
    if (!waiting || waiting.askedAt > startedAt) return;
    waiting.cancel();
    this.waiting.delete(id);
  }

  /** A rerun whose every wake the reconcile that just finished answered is dropped (PendingWakes, ADR 0137, 0149). */
  private dropWakesAlreadyRead(id: string, outcome: RequestOutcome): void {
    if ((outcome.type !== 'done' && outcome.type !== 'requeue') || !outcome.read) return;
    if (this.pending.get(id)?.wakes.answeredBy(outcome.read, outcome.gone === true)) {
      this.pending.delete(id);
      this.counters.alreadyRead++;
    }
  }

  private apply(id: string, request: ReconcileRequest, outcome: RequestOutcome): void {
    switch (outcome.type) {
      case 'done':
        this.failures.delete(id);
        return;
      case 'requeue':
        this.failures.delete(id);
        this.addAfter(request, outcome.afterSeconds * 1000);
        return;
      case 'retry':
        this.counters.failed++;
        this.failures.set(id, (this.failures.get(id) ?? 0) + 1);
        this.addAfter(request, outcome.afterSeconds * 1000);
        return;
      case 'deadLetter':
        this.counters.failed++;
        this.counters.deadLettered++;
        this.failures.delete(id);
        this.deadLetters.push({ request, error: outcome.error, at: this.clock.now().getTime() });
        return;
      case 'terminal':
        this.counters.failed++;
        this.failures.delete(id);
    }
  }

  private isIdle(): boolean {
    if (this.processing.size > 0) return false;
    if (this.running && !this.ready.isEmpty) return false;
    const horizon = this.clock.now().getTime() + this.horizonMs;
    for (const w of this.waiting.values()) if (w.dueAt <= horizon) return false;
    return true;
  }

  private checkIdle(): void {
    if (this.idleWaiters.length === 0 || !this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
