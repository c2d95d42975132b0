import type { ReconcileContext } from '../../functions/reconcile/engine/skeleton/types.js';
import { silentLogger } from '../../shared/ports/logger.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import { MemoryObjectStore } from '../../shared/store/memory-store.js';
import { FakeClock } from './fake-clock.js';

/** A ReconcileContext over a fresh in-memory store and a fake clock, for phase tests. */
export function testContext(options: { store?: ObjectStore; clock?: FakeClock; providers?: Record<string, unknown> } = {}): ReconcileContext & {
  clock: FakeClock;
} {
  const clock = options.clock ?? new FakeClock();
  return {
    store: options.store ?? new MemoryObjectStore({ clock }),
    queue: { enqueue: async () => {}, enqueueMany: async () => {} },
    clock,
    logger: silentLogger,
    ...(options.providers ? { providers: options.providers } : {}),
  };
}
