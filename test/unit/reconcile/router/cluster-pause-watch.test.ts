import { beforeAll, describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { CLUSTER_PAUSE_WATCH } from '../../../../functions/reconcile/engine/skeleton/pause.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import { type KubeObject, LABEL_CLUSTER_NAME, type StoredObject } from '../../../../shared/contracts/object.js';
import type { ObjectChange } from '../../../../shared/ports/object-store.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';

/**
 * A Cluster's pause and unpause wake every part of it (ADR 0146, Cluster API's
 * ClusterPausedTransitions), through the built-in registry: the parts labelled with its name and
 * the control plane and InfraCluster it references (which carry no label until it has reconciled).
 * Nothing else of the Cluster's reaches them through this watch, and another cluster's parts never.
 */
const NS = 'ns';
const registry = new ReconcilerRegistry(builtinProviderRegistry().reconcilers());
const store = new MemoryObjectStore();

const CORE = 'cluster.x-k8s.io/v1beta2';
const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta2';
const member = (apiVersion: string, kind: string, name: string, cluster: string | undefined): KubeObject => ({
  apiVersion,
  kind,
  metadata: { name, namespace: NS, ...(cluster ? { labels: { [LABEL_CLUSTER_NAME]: cluster } } : {}) },
  spec: kind === 'Machine' || kind === 'MachineSet' || kind === 'MachineDeployment' || kind === 'MachineHealthCheck' ? { clusterName: cluster ?? 'c1' } : {},
});

/** Every part of c1, and one part of c2. */
const PARTS: KubeObject[] = [
  member(CORE, 'Machine', 'm1', 'c1'),
  member(CORE, 'MachineSet', 'ms1', 'c1'),
  member(CORE, 'MachineDeployment', 'md1', 'c1'),
  member(CORE, 'MachineHealthCheck', 'mhc1', 'c1'),
  member('bootstrap.cluster.x-k8s.io/v1beta2', 'KubeadmConfig', 'm1', 'c1'),
  member(INFRA, 'InMemoryMachine', 'm1', 'c1'),
  member('controlplane.cluster.x-k8s.io/v1beta2', 'KubeadmControlPlane', 'cp1', undefined),
  member(INFRA, 'InMemoryCluster', 'c1', undefined),
  member(CORE, 'Machine', 'other', 'c2'),
  // Labelled for clusterctl move, not paused with the Cluster.
  member('ipam.cluster.x-k8s.io/v1alpha2', 'InClusterIPPool', 'pool', 'c1'),
];
const C1_PARTS = PARTS.filter((p) => p.metadata.name !== 'other' && p.kind !== 'InClusterIPPool').map((p) => `${p.kind}/${p.metadata.name}`);

function cluster(spec: Record<string, unknown>, status: Record<string, unknown> = {}): StoredObject {
  return {
    apiVersion: CORE,
    kind: 'Cluster',
    metadata: { name: 'c1', namespace: NS, uid: 'c1-uid', resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: {
      controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', name: 'cp1' },
      infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryCluster', name: 'c1' },
      ...spec,
    },
    status,
  };
}

async function woken(change: ObjectChange): Promise<string[]> {
  const requests = await routeChange(change, registry, store);
  return requests.filter((r) => r.kind !== 'Cluster').map((r) => `${r.kind}/${r.name}`).sort();
}

beforeAll(async () => {
  for (const part of PARTS) await store.create(part);
});

describe("a Cluster's pause wakes its parts", () => {
  it('is derived for every kind but the Cluster and the IPAM pools (ADR 0148)', () => {
    const notPausedWithCluster = ['Cluster', 'InClusterIPPool', 'GlobalInClusterIPPool'];
    for (const reconciler of registry.all()) {
      const has = reconciler.watches.includes(CLUSTER_PAUSE_WATCH);
      expect({ kind: reconciler.kind.kind, has }).toEqual({ kind: reconciler.kind.kind, has: !notPausedWithCluster.includes(reconciler.kind.kind) });
    }
  });

  it.each<[string, StoredObject, StoredObject]>([
    ['pausing', cluster({}), cluster({ paused: true })],
    ['unpausing', cluster({ paused: true }), cluster({ paused: false })],
  ])('%s wakes every part of that cluster, and none of another', async (_name, oldObject, newObject) => {
    expect(await woken({ type: 'MODIFY', oldObject, newObject })).toEqual([...C1_PARTS].sort());
  });

  it.each<[string, ObjectChange]>([
    ['a Cluster created paused', { type: 'INSERT', newObject: cluster({ paused: true }) }],
    ['a counter in its status', { type: 'MODIFY', oldObject: cluster({}, { phase: 'Provisioned' }), newObject: cluster({}, { phase: 'Provisioned', workers: { readyReplicas: 1 } }) }],
    ['its pause annotation (it pauses the Cluster alone)', { type: 'MODIFY', oldObject: cluster({}), newObject: { ...cluster({}), metadata: { ...cluster({}).metadata, annotations: { 'cluster.x-k8s.io/paused': '' } } } }],
  ])('%s wakes no Machine, InMemoryMachine or KubeadmConfig', async (_name, change) => {
    const parts = await woken(change);
    for (const untouched of ['Machine/m1', 'InMemoryMachine/m1', 'KubeadmConfig/m1', 'Machine/other']) expect(parts).not.toContain(untouched);
  });
});
