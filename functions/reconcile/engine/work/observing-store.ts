import { keyString, keyOf, type ObjectKey, type StoredObject } from '../../../../shared/contracts/object.js';
import type { ClusterKinds, ObjectStore } from '../../../../shared/ports/object-store.js';

/**
 * Wraps a store for one reconcile and remembers the last version of `key` it read or wrote, so
 * the work queue can look at the object's conditions afterwards without another read.
 */
export class ObservingStore implements ObjectStore {
  private last: StoredObject | undefined;
  private readonly watched: string;

  constructor(
    private readonly inner: ObjectStore,
    key: ObjectKey,
  ) {
    this.watched = keyString(key);
  }

  /** The latest version of the watched object this reconcile saw, if any. */
  lastSeen(): StoredObject | undefined {
    return this.last;
  }

  private seen(object: StoredObject | undefined): StoredObject | undefined {
    if (object && keyString(keyOf(object)) === this.watched) this.last = object;
    return object;
  }

  async get(key: ObjectKey) {
    return this.seen(await this.inner.get(key));
  }
  async create(obj: Parameters<ObjectStore['create']>[0]) {
    return this.inner.create(obj);
  }
  async update(obj: Parameters<ObjectStore['update']>[0]) {
    const stored = await this.inner.update(obj);
    this.seen(stored);
    return stored;
  }
  async updateStatus(obj: Parameters<ObjectStore['updateStatus']>[0]) {
    const stored = await this.inner.updateStatus(obj);
    this.seen(stored);
    return stored;
  }
  async updateWithStatus(obj: Parameters<ObjectStore['updateWithStatus']>[0]) {
    const stored = await this.inner.updateWithStatus(obj);
    this.seen(stored);
    return stored;
  }
  delete(...args: Parameters<ObjectStore['delete']>) {
    return this.inner.delete(...args);
  }
  list(...args: Parameters<ObjectStore['list']>) {
    return this.inner.list(...args);
  }
  listByCluster(namespace: string, clusterName: string, kinds?: ClusterKinds) {
    return this.inner.listByCluster(namespace, clusterName, kinds);
  }
  listByOwner(ownerUid: string) {
    return this.inner.listByOwner(ownerUid);
  }
}
