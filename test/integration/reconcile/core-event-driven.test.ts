/**
 * The core reconcilers driven the production way in one process: store changes → routeChange →
 * InProcessWorkQueue → processRequest. Proves the watches (as data) reach every object that must
 * react; no converge loop re-runs everything here.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { clusterReconciler } from '../../../functions/reconcile/core/cluster/reconciler.js';
import { inMemoryClusterReconciler } from '../../../functions/reconcile/infrastructure/inmemory/cluster/reconciler.js';
import { inMemoryMachineReconciler } from '../../../functions/reconcile/infrastructure/inmemory/machine/reconciler.js';
import { machineReconciler } from '../../../functions/reconcile/core/machine/reconciler.js';
import { machineDeploymentReconciler } from '../../../functions/reconcile/core/machinedeployment/reconciler.js';
import { machineSetReconciler } from '../../../functions/reconcile/core/machineset/reconciler.js';
import { requestProcessor } from '../../../functions/reconcile/engine/process-request.js';
import { ProviderRegistry } from '../../../functions/reconcile/engine/providers/provider-registry.js';
import { ReconcilerRegistry } from '../../../functions/reconcile/engine/registry.js';
import { routeChange } from '../../../functions/reconcile/router/route-change.js';
import type { ReconcileContext } from '../../../functions/reconcile/engine/skeleton/types.js';
import { CORE_PROVIDER, DOCKER_PROVIDER, IN_MEMORY_PROVIDER } from '../../../shared/contracts/providers/builtin-providers.js';
import { PROVIDER_LOOKUP_PORT } from '../../../shared/contracts/providers/provider-lookup.js';
import { systemClock } from '../../../shared/ports/clock.js';
import { silentLogger } from '../../../shared/ports/logger.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { InProcessWorkQueue } from '../../../shared/work/in-process-queue.js';
import {
  bootstrapSecret,
  clusterObject,
  infraClusterObject,
  machineDeploymentObject,
  standaloneMachine,
  workerTemplates,
} from '../../support/core-fixtures.js';
import { FAKE_BOOTSTRAP_PROVIDER } from '../../support/fake-bootstrap-provider.js';

const providers = new ProviderRegistry()
  .registerProvider({
    ...CORE_PROVIDER,
    reconcilers: [clusterReconciler, machineDeploymentReconciler, machineSetReconciler, machineReconciler],
  })
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

afterAll(async () => {
  unsubscribe();
  await queue.stop();
});

async function until(check: () => Promise<boolean>, attempts = 200): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return true;
    await queue.idle();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('core reconcilers on the router and the in-process queue', () => {
  it('bring a Cluster with a standalone control-plane Machine and 2 workers to Running', async () => {
    for (const obj of [
      clusterObject('c1'),
      infraClusterObject('c1'),
      bootstrapSecret('c1-cp-bootstrap', 'c1'),
      ...standaloneMachine('c1-cp-0', 'c1', 'c1-cp-bootstrap', 0),
      ...workerTemplates('md'),
      machineDeploymentObject('md', 'c1', 2),
    ]) {
      await store.create(obj);
    }
    const running = await until(async () => {
      const machines = (await store.list({ group: 'cluster.x-k8s.io', kind: 'Machine' })).items;
      const cluster = await store.get({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: 'default', name: 'c1' });
      return machines.length === 3 && machines.every((m) => m.status?.phase === 'Running') && cluster?.status?.phase === 'Provisioned';
    });
    expect(running).toBe(true);
    expect(queue.deadLetters).toEqual([]);
  });

  it('delete the Cluster and everything it owns', async () => {
    await store.delete({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: 'default', name: 'c1' });
    const gone = await until(async () => {
      const left = await store.listByCluster('default', 'c1');
      return left.every((o) => o.kind === 'Secret' || o.kind.endsWith('Template'));
    });
    expect(gone).toBe(true);
  });
});
