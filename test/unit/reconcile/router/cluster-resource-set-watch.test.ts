import { describe, expect, it } from 'vitest';
import { clusterResourceSetReconciler } from '../../../../functions/reconcile/addons/clusterresourceset/reconciler.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import { keyString, type OwnerReference, type StoredObject } from '../../../../shared/contracts/object.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { CountingLookup } from '../../../support/router-lookup.js';

/**
 * The ClusterResourceSet's watches, as Cluster API's mappers: a Cluster wakes the sets of its
 * namespace whose selector matches it (clusterToClusterResourceSet); a ConfigMap or Secret wakes
 * the sets that own it or, when none does, the sets that list it (resourceToClusterResourceSetFunc).
 */
const registry = new ReconcilerRegistry([clusterResourceSetReconciler]);

interface Shape {
  name?: string;
  labels?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  fields?: Record<string, unknown>;
}

function object(apiVersion: string, kind: string, namespace: string, shape: Shape = {}): StoredObject {
  const { name = 'x', labels = {}, ownerReferences, fields = {} } = shape;
  return {
    apiVersion,
    kind,
    metadata: { name, namespace, uid: 'u', resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z', labels, ...(ownerReferences ? { ownerReferences } : {}) },
    ...fields,
  };
}

const cluster = (namespace: string, labels: Record<string, string> = {}, status: Record<string, unknown> = {}) => object('cluster.x-k8s.io/v1beta2', 'Cluster', namespace, { labels, fields: { status } });
const secret = (namespace: string, name: string, shape: Shape = {}, type = 'addons.cluster.x-k8s.io/resource-set') =>
  object('v1', 'Secret', namespace, { name, ...shape, fields: { type, data: { k: 'MQ==' } } });
const configMap = (namespace: string, name: string, data: Record<string, string>, labels: Record<string, string> = {}) => object('v1', 'ConfigMap', namespace, { name, labels, fields: { data } });
const ownedBy = (set: string): OwnerReference[] => [{ apiVersion: 'addons.cluster.x-k8s.io/v1beta2', kind: 'ClusterResourceSet', name: set, uid: `uid-${set}` }];

/** Sets: what each selects and which resources it lists. */
const SETS: ReadonlyArray<{ namespace: string; name: string; selector: Record<string, unknown>; resources: Array<{ kind: string; name: string }> }> = [
  { namespace: 'a', name: 'one', selector: { matchLabels: { cni: 'calico' } }, resources: [{ kind: 'ConfigMap', name: 'cni' }, { kind: 'Secret', name: 'creds' }] },
  { namespace: 'a', name: 'two', selector: { matchExpressions: [{ key: 'cni', operator: 'In', values: ['cilium'] }] }, resources: [{ kind: 'ConfigMap', name: 'cni' }] },
  { namespace: 'a', name: 'none', selector: {}, resources: [{ kind: 'ConfigMap', name: 'cni' }] },
  { namespace: 'b', name: 'three', selector: { matchLabels: { cni: 'calico' } }, resources: [{ kind: 'Secret', name: 'creds' }] },
];

async function storeWithSets(): Promise<MemoryObjectStore> {
  const store = new MemoryObjectStore();
  for (const { namespace, name, selector, resources } of SETS) {
    await store.create({ apiVersion: 'addons.cluster.x-k8s.io/v1beta2', kind: 'ClusterResourceSet', metadata: { name, namespace }, spec: { clusterSelector: selector, resources } });
  }
  return store;
}

const setsIn = (namespace: string, names: string[]) => names.map((name) => keyString({ group: 'addons.cluster.x-k8s.io', kind: 'ClusterResourceSet', namespace, name }));

describe('routeChange with the ClusterResourceSet watches', () => {
  it.each<[string, StoredObject | undefined, StoredObject | undefined, string[], number]>([
    ['a new Cluster wakes the sets whose selector matches it', undefined, cluster('a', { cni: 'calico' }), setsIn('a', ['one']), 1],
    ['a new Cluster no selector matches wakes none (an empty selector selects nothing)', undefined, cluster('a'), [], 1],
    ['a relabelled Cluster wakes the sets of its old and new labels', cluster('a', { cni: 'calico' }), cluster('a', { cni: 'cilium' }), setsIn('a', ['one', 'two']), 1],
    ['an initialized control plane wakes them', cluster('b', { cni: 'calico' }), cluster('b', { cni: 'calico' }, { initialization: { controlPlaneInitialized: true } }), setsIn('b', ['three']), 1],
    ['another status change of a Cluster does not, nor looks', cluster('a', { cni: 'calico' }, { phase: 'Provisioning' }), cluster('a', { cni: 'calico' }, { phase: 'Provisioned' }), [], 0],
    ['a removed Cluster wakes them (its binding goes)', cluster('a', { cni: 'calico' }), undefined, setsIn('a', ['one']), 1],
    ['a ConfigMap whose data changed wakes the sets that list it', configMap('a', 'cni', { k: '1' }), configMap('a', 'cni', { k: '2' }), setsIn('a', ['none', 'one', 'two']), 1],
    ['a new Secret wakes the sets that list it', undefined, secret('a', 'creds'), setsIn('a', ['one']), 1],
    ['a new Secret no set lists wakes none (a bootstrap data secret)', undefined, secret('a', 'c1-md-0-abcde', { labels: { 'cluster.x-k8s.io/cluster-name': 'c1' } }), [], 1],
    ['a new ConfigMap no set lists wakes none', undefined, configMap('b', 'cni', { k: '1' }), [], 1],
    ['a new Secret of the type Cluster API writes wakes none and looks nothing up, listed or not', undefined, secret('a', 'creds', {}, 'cluster.x-k8s.io/secret'), [], 0],
    ['nor does a bootstrap token', undefined, secret('a', 'creds', {}, 'bootstrap.kubernetes.io/token'), [], 0],
    ['an Opaque Secret a set lists wakes it (to report the wrong type at once)', undefined, secret('a', 'creds', {}, 'Opaque'), setsIn('a', ['one']), 1],
    ['a Secret turned to the set type wakes the sets that list it', secret('a', 'creds', {}, 'cluster.x-k8s.io/secret'), secret('a', 'creds'), setsIn('a', ['one']), 1],
    ['a Secret a set owns wakes its owners only, with no lookup', secret('a', 'creds', { ownerReferences: ownedBy('two') }), { ...secret('a', 'creds', { ownerReferences: ownedBy('two') }), data: { k: 'Mg==' } }, setsIn('a', ['two']), 0],
    ["a removed ConfigMap does not (Cluster API's ResourceCreateOrUpdate predicate)", configMap('a', 'cni', { k: '1' }), undefined, [], 0],
    ['a removed Secret does not either', secret('a', 'creds'), undefined, [], 0],
    ['a ConfigMap relabelled only does not', configMap('a', 'cni', { k: '1' }), configMap('a', 'cni', { k: '1' }, { l: 'v' }), [], 0],
    ['a namespace without sets wakes nothing', undefined, cluster('c', { cni: 'calico' }), [], 1],
  ])('%s', async (_name, oldObject, newObject, expected, lookups) => {
    const lookup = new CountingLookup(await storeWithSets());
    const type = !oldObject ? 'INSERT' : !newObject ? 'REMOVE' : 'MODIFY';
    const requests = await routeChange({ type, ...(oldObject ? { oldObject } : {}), ...(newObject ? { newObject } : {}) }, registry, lookup);
    expect(requests.map(keyString).sort()).toEqual(expected);
    expect(lookup.calls).toHaveLength(lookups);
  });
});
