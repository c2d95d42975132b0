import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import { type KubeObject, keyString, type StoredObject } from '../../../../shared/contracts/object.js';
import type { ChangeType, ObjectChange } from '../../../../shared/ports/object-store.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';

/**
 * Event-driven deletion (issue 16, item 4): what a deleting Cluster or KubeadmControlPlane waits
 * for must wake it when it goes, through the built-in registry's watches, so no phase relies on
 * a short timer. And those watches must not wake them on the awaited objects' other writes.
 */
const CORE = 'cluster.x-k8s.io';
const KCP_GROUP = 'controlplane.cluster.x-k8s.io';
const CLUSTER_LABEL = 'cluster.x-k8s.io/cluster-name';
const labels = { [CLUSTER_LABEL]: 'c1' };

async function fleet() {
  const store = new MemoryObjectStore();
  const cluster = await store.create({ apiVersion: `${CORE}/v1beta2`, kind: 'Cluster', metadata: { name: 'c1', namespace: 'ns' }, spec: {} });
  const kcp = await store.create({ apiVersion: `${KCP_GROUP}/v1beta2`, kind: 'KubeadmControlPlane', metadata: { name: 'cp', namespace: 'ns', labels }, spec: {} });
  const machineSet = await store.create({ apiVersion: `${CORE}/v1beta2`, kind: 'MachineSet', metadata: { name: 'ms', namespace: 'ns', labels }, spec: { clusterName: 'c1' } });
  const owned = (name: string, owner: StoredObject, extraLabels: Record<string, string> = {}): KubeObject['metadata'] => ({
    name,
    namespace: 'ns',
    labels: { ...labels, ...extraLabels },
    ownerReferences: [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true }],
  });
  const worker = await store.create({ apiVersion: `${CORE}/v1beta2`, kind: 'Machine', metadata: owned('w', machineSet), spec: { clusterName: 'c1' } });
  const cpMachine = await store.create({
    apiVersion: `${CORE}/v1beta2`,
    kind: 'Machine',
    metadata: owned('cp-m', kcp, { 'cluster.x-k8s.io/control-plane': '' }),
    spec: { clusterName: 'c1' },
  });
  return { store, cluster, kcp, worker, cpMachine };
}

const registry = new ReconcilerRegistry(builtinProviderRegistry().reconcilers());

function change(type: ChangeType, object: StoredObject): ObjectChange {
  const withStatus = { ...object, status: { phase: 'Deleting' } };
  if (type === 'REMOVE') return { type, oldObject: object };
  if (type === 'INSERT') return { type, newObject: object };
  return { type, oldObject: object, newObject: withStatus };
}

describe('deletion waits are event-driven (built-in watches)', () => {
  it.each<[string, 'worker' | 'cpMachine', ChangeType, { cluster: boolean; kcp: boolean }]>([
    ['a worker Machine removal wakes the Cluster and the control plane', 'worker', 'REMOVE', { cluster: true, kcp: true }],
    ['a worker Machine status write wakes neither', 'worker', 'MODIFY', { cluster: false, kcp: false }],
    ['a worker Machine creation wakes neither', 'worker', 'INSERT', { cluster: false, kcp: false }],
    ['a control-plane Machine removal wakes its control plane', 'cpMachine', 'REMOVE', { cluster: true, kcp: true }],
  ])('%s', async (_name, which, type, expected) => {
    const f = await fleet();
    const keys = (await routeChange(change(type, f[which]), registry, f.store)).map(keyString);
    expect(keys.includes(keyString({ group: CORE, kind: 'Cluster', namespace: 'ns', name: 'c1' })), 'Cluster woken').toBe(expected.cluster);
    expect(keys.includes(keyString({ group: KCP_GROUP, kind: 'KubeadmControlPlane', namespace: 'ns', name: 'cp' })), 'KCP woken').toBe(expected.kcp);
  });
});
