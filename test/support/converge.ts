/**
 * Drives reconcilers to a fixed point without queues: every round runs `runReconcile` once for
 * every object of every registered kind; `requeueAfterSeconds` is honoured by a fake clock that
 * jumps to the next due time once a round writes nothing. Stops when a quiet round has also
 * passed every requeue that was pending when things went quiet, or after `maxRounds`.
 */

import { PROVIDER_LOOKUP_PORT, type ProviderLookup } from '../../shared/contracts/providers/provider-lookup.js';
import { type ObjectKey, keyString } from '../../shared/contracts/object.js';
import { silentLogger } from '../../shared/ports/logger.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import type { WorkQueue } from '../../shared/ports/work-queue.js';
import { runReconcile } from '../../functions/reconcile/engine/skeleton/run-reconcile.js';
import type { AnyReconciler, ReconcileContext } from '../../functions/reconcile/engine/skeleton/types.js';
import { CountingStore } from './counting-store.js';
import { FakeClock } from './fake-clock.js';

/** Anything that lists reconcilers (ProviderRegistry does); if it is also a ProviderLookup it goes on the context. */
export interface ReconcilerSource {
  reconcilers(): readonly AnyReconciler[];
}

export interface ConvergeOptions {
  clock?: FakeClock;
  /** Default 100. */
  maxRounds?: number;
  /** Extra ports on ctx.providers (e.g. a WorkloadCluster). */
  providers?: Record<string, unknown>;
  /** Called after each round, e.g. to assert invariants mid-rollout. */
  afterRound?: (round: number) => void | Promise<void>;
  /** Throw the first reconcile error instead of collecting it (default false). */
  throwOnError?: boolean;
}

export interface ConvergeError {
  key: string;
  error: unknown;
}

export interface ConvergeStats {
  rounds: number;
  reconciles: number;
  writes: number;
  /** Reconciles per object key. */
  reconcilesByKey: Record<string, number>;
  writesByKind: Record<string, number>;
  errors: ConvergeError[];
  /** True when the fixed point was reached before maxRounds. */
  converged: boolean;
  /** Seconds the fake clock moved forward. */
  elapsedSeconds: number;
}

const noopQueue: WorkQueue = { enqueue: async () => {}, enqueueMany: async () => {} };

function isProviderLookupLike(value: object): value is ProviderLookup {
  return 'contractFor' in value && 'isReconciled' in value && 'isServedKind' in value && 'providerOf' in value;
}

async function keysOf(store: ObjectStore, reconciler: AnyReconciler): Promise<ObjectKey[]> {
  const { items } = await store.list({ group: reconciler.kind.group, kind: reconciler.kind.kind });
  return items.map((o) => ({ ...reconciler.kind, namespace: o.metadata.namespace, name: o.metadata.name }));
}

class Converger {
  readonly stats: ConvergeStats;
  private readonly due = new Map<string, number>();

  constructor(
    private readonly registry: ReconcilerSource,
    private readonly store: ObjectStore,
    private readonly ctx: ReconcileContext,
    private readonly clock: FakeClock,
    private readonly throwOnError: boolean,
  ) {
    this.stats = {
      rounds: 0,
      reconciles: 0,
      writes: 0,
      reconcilesByKey: {},
      writesByKind: {},
      errors: [],
      converged: false,
      elapsedSeconds: 0,
    };
  }

  async round(): Promise<void> {
    this.stats.rounds++;
    for (const reconciler of this.registry.reconcilers()) {
      for (const key of await keysOf(this.store, reconciler)) await this.reconcile(reconciler, key);
    }
  }

  private async reconcile(reconciler: AnyReconciler, key: ObjectKey): Promise<void> {
    const id = keyString(key);
    this.stats.reconciles++;
    this.stats.reconcilesByKey[id] = (this.stats.reconcilesByKey[id] ?? 0) + 1;
    this.due.delete(id);
    const now = this.clock.now().getTime();
    try {
      const result = await runReconcile(reconciler, this.ctx, key);
      if (result.requeueAfterSeconds) this.due.set(id, now + result.requeueAfterSeconds * 1000);
    } catch (error) {
      if (this.throwOnError) throw error;
      this.stats.errors.push({ key: id, error });
      this.due.set(id, now + 1000);
    }
  }

  /** Requeue times still ahead of the clock. */
  pending(): number[] {
    const now = this.clock.now().getTime();
    return [...this.due.values()].filter((t) => t > now);
  }
}

export async function converge(
  registry: ReconcilerSource,
  store: ObjectStore,
  options: ConvergeOptions = {},
): Promise<ConvergeStats> {
  const clock = options.clock ?? new FakeClock();
  const started = clock.now().getTime();
  const counting = new CountingStore(store);
  const providers: Record<string, unknown> = { ...options.providers };
  if (isProviderLookupLike(registry) && providers[PROVIDER_LOOKUP_PORT] === undefined) providers[PROVIDER_LOOKUP_PORT] = registry;
  const ctx: ReconcileContext = { store: counting, queue: noopQueue, clock, logger: silentLogger, providers };
  const converger = new Converger(registry, store, ctx, clock, options.throwOnError ?? false);
  const { stats } = converger;
  let quietHorizon: number | undefined;
  const maxRounds = options.maxRounds ?? 100;

  while (stats.rounds < maxRounds) {
    const before = counting.counts.writes;
    await converger.round();
    await options.afterRound?.(stats.rounds);
    if (counting.counts.writes > before) {
      quietHorizon = undefined;
      continue;
    }
    const pending = converger.pending();
    quietHorizon ??= Math.max(clock.now().getTime(), ...pending);
    if (pending.length === 0 || clock.now().getTime() >= quietHorizon) {
      stats.converged = true;
      break;
    }
    clock.advanceTo(Math.min(...pending));
  }
  stats.writes = counting.counts.writes;
  stats.writesByKind = counting.counts.writesByKind;
  stats.elapsedSeconds = (clock.now().getTime() - started) / 1000;
  return stats;
}
