import { describe, expect, it, vi } from 'vitest';
import { deleteControlPlane } from '../../../../functions/reconcile/kubeadm/controlplane/delete-phases.js';
import { createKcpScope } from '../../../../functions/reconcile/kubeadm/controlplane/scope.js';
import { CLUSTER_SECRET_TYPE, LABEL_CLUSTER_NAME, type StoredObject, ownerReferenceTo } from '../../../../shared/contracts/object.js';
import { silentLogger } from '../../../../shared/ports/logger.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { FakeClock } from '../../../support/fake-clock.js';

/** KubeadmControlPlane deletion: workers first, then its own Machines, reading only the cluster's Machines. */
const NS = 'default';
const CLUSTER = 'c1';

async function setUp(machines: { workers: number; controlPlane: number }) {
  const clock = new FakeClock('2026-03-01T00:00:00Z');
  const store = new MemoryObjectStore({ clock });
  const cluster = await store.create({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: CLUSTER, namespace: NS } });
  const kcp = await store.create({
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'cp', namespace: NS, labels: { [LABEL_CLUSTER_NAME]: CLUSTER }, ownerReferences: [ownerReferenceTo(cluster)] },
    spec: { replicas: machines.controlPlane, version: 'v1.31.2' },
  });
  const machine = (name: string, controlPlane: boolean) =>
    store.create({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Machine',
      metadata: {
        name,
        namespace: NS,
        labels: { [LABEL_CLUSTER_NAME]: CLUSTER, ...(controlPlane ? { 'cluster.x-k8s.io/control-plane': '' } : {}) },
        ...(controlPlane ? { ownerReferences: [ownerReferenceTo(kcp, true)] } : {}),
      },
      spec: { clusterName: CLUSTER },
    });
  for (let i = 0; i < machines.workers; i++) await machine(`worker-${i}`, false);
  for (let i = 0; i < machines.controlPlane; i++) await machine(`cp-${i}`, true);
  await store.create({
    apiVersion: 'v1',
    kind: 'Secret',
    type: CLUSTER_SECRET_TYPE,
    metadata: { name: `${CLUSTER}-ca`, namespace: NS, labels: { [LABEL_CLUSTER_NAME]: CLUSTER } },
    data: { 'tls.crt': 'Y2VydA==' },
  });
  const scope = createKcpScope({ store, clock, logger: silentLogger, queue: { enqueue: async () => {}, enqueueMany: async () => {} } }, kcp);
  return { store, scope };
}

const machinesLeft = async (store: MemoryObjectStore): Promise<StoredObject[]> =>
  (await store.list({ group: 'cluster.x-k8s.io', kind: 'Machine', namespace: NS })).items;

describe('KubeadmControlPlane deletion', () => {
  it.each([
    { name: 'waits for worker Machines, deleting none of its own', workers: 2, controlPlane: 1, reason: 'WaitingForWorkers', left: 3, requeue: true },
    { name: 'deletes its own Machines once the workers are gone', workers: 0, controlPlane: 3, reason: 'DeletingMachines', left: 0, requeue: true },
    { name: 'is done when no Machine is left', workers: 0, controlPlane: 0, reason: 'Deleted', left: 0, requeue: false },
  ])('$name', async ({ workers, controlPlane, reason, left, requeue }) => {
    const { store, scope } = await setUp({ workers, controlPlane });
    const result = await deleteControlPlane(scope);
    expect(result?.requeueAfterSeconds !== undefined).toBe(requeue);
    expect(scope.conditions).toContainEqual(expect.objectContaining({ type: 'Deleting', status: 'True', reason }));
    // Machines without finalizers go at once.
    expect(await machinesLeft(store)).toHaveLength(left);
  });

  it("reads the cluster's Machines, not the whole cluster with its Secrets", async () => {
    const { store, scope } = await setUp({ workers: 1, controlPlane: 1 });
    const list = vi.spyOn(store, 'listByCluster');
    await deleteControlPlane(scope);
    expect(list.mock.calls).toEqual([[NS, CLUSTER, { group: 'cluster.x-k8s.io', kind: 'Machine' }]]);
  });
});
