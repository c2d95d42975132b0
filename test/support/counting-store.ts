import type { KubeObject, ObjectKey, StoredObject } from '../../shared/contracts/object.js';
import type { ClusterKinds, DeleteOptions, DeleteResult, ListQuery, ListResult, ObjectStore } from '../../shared/ports/object-store.js';

export interface StoreCounts {
  reads: number;
  writes: number;
  /** Writes by kind, e.g. `Machine: 12`. */
  writesByKind: Record<string, number>;
}

/** Wraps a store and counts the calls that reach it. */
export class CountingStore implements ObjectStore {
  readonly counts: StoreCounts = { reads: 0, writes: 0, writesByKind: {} };

  constructor(private readonly inner: ObjectStore) {}

  private wrote(kind: string): void {
    this.counts.writes++;
    this.counts.writesByKind[kind] = (this.counts.writesByKind[kind] ?? 0) + 1;
  }

  create(obj: KubeObject): Promise<StoredObject> {
    this.wrote(obj.kind);
    return this.inner.create(obj);
  }
  get(key: ObjectKey): Promise<StoredObject | undefined> {
    this.counts.reads++;
    return this.inner.get(key);
  }
  update(obj: KubeObject): Promise<StoredObject> {
    this.wrote(obj.kind);
    return this.inner.update(obj);
  }
  updateStatus(obj: KubeObject): Promise<StoredObject> {
    this.wrote(obj.kind);
    return this.inner.updateStatus(obj);
  }
  updateWithStatus(obj: KubeObject): Promise<StoredObject> {
    this.wrote(obj.kind);
    return this.inner.updateWithStatus(obj);
  }
  delete(key: ObjectKey, options?: DeleteOptions): Promise<DeleteResult> {
    this.wrote(key.kind);
    return this.inner.delete(key, options);
  }
  list(query: ListQuery): Promise<ListResult> {
    this.counts.reads++;
    return this.inner.list(query);
  }
  listByCluster(namespace: string, clusterName: string, kinds?: ClusterKinds): Promise<StoredObject[]> {
    this.counts.reads++;
    return this.inner.listByCluster(namespace, clusterName, kinds);
  }
  listByOwner(ownerUid: string): Promise<StoredObject[]> {
    this.counts.reads++;
    return this.inner.listByOwner(ownerUid);
  }
}
