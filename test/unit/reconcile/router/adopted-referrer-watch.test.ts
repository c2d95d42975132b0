import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import { type KubeObject, keyString, type OwnerReference, type StoredObject } from '../../../../shared/contracts/object.js';
import type { ObjectChange } from '../../../../shared/ports/object-store.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { CountingLookup } from '../../../support/router-lookup.js';

/**
 * A Cluster follows its InfraCluster and control plane by reference until it adopts them, then by
 * owner (Cluster API's mappers go by owner). Only a creation is looked up: the reconcile it wakes
 * adopts the part, and an adopted part's changes are answered from its ownerReferences, with no
 * look-up of the Clusters that name it (ADR 0141).
 */
const CORE = 'cluster.x-k8s.io';
const T = '2026-01-01T00:00:00Z';
const registry = new ReconcilerRegistry(builtinProviderRegistry().reconcilers());
const clusterKey = keyString({ group: CORE, kind: 'Cluster', namespace: 'ns', name: 'c1' });
const byCluster: OwnerReference[] = [{ apiVersion: `${CORE}/v1beta2`, kind: 'Cluster', name: 'c1', uid: 'c1-uid', controller: true, blockOwnerDeletion: true }];

function part(kind: 'KubeadmControlPlane' | 'InMemoryCluster', ownerReferences: OwnerReference[] | undefined, status: Record<string, unknown>): StoredObject {
  const apiVersion = kind === 'InMemoryCluster' ? 'infrastructure.cluster.x-k8s.io/v1beta2' : 'controlplane.cluster.x-k8s.io/v1beta2';
  return {
    apiVersion,
    kind,
    metadata: { name: kind === 'InMemoryCluster' ? 'c1' : 'c1-cp', namespace: 'ns', uid: 'p-uid', resourceVersion: '1', generation: 1, creationTimestamp: T, ...(ownerReferences ? { ownerReferences } : {}) },
    spec: {},
    status,
  };
}

const cluster: KubeObject = {
  apiVersion: `${CORE}/v1beta2`,
  kind: 'Cluster',
  metadata: { name: 'c1', namespace: 'ns' },
  spec: {
    infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryCluster', name: 'c1' },
    controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', name: 'c1-cp' },
  },
};

/** A store holding the Cluster, counting the router's look-ups. */
async function storeWithCluster(): Promise<CountingLookup> {
  const store = new MemoryObjectStore();
  await store.create(cluster);
  return new CountingLookup(store);
}

/** The look-ups among the namespace's Clusters (by list or cluster index): a referrer watch's. */
const clusterLookups = (lookup: CountingLookup): string[] => lookup.calls.filter((c) => c.startsWith('list Cluster ') || (c.startsWith('listByCluster ') && c.endsWith(' Cluster')));

type Part = 'KubeadmControlPlane' | 'InMemoryCluster';
const unready = (kind: Part, owners?: OwnerReference[]) => part(kind, owners, { ready: false });
const ready = (kind: Part, owners?: OwnerReference[]) => part(kind, owners, { ready: true, initialization: { provisioned: true, controlPlaneInitialized: true } });

describe('routeChange for a Cluster part, before and after adoption', () => {
  it.each<[string, ObjectChange, boolean, string[]]>([
    ['a control plane created is looked up', { type: 'INSERT', newObject: unready('KubeadmControlPlane') }, true, ['list Cluster ns']],
    ['a write to one not yet adopted is not (the reconcile its creation woke adopts it)', { type: 'MODIFY', oldObject: unready('KubeadmControlPlane'), newObject: ready('KubeadmControlPlane') }, false, []],
    ['its adoption is answered by its new owner', { type: 'MODIFY', oldObject: unready('KubeadmControlPlane'), newObject: ready('KubeadmControlPlane', byCluster) }, true, []],
    ['an adopted control plane is answered by its owner', { type: 'MODIFY', oldObject: unready('KubeadmControlPlane', byCluster), newObject: ready('KubeadmControlPlane', byCluster) }, true, []],
    ['an InfraCluster created is looked up', { type: 'INSERT', newObject: unready('InMemoryCluster') }, true, ['list Cluster ns']],
    ['an adopted InfraCluster is answered by its owner', { type: 'MODIFY', oldObject: unready('InMemoryCluster', byCluster), newObject: ready('InMemoryCluster', byCluster) }, true, []],
    ['an adopted InfraCluster removed is answered by its owner', { type: 'REMOVE', oldObject: unready('InMemoryCluster', byCluster) }, true, []],
  ])('%s', async (_name, change, wakesCluster, lookups) => {
    const lookup = await storeWithCluster();
    const requests = await routeChange(change, registry, lookup);
    expect(requests.map(keyString).includes(clusterKey)).toBe(wakesCluster);
    expect(clusterLookups(lookup)).toEqual(lookups);
  });
});
