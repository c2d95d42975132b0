import { describe, expect, it } from 'vitest';
import { clusterResourceSetReconciler } from '../../../../functions/reconcile/addons/clusterresourceset/reconciler.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import { keyString, type StoredObject } from '../../../../shared/contracts/object.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';

/** The ClusterResourceSet's `namespace` watches: Clusters, ConfigMaps and Secrets wake every set of their namespace. */
const registry = new ReconcilerRegistry([clusterResourceSetReconciler]);

function object(apiVersion: string, kind: string, namespace: string, fields: Record<string, unknown> = {}, labels: Record<string, string> = {}): StoredObject {
  return { apiVersion, kind, metadata: { name: 'x', namespace, uid: 'u', resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z', labels }, ...fields };
}

const cluster = (namespace: string, labels: Record<string, string> = {}, status: Record<string, unknown> = {}) => object('cluster.x-k8s.io/v1beta2', 'Cluster', namespace, { status }, labels);
const secret = (namespace: string) => object('v1', 'Secret', namespace, { type: 'addons.cluster.x-k8s.io/resource-set', data: { k: 'MQ==' } });
const configMap = (namespace: string, data: Record<string, string>, labels: Record<string, string> = {}) => object('v1', 'ConfigMap', namespace, { data }, labels);

async function storeWithSets(): Promise<MemoryObjectStore> {
  const store = new MemoryObjectStore();
  for (const [namespace, name] of [['a', 'one'], ['a', 'two'], ['b', 'three']] as const) {
    await store.create({ apiVersion: 'addons.cluster.x-k8s.io/v1beta2', kind: 'ClusterResourceSet', metadata: { name, namespace }, spec: {} });
  }
  return store;
}

const setsIn = (namespace: string, names: string[]) => names.map((name) => keyString({ group: 'addons.cluster.x-k8s.io', kind: 'ClusterResourceSet', namespace, name }));

describe('routeChange with a namespace watch', () => {
  it.each<[string, StoredObject | undefined, StoredObject | undefined, string[]]>([
    ['a new Cluster wakes the sets of its namespace', undefined, cluster('a'), setsIn('a', ['one', 'two'])],
    ['a relabelled Cluster wakes them', cluster('a', { cni: 'x' }), cluster('a', { cni: 'y' }), setsIn('a', ['one', 'two'])],
    ['an initialized control plane wakes them', cluster('b'), cluster('b', {}, { initialization: { controlPlaneInitialized: true } }), setsIn('b', ['three'])],
    ['another status change of a Cluster does not', cluster('a', {}, { phase: 'Provisioning' }), cluster('a', {}, { phase: 'Provisioned' }), []],
    ['a removed Cluster wakes them (its binding goes)', cluster('a'), undefined, setsIn('a', ['one', 'two'])],
    ['a ConfigMap whose data changed wakes them', configMap('a', { k: '1' }), configMap('a', { k: '2' }), setsIn('a', ['one', 'two'])],
    ['a new ConfigMap wakes them', undefined, configMap('b', { k: '1' }), setsIn('b', ['three'])],
    ["a removed ConfigMap does not (Cluster API's ResourceCreateOrUpdate predicate)", configMap('a', { k: '1' }), undefined, []],
    ['a removed Secret does not either', secret('a'), undefined, []],
    ['a new Secret wakes them', undefined, secret('a'), setsIn('a', ['one', 'two'])],
    ['a ConfigMap relabelled only does not', configMap('a', { k: '1' }), configMap('a', { k: '1' }, { l: 'v' }), []],
    ['a namespace without sets wakes nothing', undefined, cluster('c'), []],
  ])('%s', async (_name, oldObject, newObject, expected) => {
    const store = await storeWithSets();
    const type = !oldObject ? 'INSERT' : !newObject ? 'REMOVE' : 'MODIFY';
    const requests = await routeChange({ type, ...(oldObject ? { oldObject } : {}), ...(newObject ? { newObject } : {}) }, registry, store);
    expect(requests.map(keyString).sort()).toEqual(expected);
  });
});
