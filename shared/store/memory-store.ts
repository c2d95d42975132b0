/**
 * An ObjectStore in a Map with exactly the semantics of the DynamoDB adapter (same conformance
 * suite). Every check-and-write runs without an await in between, which is what makes the
 * resourceVersion condition atomic here.
 */

import { keyOf, keyString, type KubeObject, type ObjectKey, type StoredObject } from '../contracts/object.js';
import { copyJson } from '../contracts/json.js';
import { type Clock, systemClock } from '../ports/clock.js';
import type {
  ChangeSource,
  ClusterKinds,
  DeleteOptions,
  DeleteResult,
  ListQuery,
  ListResult,
  ObjectChange,
  ObjectStore,
} from '../ports/object-store.js';
import { isOfKinds, kindList } from './cluster-kinds.js';
import { collectGarbage } from './garbage-collection.js';
import { IndexedObjects } from './memory-indexes.js';
import { matchesLabelSelector } from './label-selector.js';
import { compareByNamespaceAndName, pageOf } from './list-page.js';
import type { ObjectJournal } from './object-journal.js';
import { alreadyExists, notFound, planDelete, prepareCreate, prepareStatusUpdate, prepareUpdate, type StatusSource } from './prepare-write.js';

export interface MemoryObjectStoreOptions {
  clock?: Clock;
  /** Objects stored before (a journal's replay); taken as they are, not copied or checked again. */
  initial?: Iterable<StoredObject>;
  /** Told of every write before listeners are (the durable embedded store, ADR 0131). */
  journal?: ObjectJournal;
}

export class MemoryObjectStore implements ObjectStore, ChangeSource {
  private readonly objects = new IndexedObjects();
  private readonly listeners = new Set<(change: ObjectChange) => void>();
  private readonly clock: Clock;
  private readonly journal: ObjectJournal | undefined;

  constructor(options: MemoryObjectStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.journal = options.journal;
    for (const obj of options.initial ?? []) this.objects.set(keyString(keyOf(obj)), obj);
  }

  /** How many objects are stored (a journal's compaction threshold). */
  get size(): number {
    return this.objects.size;
  }

  /** Every stored object, uncopied: for a journal's snapshot only (callers must not mutate them). */
  storedObjects(): IterableIterator<StoredObject> {
    return this.objects.values();
  }

  onChange(listener: (change: ObjectChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async create(obj: KubeObject): Promise<StoredObject> {
    const created = prepareCreate(obj, this.clock.now());
    const key = keyOf(created);
    if (this.objects.has(keyString(key))) throw alreadyExists(key);
    this.put(created);
    this.emit({ type: 'INSERT', newObject: created });
    return this.copy(created);
  }

  async get(key: ObjectKey): Promise<StoredObject | undefined> {
    const found = this.objects.get(keyString(key));
    return found && this.copy(found);
  }

  update(obj: KubeObject): Promise<StoredObject> {
    return this.write(obj, 'stored');
  }

  updateWithStatus(obj: KubeObject): Promise<StoredObject> {
    return this.write(obj, 'request');
  }

  private async write(obj: KubeObject, status: StatusSource): Promise<StoredObject> {
    const stored = this.stored(keyOf(obj));
    const plan = prepareUpdate(stored, obj, this.clock.now(), status);
    if (plan.action === 'write') {
      this.put(plan.object);
      this.emit({ type: 'MODIFY', oldObject: stored, newObject: plan.object });
      return this.copy(plan.object);
    }
    this.remove(keyOf(stored));
    this.emit({ type: 'REMOVE', oldObject: stored });
    await collectGarbage(this, stored.metadata.uid, 'Background');
    return this.copy(plan.object);
  }

  async updateStatus(obj: KubeObject): Promise<StoredObject> {
    const stored = this.stored(keyOf(obj));
    const next = prepareStatusUpdate(stored, obj, this.clock.now());
    this.put(next);
    this.emit({ type: 'MODIFY', oldObject: stored, newObject: next });
    return this.copy(next);
  }

  async delete(key: ObjectKey, options: DeleteOptions = {}): Promise<DeleteResult> {
    const stored = this.stored(key);
    const policy = options.propagationPolicy ?? 'Background';
    const plan = planDelete(stored, options, this.clock.now());
    if (plan.action === 'remove') {
      this.remove(key);
      this.emit({ type: 'REMOVE', oldObject: stored });
      await collectGarbage(this, stored.metadata.uid, policy);
      return { object: this.copy(stored), removed: true };
    }
    if (plan.action === 'markDeleting') {
      this.put(plan.object);
      this.emit({ type: 'MODIFY', oldObject: stored, newObject: plan.object });
    }
    if (policy === 'Orphan') await collectGarbage(this, stored.metadata.uid, 'Orphan');
    return { object: this.copy(plan.object), removed: false };
  }

  async list(query: ListQuery): Promise<ListResult> {
    const candidates =
      query.namespace === undefined
        ? this.objects.ofKind(query.group, query.kind)
        : this.objects.ofKindIn(query.group, query.kind, query.namespace);
    const matching = candidates.filter(
      (obj) =>
        (query.name === undefined || obj.metadata.name === query.name) &&
        matchesLabelSelector(obj.metadata.labels, query.labelSelector ?? []),
    );
    const page = pageOf(matching.sort(compareByNamespaceAndName), query.limit, query.continue);
    return { ...page, items: page.items.map((obj) => this.copy(obj)) };
  }

  async listByCluster(namespace: string, clusterName: string, kinds?: ClusterKinds): Promise<StoredObject[]> {
    const wanted = kindList(kinds);
    return this.sorted(this.objects.inCluster(namespace, clusterName).filter((obj) => isOfKinds(obj, wanted)));
  }

  async listByOwner(ownerUid: string): Promise<StoredObject[]> {
    return this.sorted(this.objects.ownedBy(ownerUid));
  }

  private sorted(objects: StoredObject[]): StoredObject[] {
    return objects.sort(compareByNamespaceAndName).map((obj) => this.copy(obj));
  }

  private put(obj: StoredObject): void {
    // The journal first: a write it refuses (a full disk) changes nothing here either.
    this.journal?.put(obj);
    this.objects.set(keyString(keyOf(obj)), obj);
  }

  private remove(key: ObjectKey): void {
    this.journal?.remove(key);
    this.objects.delete(keyString(key));
  }

  private stored(key: ObjectKey): StoredObject {
    const found = this.objects.get(keyString(key));
    if (!found) throw notFound(key);
    return found;
  }

  /** One copy of the change, shared by every listener (ChangeSource: listeners never mutate it). */
  private emit(change: ObjectChange): void {
    if (this.listeners.size === 0) return;
    const shared: ObjectChange = {
      type: change.type,
      ...(change.oldObject ? { oldObject: this.copy(change.oldObject) } : {}),
      ...(change.newObject ? { newObject: this.copy(change.newObject) } : {}),
    };
    for (const listener of this.listeners) listener(shared);
  }

  /** A deep, plain-JSON copy for a caller (stored objects are never mutated, only replaced). */
  private copy(obj: StoredObject): StoredObject {
    return copyJson(obj);
  }
}
