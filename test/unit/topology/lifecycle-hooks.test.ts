/**
 * The Runtime SDK seam: the topology phases ask the lifecycle-hook port where Cluster API calls
 * its hooks, and obey a blocking answer (nothing created, no version bumped, deletion held) with
 * the TopologyReconciled reason Cluster API uses. Driven through the Cluster reconciler.
 */

import { describe, expect, it } from 'vitest';
import { clusterReconciler } from '../../../functions/reconcile/core/cluster/reconciler.js';
import { runReconcile } from '../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import {
  LIFECYCLE_HOOKS_PORT,
  type LifecycleHook,
  type LifecycleHookCaller,
  type LifecycleHookRequest,
} from '../../../functions/reconcile/topology/cluster/lifecycle-hooks.js';
import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import { isRecord } from '../../../shared/contracts/json.js';
import { keyOf, type StoredObject } from '../../../shared/contracts/object.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { testContext } from '../../support/reconcile-context.js';
import { NS, setUpTopologyCluster } from '../../support/topology-fixtures.js';

/** Answers `blocking` hooks with a retry, passes the rest, and records every call. */
function hooks(blocking: readonly LifecycleHook[]): LifecycleHookCaller & { calls: LifecycleHookRequest[] } {
  const calls: LifecycleHookRequest[] = [];
  return {
    calls,
    call: async (request) => {
      calls.push(request);
      return blocking.includes(request.hook) ? { retryAfterSeconds: 20, message: 'not yet' } : { retryAfterSeconds: 0 };
    },
  };
}

async function reconcileWith(store: MemoryObjectStore, cluster: StoredObject, caller: LifecycleHookCaller) {
  const ctx = testContext({ store, providers: { [LIFECYCLE_HOOKS_PORT]: caller } });
  const result = await runReconcile(clusterReconciler, ctx, keyOf(cluster));
  const after = await store.get(keyOf(cluster));
  return { result, after, topology: findCondition(conditionsOf(after?.status), 'TopologyReconciled') };
}

const controlPlanes = (store: MemoryObjectStore) => store.list({ group: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', namespace: NS });

describe('lifecycle hooks around the managed topology', () => {
  it('BeforeClusterCreate blocking: nothing is created, ClusterCreating, retried after the hook asks', async () => {
    const store = new MemoryObjectStore();
    const { cluster } = await setUpTopologyCluster({ name: 'c1', cpReplicas: 1, tag: 'x', mds: [] }, store);
    const caller = hooks(['BeforeClusterCreate']);
    const { result, topology } = await reconcileWith(store, cluster, caller);
    expect(caller.calls.map((c) => c.hook)).toEqual(['BeforeClusterCreate']);
    expect(topology).toMatchObject({ status: 'False', reason: 'ClusterCreating' });
    expect(topology?.message).toContain('BeforeClusterCreate: not yet');
    expect(result.requeueAfterSeconds).toBe(20);
    expect((await controlPlanes(store)).items).toEqual([]);
  });

  it('without extensions the topology is created and AfterControlPlaneInitialized is marked pending', async () => {
    const store = new MemoryObjectStore();
    const { cluster } = await setUpTopologyCluster({ name: 'c2', cpReplicas: 1, tag: 'x', mds: [{ name: 'md-0', class: 'a', replicas: 1 }] }, store);
    const { after, topology } = await reconcileWith(store, cluster, hooks([]));
    expect(topology).toMatchObject({ status: 'True', reason: 'ReconcileSucceeded' });
    expect((await controlPlanes(store)).items).toHaveLength(1);
    expect(after?.metadata.annotations?.['runtime.cluster.x-k8s.io/pending-hooks']).toBe('AfterControlPlaneInitialized');
  });

  it('BeforeClusterUpgrade blocking keeps the control plane on its version; passing bumps it and marks AfterControlPlaneUpgrade', async () => {
    const store = new MemoryObjectStore();
    const { cluster } = await setUpTopologyCluster({ name: 'c3', cpReplicas: 1, tag: 'x', mds: [] }, store);
    await reconcileWith(store, cluster, hooks([]));
    const [kcp] = (await controlPlanes(store)).items;
    if (!kcp) throw new Error('no control plane');
    // The control plane reports it runs its version (as KCP would once its machines are up).
    await store.updateStatus({ ...kcp, status: { version: 'v1.33.0' } });
    const current = await store.get(keyOf(cluster));
    if (!current) throw new Error('cluster gone');
    const topology = isRecord(current.spec?.topology) ? current.spec.topology : {};
    const upgraded = await store.update({ ...current, spec: { ...current.spec, topology: { ...topology, version: 'v1.34.0' } } });

    const blocked = await reconcileWith(store, upgraded, hooks(['BeforeClusterUpgrade']));
    expect(blocked.topology).toMatchObject({ status: 'False', reason: 'ClusterUpgrading' });
    expect(blocked.topology?.message).toContain('Following hooks are blocking upgrade: BeforeClusterUpgrade: not yet');
    expect((await controlPlanes(store)).items[0]?.spec?.version).toBe('v1.33.0');

    const caller = hooks([]);
    const passed = await reconcileWith(store, upgraded, caller);
    expect(caller.calls.find((c) => c.hook === 'BeforeClusterUpgrade')).toMatchObject({ fromKubernetesVersion: 'v1.33.0', toKubernetesVersion: 'v1.34.0' });
    expect((await controlPlanes(store)).items[0]?.spec?.version).toBe('v1.34.0');
    expect(passed.after?.metadata.annotations?.['runtime.cluster.x-k8s.io/pending-hooks']).toContain('AfterControlPlaneUpgrade');
  });

  it('BeforeClusterDelete blocking holds the deletion with reason Deleting', async () => {
    const store = new MemoryObjectStore();
    const { cluster } = await setUpTopologyCluster({ name: 'c4', cpReplicas: 1, tag: 'x', mds: [] }, store);
    await reconcileWith(store, cluster, hooks([]));
    await store.delete(keyOf(cluster));
    const { after, topology, result } = await reconcileWith(store, cluster, hooks(['BeforeClusterDelete']));
    expect(after?.metadata.deletionTimestamp).toBeDefined();
    expect(topology).toMatchObject({ status: 'False', reason: 'Deleting' });
    expect(result.requeueAfterSeconds).toBe(20);
    expect((await controlPlanes(store)).items).toHaveLength(1);
  });
});
