/**
 * The core reconcilers driven the production way in one process: store changes → routeChange →
 * InProcessWorkQueue → processRequest, over a memory store, with the fake bootstrap provider and
 * the in-memory infrastructure. No converge loop re-runs everything: only the watches (as data)
 * and the own-change predicate wake a reconciler.
 */

import { clusterReconciler } from '../../functions/reconcile/core/cluster/reconciler.js';
import { machineReconciler } from '../../functions/reconcile/core/machine/reconciler.js';
import { machineDeploymentReconciler } from '../../functions/reconcile/core/machinedeployment/reconciler.js';
import { machineSetReconciler } from '../../functions/reconcile/core/machineset/reconciler.js';
import { requestProcessor } from '../../functions/reconcile/engine/process-request.js';
import { ProviderRegistry } from '../../functions/reconcile/engine/providers/provider-registry.js';
import { ReconcilerRegistry } from '../../functions/reconcile/engine/registry.js';
import type { ReconcileContext } from '../../functions/reconcile/engine/skeleton/types.js';
import { inMemoryClusterReconciler } from '../../functions/reconcile/infrastructure/inmemory/cluster/reconciler.js';
import { inMemoryMachineReconciler } from '../../functions/reconcile/infrastructure/inmemory/machine/reconciler.js';
import { routeChange } from '../../functions/reconcile/router/route-change.js';
import { CORE_PROVIDER, DOCKER_PROVIDER, IN_MEMORY_PROVIDER } from '../../shared/contracts/providers/builtin-providers.js';
import { PROVIDER_LOOKUP_PORT } from '../../shared/contracts/providers/provider-lookup.js';
import { systemClock } from '../../shared/ports/clock.js';
import { silentLogger } from '../../shared/ports/logger.js';
import { MemoryObjectStore } from '../../shared/store/memory-store.js';
import { InProcessWorkQueue } from '../../shared/work/in-process-queue.js';
import { FAKE_BOOTSTRAP_PROVIDER } from './fake-bootstrap-provider.js';

export interface CoreEventLoop {
  store: MemoryObjectStore;
  queue: InProcessWorkQueue;
  /** Polls `check` between idle queues until it holds (true) or `attempts` run out (false). */
  until(check: () => Promise<boolean>, attempts?: number): Promise<boolean>;
  stop(): Promise<void>;
}

export function startCoreEventLoop(): CoreEventLoop {
  const providers = new ProviderRegistry()
    .registerProvider({ ...CORE_PROVIDER, reconcilers: [clusterReconciler, machineDeploymentReconciler, machineSetReconciler, machineReconciler] })
    .registerProvider(FAKE_BOOTSTRAP_PROVIDER)
    .registerProvider({ ...IN_MEMORY_PROVIDER, reconcilers: [inMemoryClusterReconciler, inMemoryMachineReconciler] })
    .registerProvider({ ...DOCKER_PROVIDER, reconcilers: [] });
  const store = new MemoryObjectStore();
  const registry = new ReconcilerRegistry(providers.reconcilers());
  let context: ReconcileContext | undefined;
  const queue = new InProcessWorkQueue({
    handler: requestProcessor({
      registry,
      context: () => {
        if (!context) throw new Error('context not wired');
        return context;
      },
    }),
    concurrency: 4,
  });
  context = { store, queue, clock: systemClock, logger: silentLogger, providers: { [PROVIDER_LOOKUP_PORT]: providers } };
  const unsubscribe = store.onChange((change) => {
    void routeChange(change, registry, store).then((requests) => queue.enqueueMany(requests));
  });
  queue.start();
  return {
    store,
    queue,
    async until(check, attempts = 200) {
      for (let i = 0; i < attempts; i++) {
        if (await check()) return true;
        await queue.idle();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return false;
    },
    async stop() {
      unsubscribe();
      await queue.stop();
    },
  };
}
