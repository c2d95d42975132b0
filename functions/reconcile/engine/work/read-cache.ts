import { type KubeObject, keyOf, keyString, type ObjectKey, type StoredObject } from '../../../../shared/contracts/object.js';
import { copyJson } from '../../../../shared/contracts/json.js';
import type { ClusterKinds, DeleteOptions, DeleteResult, ListQuery, ListResult, ObjectStore } from '../../../../shared/ports/object-store.js';
import { kindList } from '../../../../shared/store/cluster-kinds.js';
import type { ReadVersions } from '../../../../shared/work/read-versions.js';

type Cached = { object: StoredObject | undefined };

/**
 * The store as one reconcile sees it (issue 16, item 3): each object is read at most once. A
 * `get` is answered from what this reconcile already read (by key, or as an item of a list) or
 * wrote; an identical list is answered from the first answer until this reconcile writes
 * anything. Nothing outlives the reconcile, so the next one starts from the store again (the
 * reconcilers stay level-triggered). A write that fails forgets the key (a conflict means the
 * cached version is stale: `updateFresh` must see the store's). Callers get copies: a phase that
 * edits what it read cannot change what a later phase reads.
 *
 * It also says what the reconcile read (`readVersions`, ADR 0137): each object at the version it
 * was first fetched at, without the objects the reconcile wrote or tried to.
 */
export class ReconcileReadCache implements ObjectStore {
  private readonly objects = new Map<string, Cached>();
  private readonly pages = new Map<string, ListResult>();
  private readonly indexed = new Map<string, StoredObject[]>();
  /** key → [uid, resourceVersion] of the first version fetched */
  private readonly firstRead = new Map<string, readonly [string, string]>();
  private readonly written = new Set<string>();

  constructor(private readonly inner: ObjectStore) {}

  async get(key: ObjectKey): Promise<StoredObject | undefined> {
    const id = keyString(key);
    const cached = this.objects.get(id);
    if (cached) return copyJson(cached.object);
    const found = await this.inner.get(key);
    this.objects.set(id, { object: found });
    if (found) this.noteRead(id, found);
    return copyJson(found);
  }

  /** The versions this reconcile read and did not write (ReadVersions). */
  readVersions(): ReadVersions {
    const read = new Map<string, string>();
    for (const [id, [uid, resourceVersion]] of this.firstRead) if (!this.written.has(id)) read.set(uid, resourceVersion);
    return read;
  }

  async list(query: ListQuery): Promise<ListResult> {
    const id = JSON.stringify(query);
    const cached = this.pages.get(id);
    if (cached) return copyJson(cached);
    const result = await this.inner.list(query);
    this.pages.set(id, result);
    this.remember(result.items);
    return copyJson(result);
  }

  async listByCluster(namespace: string, clusterName: string, kinds?: ClusterKinds): Promise<StoredObject[]> {
    const wanted = kindList(kinds);
    const id = wanted ? wanted.map((k) => `${k.group}/${k.kind}`).sort().join(',') : '*';
    return this.cachedItems(`byCluster ${namespace} ${clusterName} ${id}`, () => this.inner.listByCluster(namespace, clusterName, kinds));
  }

  async listByOwner(ownerUid: string): Promise<StoredObject[]> {
    return this.cachedItems(`byOwner ${ownerUid}`, () => this.inner.listByOwner(ownerUid));
  }

  create(obj: KubeObject): Promise<StoredObject> {
    return this.write(keyOf(obj), () => this.inner.create(obj));
  }

  update(obj: KubeObject): Promise<StoredObject> {
    return this.write(keyOf(obj), () => this.inner.update(obj));
  }

  updateStatus(obj: KubeObject): Promise<StoredObject> {
    return this.write(keyOf(obj), () => this.inner.updateStatus(obj));
  }

  updateWithStatus(obj: KubeObject): Promise<StoredObject> {
    return this.write(keyOf(obj), () => this.inner.updateWithStatus(obj));
  }

  async delete(key: ObjectKey, options?: DeleteOptions): Promise<DeleteResult> {
    const id = keyString(key);
    this.forgetLists();
    this.objects.delete(id);
    this.written.add(id);
    return this.inner.delete(key, options);
  }

  private async cachedItems(id: string, read: () => Promise<StoredObject[]>): Promise<StoredObject[]> {
    const cached = this.indexed.get(id);
    if (cached) return copyJson(cached);
    const items = await read();
    this.indexed.set(id, items);
    this.remember(items);
    return copyJson(items);
  }

  /**
   * Notes a version fetched from the store. Answers from the cache hand out what was fetched, so
   * noting fetches alone keeps each object's first version.
   */
  private noteRead(id: string, object: StoredObject): void {
    if (!this.firstRead.has(id)) this.firstRead.set(id, [object.metadata.uid, object.metadata.resourceVersion]);
  }

  private remember(items: readonly StoredObject[]): void {
    for (const item of items) {
      const id = keyString(keyOf(item));
      this.objects.set(id, { object: item });
      this.noteRead(id, item);
    }
  }

  private forgetLists(): void {
    this.pages.clear();
    this.indexed.clear();
  }

  /** Forgets the key before the write (a failed write leaves it unknown) and keeps what the store returned. */
  private async write(key: ObjectKey, call: () => Promise<StoredObject>): Promise<StoredObject> {
    const id = keyString(key);
    this.forgetLists();
    this.objects.delete(id);
    this.written.add(id);
    const stored = await call();
    this.objects.set(keyString(keyOf(stored)), { object: stored });
    return copyJson(stored);
  }
}
