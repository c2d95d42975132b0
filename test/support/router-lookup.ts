import type { ReferrerLookup } from '../../functions/reconcile/router/route-change.js';
import type { GroupKind, ObjectKey, StoredObject } from '../../shared/contracts/object.js';
import type { ListQuery, ListResult } from '../../shared/ports/object-store.js';
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

/** The store's lookups, counted by call; `failNext` makes the next call reject. */
export class CountingLookup implements ReferrerLookup {
  readonly calls: string[] = [];
  failNext = false;
  constructor(private readonly store: MemoryObjectStore) {}
  get(key: ObjectKey): Promise<StoredObject | undefined> {
    return this.count(`get ${key.kind} ${key.name}`, () => this.store.get(key));
  }
  listByCluster(namespace: string, clusterName: string, kind?: GroupKind): Promise<StoredObject[]> {
    return this.count(`listByCluster ${namespace}/${clusterName} ${kind?.kind ?? '*'}`, () => this.store.listByCluster(namespace, clusterName, kind));
  }
  list(query: ListQuery): Promise<ListResult> {
    return this.count(`list ${query.kind} ${query.namespace ?? '*'}`, () => this.store.list(query));
  }
  private async count<T>(call: string, ask: () => Promise<T>): Promise<T> {
    this.calls.push(call);
    if (this.failNext) {
      this.failNext = false;
      throw new Error('throttled');
    }
    return ask();
  }
}
