import { MemoryObjectStore } from '../../shared/store/memory-store.js';

/**
 * A store for the router to look referrers up in, holding the named Clusters: the router wakes a
 * Cluster by its label only when it exists (route-change.ts, sameClusterKeys).
 */
export async function lookupWithClusters(namespace: string, ...names: string[]): Promise<MemoryObjectStore> {
  const store = new MemoryObjectStore();
  for (const name of names) await store.create({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name, namespace }, spec: {} });
  return store;
}
