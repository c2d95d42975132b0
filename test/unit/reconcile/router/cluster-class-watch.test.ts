import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import { CLUSTER_SCOPE_NAMESPACE, type StoredObject } from '../../../../shared/contracts/object.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';

const meta = (name: string, namespace = 'ns') => ({ name, namespace, uid: `${namespace}-${name}`, resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' });

function clusterClass(name: string, namespace = 'ns', generation = 1): StoredObject {
  return { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'ClusterClass', metadata: { ...meta(name, namespace), generation }, spec: {} };
}

function topologyCluster(name: string, classRef: Record<string, string>): StoredObject {
  return { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: meta(name), spec: { topology: { classRef, version: 'v1.33.0' } } };
}

describe('a ClusterClass change wakes the topology Clusters that use it', () => {
  it.each<[string, StoredObject, string[]]>([
    ['same namespace, by name', clusterClass('cc'), ['a', 'c']],
    ['another class', clusterClass('other'), []],
    ['a class of the same name elsewhere', clusterClass('cc', 'elsewhere'), []],
  ])('%s', async (_name, changed, expected) => {
    const store = new MemoryObjectStore();
    for (const c of [topologyCluster('a', { name: 'cc' }), topologyCluster('b', { name: 'other-class' }), topologyCluster('c', { name: 'cc', namespace: 'ns' })]) {
      await store.create(c);
    }
    const registry = new ReconcilerRegistry(builtinProviderRegistry().reconcilers());
    const before = { ...changed, metadata: { ...changed.metadata, generation: 1 } };
    const after = { ...changed, metadata: { ...changed.metadata, generation: 2 } };
    const requests = await routeChange({ type: 'MODIFY', oldObject: before, newObject: after }, registry, store);
    expect(requests.filter((r) => r.kind === 'Cluster').map((r) => r.name).sort()).toEqual(expected);
  });
});

/** Cluster API's extensionConfigToClusterClass: the classes whose patches discover variables through it. */
describe('an ExtensionConfig change wakes the ClusterClasses that discover variables through it', () => {
  const classWithPatches = (name: string, namespace: string, handlers: string[]): StoredObject => ({
    ...clusterClass(name, namespace),
    spec: { patches: handlers.map((handler, i) => ({ name: `p${i}`, external: { discoverVariablesExtension: handler } })) },
  });
  const extensionConfig = (status: Record<string, unknown>): StoredObject => ({
    apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
    kind: 'ExtensionConfig',
    // Cluster-scoped: stored under CLUSTER_SCOPE_NAMESPACE, as the API stores it.
    metadata: { name: 'ext', namespace: CLUSTER_SCOPE_NAMESPACE, uid: 'ext', resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { clientConfig: { url: 'https://ext.example' } },
    status,
  });
  const discovered = { handlers: [{ name: 'discover.ext', requestHook: { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', hook: 'DiscoverVariables' } }] };

  it.each<[string, StoredObject, StoredObject, string[]]>([
    ['its handlers discovered: classes in every namespace that name it', extensionConfig({}), extensionConfig(discovered), ['a/uses', 'b/uses-among-others']],
    ['only its conditions changed: none', extensionConfig({ ...discovered, conditions: [] }), extensionConfig({ ...discovered, conditions: [{ type: 'Discovered' }] }), []],
  ])('%s', async (_name, before, after, expected) => {
    const store = new MemoryObjectStore();
    for (const c of [
      classWithPatches('uses', 'a', ['discover.ext']),
      classWithPatches('uses-among-others', 'b', ['discover.other', 'discover.ext']),
      classWithPatches('other-extension', 'a', ['discover.other']),
      classWithPatches('three-parts', 'a', ['discover.ext.more']),
      classWithPatches('inline-only', 'a', []),
    ]) {
      await store.create(c);
    }
    const registry = new ReconcilerRegistry(builtinProviderRegistry().reconcilers());
    const requests = await routeChange({ type: 'MODIFY', oldObject: before, newObject: after }, registry, store);
    expect(requests.filter((r) => r.kind === 'ClusterClass').map((r) => `${r.namespace}/${r.name}`).sort()).toEqual(expected);
  });

  it('its removal wakes them too', async () => {
    const store = new MemoryObjectStore();
    await store.create(classWithPatches('uses', 'a', ['discover.ext']));
    const registry = new ReconcilerRegistry(builtinProviderRegistry().reconcilers());
    const requests = await routeChange({ type: 'REMOVE', oldObject: extensionConfig(discovered) }, registry, store);
    expect(requests.filter((r) => r.kind === 'ClusterClass').map((r) => r.name)).toEqual(['uses']);
  });
});
