/**
 * The topology reconciler with the Runtime SDK behind its hook seam (HookClientLifecycleCaller over
 * a scripted HookClient), driven through the Cluster reconciler: Cluster API's request bodies,
 * a Failure answer as TopologyReconciled=False (ReconcileFailed) naming the hook, ok-to-delete
 * written once BeforeClusterDelete passes, and AfterClusterUpgrade once the upgrade is done.
 */

import { describe, expect, it } from 'vitest';
import { clusterReconciler } from '../../../functions/reconcile/core/cluster/reconciler.js';
import { runReconcile } from '../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { HookClientLifecycleCaller } from '../../../functions/reconcile/runtime/lifecycle/topology-hook-caller.js';
import { LIFECYCLE_HOOKS_PORT } from '../../../functions/reconcile/topology/cluster/lifecycle-hooks.js';
import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import type { LifecycleHook } from '../../../shared/contracts/hooks/index.js';
import { isRecord } from '../../../shared/contracts/json.js';
import { keyOf, type StoredObject } from '../../../shared/contracts/object.js';
import type { HookResult } from '../../../shared/ports/runtime-extensions.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { blocked, FakeHookClient, failed, PASS } from '../../support/fake-hook-client.js';
import { testContext } from '../../support/reconcile-context.js';
import { NS, setUpTopologyCluster } from '../../support/topology-fixtures.js';

const PENDING = 'runtime.cluster.x-k8s.io/pending-hooks';
const OK_TO_DELETE = 'runtime.cluster.x-k8s.io/ok-to-delete';

function script(answers: Partial<Record<LifecycleHook, HookResult>>): FakeHookClient {
  return new FakeHookClient((hook) => answers[hook] ?? PASS);
}

async function reconcileWith(store: MemoryObjectStore, cluster: StoredObject, client: FakeHookClient) {
  const ctx = testContext({ store, providers: { [LIFECYCLE_HOOKS_PORT]: new HookClientLifecycleCaller(client) } });
  const result = await runReconcile(clusterReconciler, ctx, keyOf(cluster));
  const after = await store.get(keyOf(cluster));
  return { result, after, topology: findCondition(conditionsOf(after?.status), 'TopologyReconciled') };
}

const controlPlanes = (store: MemoryObjectStore) => store.list({ group: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', namespace: NS });

async function setVersion(store: MemoryObjectStore, cluster: StoredObject, version: string): Promise<StoredObject> {
  const current = await store.get(keyOf(cluster));
  if (!current) throw new Error('cluster gone');
  const topology = isRecord(current.spec?.topology) ? current.spec.topology : {};
  return store.update({ ...current, spec: { ...current.spec, topology: { ...topology, version } } });
}

describe('topology lifecycle hooks through the hook client', () => {
  it.each<[string, HookResult, string, number]>([
    ['a blocking answer holds creation with ClusterCreating', blocked(5, 'hold on'), 'ClusterCreating', 5],
    ['a Failure answer fails the reconcile with ReconcileFailed and the hook name', failed('refused'), 'ReconcileFailed', 10],
  ])('BeforeClusterCreate: %s; nothing is created', async (_name, answer, reason, requeue) => {
    const store = new MemoryObjectStore();
    const { cluster } = await setUpTopologyCluster({ name: `c-${reason.toLowerCase()}`, cpReplicas: 1, tag: 'x', mds: [] }, store);
    const client = script({ BeforeClusterCreate: answer });
    const { result, topology, after } = await reconcileWith(store, cluster, client);
    expect(client.calls.map((c) => c.hook)).toEqual(['BeforeClusterCreate']);
    expect(topology).toMatchObject({ status: 'False', reason });
    expect(topology?.message).toContain('BeforeClusterCreate');
    expect(result.requeueAfterSeconds).toBe(requeue);
    expect((await controlPlanes(store)).items).toEqual([]);
    expect(after?.metadata.annotations?.[PENDING]).toBeUndefined();
  });

  it('AfterControlPlaneInitialized failing keeps it pending', async () => {
    const store = new MemoryObjectStore();
    const { cluster } = await setUpTopologyCluster({ name: 'c-init', cpReplicas: 1, tag: 'x', mds: [] }, store);
    await reconcileWith(store, cluster, script({}));
    const created = await store.get(keyOf(cluster));
    if (!created) throw new Error('cluster gone');
    const initialized = await store.updateStatus({ ...created, status: { ...created.status, initialization: { controlPlaneInitialized: true } } });
    const failing = await reconcileWith(store, initialized, script({ AfterControlPlaneInitialized: failed('later') }));
    expect(failing.topology).toMatchObject({ status: 'False', reason: 'ReconcileFailed' });
    expect(failing.after?.metadata.annotations?.[PENDING]).toBe('AfterControlPlaneInitialized');
  });

  it('BeforeClusterDelete: blocked holds, then passing writes ok-to-delete and is not asked again', async () => {
    const store = new MemoryObjectStore();
    const { cluster } = await setUpTopologyCluster({ name: 'c-del', cpReplicas: 1, tag: 'x', mds: [] }, store);
    await reconcileWith(store, cluster, script({}));
    // A finalizer on the control plane keeps the Cluster waiting for its children after the hook passes.
    const [kcp] = (await controlPlanes(store)).items;
    if (!kcp) throw new Error('no control plane');
    await store.update({ ...kcp, metadata: { ...kcp.metadata, finalizers: ['test.capless.dev/hold'] } });
    await store.delete(keyOf(cluster));
    const held = await reconcileWith(store, cluster, script({ BeforeClusterDelete: blocked(7, 'backup running') }));
    expect(held.topology).toMatchObject({ status: 'False', reason: 'Deleting' });
    expect(held.topology?.message).toBe('Cluster is deleting. Following hooks are blocking delete: BeforeClusterDelete: backup running');
    expect(held.result.requeueAfterSeconds).toBe(7);
    expect(held.after?.metadata.annotations?.[OK_TO_DELETE]).toBeUndefined();

    const passing = script({});
    const passed = await reconcileWith(store, cluster, passing);
    expect(passing.calls.map((c) => c.hook)).toEqual(['BeforeClusterDelete']);
    expect(passed.after?.metadata.annotations?.[OK_TO_DELETE]).toBe('');

    const later = script({ BeforeClusterDelete: blocked(7) });
    await reconcileWith(store, cluster, later);
    expect(later.calls).toEqual([]);
  });

  it('an upgrade of a cluster without workers sends Cluster API bodies, asks no worker hook and ends with AfterClusterUpgrade once the control plane runs the new version', async () => {
    const store = new MemoryObjectStore();
    const { cluster } = await setUpTopologyCluster({ name: 'c-up', cpReplicas: 1, tag: 'x', mds: [] }, store);
    await reconcileWith(store, cluster, script({}));
    const [kcp] = (await controlPlanes(store)).items;
    if (!kcp) throw new Error('no control plane');
    await store.updateStatus({ ...kcp, status: { version: 'v1.33.0' } });
    const upgraded = await setVersion(store, cluster, 'v1.34.0');

    const starting = script({});
    const started = await reconcileWith(store, upgraded, starting);
    expect(starting.calls.map((c) => [c.hook, c.body])).toEqual([
      ['BeforeClusterUpgrade', { fromKubernetesVersion: 'v1.33.0', toKubernetesVersion: 'v1.34.0', controlPlaneUpgrades: [{ version: 'v1.34.0' }], workersUpgrades: [] }],
      ['BeforeControlPlaneUpgrade', { fromKubernetesVersion: 'v1.33.0', toKubernetesVersion: 'v1.34.0', controlPlaneUpgrades: [{ version: 'v1.34.0' }], workersUpgrades: [] }],
    ]);
    expect(started.after?.metadata.annotations?.[PENDING]).toBe('AfterClusterUpgrade,AfterControlPlaneInitialized,AfterControlPlaneUpgrade');

    const [moved] = (await controlPlanes(store)).items;
    if (!moved) throw new Error('no control plane');
    await store.updateStatus({ ...moved, status: { version: 'v1.34.0' } });
    const finishing = script({});
    const finished = await reconcileWith(store, upgraded, finishing);
    expect(finishing.calls.map((c) => [c.hook, c.body])).toEqual([
      ['AfterControlPlaneUpgrade', { kubernetesVersion: 'v1.34.0', controlPlaneUpgrades: [], workersUpgrades: [] }],
      ['AfterClusterUpgrade', { kubernetesVersion: 'v1.34.0' }],
    ]);
    expect(finished.after?.metadata.annotations?.[PENDING]).toBe('AfterControlPlaneInitialized');
  });
});
