import type { KubeObject, ObjectKey, StoredObject } from '../shared/contracts/object.js';
import type { ClusterKinds, DeleteOptions, DeleteResult, ListQuery, ListResult, ObjectStore } from '../shared/ports/object-store.js';

/** The reconcilers' store under `--simulate-aws`: every call first waits DynamoDB's per-call latency. */
export class LatencyStore implements ObjectStore {
  /** Calls made through this store so far. */
  calls = 0;

  constructor(
    private readonly inner: ObjectStore,
    private readonly latencyMs: number,
  ) {}

  create(obj: KubeObject): Promise<StoredObject> {
    return this.after(() => this.inner.create(obj));
  }
  get(key: ObjectKey): Promise<StoredObject | undefined> {
    return this.after(() => this.inner.get(key));
  }
  update(obj: KubeObject): Promise<StoredObject> {
    return this.after(() => this.inner.update(obj));
  }
  updateStatus(obj: KubeObject): Promise<StoredObject> {
    return this.after(() => this.inner.updateStatus(obj));
  }
  updateWithStatus(obj: KubeObject): Promise<StoredObject> {
    return this.after(() => this.inner.updateWithStatus(obj));
  }
  delete(key: ObjectKey, options?: DeleteOptions): Promise<DeleteResult> {
    return this.after(() => this.inner.delete(key, options));
  }
  list(query: ListQuery): Promise<ListResult> {
    return this.after(() => this.inner.list(query));
  }
  listByCluster(namespace: string, clusterName: string, kinds?: ClusterKinds): Promise<StoredObject[]> {
    return this.after(() => this.inner.listByCluster(namespace, clusterName, kinds));
  }
  listByOwner(ownerUid: string): Promise<StoredObject[]> {
    return this.after(() => this.inner.listByOwner(ownerUid));
  }

  private async after<T>(call: () => Promise<T>): Promise<T> {
    this.calls++;
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    return call();
  }
}
