/**
 * ObjectStore on one DynamoDB table (ADR 0001). Every write is conditional; no transactions.
 * Operation counts per call (the happy path, which is what reconcilers hit):
 *   get 1 read · create 1 write · updateStatus 1 write · update 1 write when spec is unchanged,
 *   else 1 failed write + 1 read + 1 write · updateWithStatus 1 read + 1 write · delete 1 write without finalizers, else 1 failed
 *   write + 1 read + 1 write · plus 1 write per extra owner of multi-owner objects.
 */

import type { DynamoDBClient, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { keyOf, type KubeObject, type ObjectKey, type StoredObject } from '../../../contracts/object.js';
import { isConflict, isNotFound } from '../../../errors/index.js';
import { type Clock, systemClock } from '../../../ports/clock.js';
import type {
  ChangeSource,
  ClusterKinds,
  DeleteOptions,
  DeleteResult,
  ListQuery,
  ListResult,
  ObjectChange,
  ObjectStore,
  PropagationPolicy,
} from '../../../ports/object-store.js';
import { collectGarbage } from '../../../store/garbage-collection.js';
import { matchesLabelSelector } from '../../../store/label-selector.js';
import { notFound, planDelete, prepareCreate, prepareStatusUpdate, prepareUpdate, type StatusSource } from '../../../store/prepare-write.js';
import { isStoredObject } from '../../../store/stored-object.js';
import { isOfKinds, kindList } from '../../../store/cluster-kinds.js';
import { ATTR, clusterPartitionOf, itemKey, kindPartitionOf, objectToItem, partitionOf } from './item-codec.js';
import { OwnerEdges } from './owner-edges.js';
import { TABLE_INDEXES } from './table-design.js';
import { objectsOf, TableQueries } from './table-queries.js';
import { VersionedWrites, type Written } from './versioned-writes.js';

export interface DynamoObjectStoreOptions {
  client: DynamoDBClient;
  tableName: string;
  /** Emit ObjectChange after each successful write (embedded mode: dynalite has no streams). */
  tapChanges?: boolean;
  clock?: Clock;
  /**
   * Whether this process may read Secrets (IAM decides on AWS; ADR 0003). Without it, lists by
   * cluster and by owner skip the Secret index partitions instead of being refused. Default true.
   */
  secretAccess?: boolean;
}

export class DynamoObjectStore implements ObjectStore, ChangeSource {
  private readonly tableName: string;
  private readonly tapChanges: boolean;
  private readonly clock: Clock;
  private readonly queries: TableQueries;
  private readonly edges: OwnerEdges;
  private readonly writes: VersionedWrites;
  private readonly listeners = new Set<(change: ObjectChange) => void>();

  constructor(options: DynamoObjectStoreOptions) {
    this.tableName = options.tableName;
    this.tapChanges = options.tapChanges ?? false;
    this.clock = options.clock ?? systemClock;
    this.queries = new TableQueries(options.client, options.tableName, options.secretAccess ?? true);
    this.edges = new OwnerEdges(options.client, options.tableName, this.queries);
    this.writes = new VersionedWrites(options.client, options.tableName, this.clock);
  }

  onChange(listener: (change: ObjectChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async create(obj: KubeObject): Promise<StoredObject> {
    const created = prepareCreate(obj, this.clock.now());
    const item = objectToItem(created);
    await this.edges.write(created, item);
    await this.writes.putNew(item, created);
    this.emit({ type: 'INSERT', newObject: created });
    return created;
  }

  get(key: ObjectKey): Promise<StoredObject | undefined> {
    return this.writes.get(key);
  }

  /**
   * Fast path: one UpdateItem that rewrites the client-owned attributes, conditional on the
   * resourceVersion, on the generation source being unchanged and on the object not deleting.
   * If that condition fails: read, apply the shared semantics, write conditionally.
   */
  async update(obj: KubeObject): Promise<StoredObject> {
    if (isStoredObject(obj) && obj.metadata.deletionTimestamp === undefined) {
      prepareUpdate(obj, obj, this.clock.now());
      await this.edges.write(obj, itemKey(keyOf(obj)));
      const fast = await this.writes.setMutableIfSpecUnchanged(obj);
      if (fast.written) return this.emitModified(fast.written);
      if (fast.current) return this.updateFromStored(fast.current, obj);
    }
    return this.updateFromStored(await this.get(keyOf(obj)), obj);
  }

  /** A read, then the whole item put at the version read (the fast path above leaves status alone). */
  async updateWithStatus(obj: KubeObject): Promise<StoredObject> {
    return this.updateFromStored(await this.get(keyOf(obj)), obj, 'request');
  }

  private async updateFromStored(stored: StoredObject | undefined, obj: KubeObject, status: StatusSource = 'stored'): Promise<StoredObject> {
    if (!stored) throw notFound(keyOf(obj));
    const plan = prepareUpdate(stored, obj, this.clock.now(), status);
    if (plan.action === 'remove') {
      await this.removeIfVersion(stored);
      await collectGarbage(this, stored.metadata.uid, 'Background');
      return plan.object;
    }
    const item = objectToItem(plan.object);
    await this.edges.write(plan.object, item);
    await this.writes.putIfVersion(item, stored);
    this.emit({ type: 'MODIFY', oldObject: stored, newObject: plan.object });
    return plan.object;
  }

  async updateStatus(obj: KubeObject): Promise<StoredObject> {
    if (obj.metadata.resourceVersion === undefined || !isStoredObject(obj)) {
      const key = keyOf(obj);
      const stored = await this.get(key);
      if (!stored) throw notFound(key);
      prepareStatusUpdate(stored, obj, this.clock.now());
    }
    return this.emitModified(await this.writes.setStatusIfVersion(obj));
  }

  async delete(key: ObjectKey, options: DeleteOptions = {}): Promise<DeleteResult> {
    const policy = options.propagationPolicy ?? 'Background';
    const removed = await this.writes.removeIfNoFinalizers(key, options.resourceVersion);
    if (removed) {
      this.emit({ type: 'REMOVE', oldObject: removed });
      await collectGarbage(this, removed.metadata.uid, policy);
      return { object: removed, removed: true };
    }
    for (let attempt = 1; ; attempt++) {
      const stored = await this.get(key);
      if (!stored) throw notFound(key);
      const plan = planDelete(stored, options, this.clock.now());
      try {
        return await this.applyDeletePlan(plan, stored, policy);
      } catch (error) {
        const retry = isRetryableDeleteRace(error, options, attempt);
        if (!retry) throw error;
      }
    }
  }

  async list(query: ListQuery): Promise<ListResult> {
    if (query.namespace !== undefined && query.name !== undefined) {
      const found = await this.get({ group: query.group, kind: query.kind, namespace: query.namespace, name: query.name });
      const matches = found && matchesLabelSelector(found.metadata.labels, query.labelSelector ?? []);
      return { items: matches ? [found] : [] };
    }
    const base: QueryCommandInput =
      query.namespace === undefined
        ? {
            TableName: this.tableName,
            IndexName: TABLE_INDEXES.byKind.name,
            KeyConditionExpression: '#pk = :pk',
            ExpressionAttributeNames: { '#pk': TABLE_INDEXES.byKind.partitionKey },
            ExpressionAttributeValues: { ':pk': { S: kindPartitionOf(query.group, query.kind) } },
          }
        : {
            TableName: this.tableName,
            KeyConditionExpression: '#pk = :pk',
            ExpressionAttributeNames: { '#pk': ATTR.pk },
            ExpressionAttributeValues: { ':pk': { S: partitionOf(query.group, query.kind, query.namespace) } },
            ConsistentRead: true,
          };
    return this.queries.page(base, query);
  }

  async listByCluster(namespace: string, clusterName: string, kinds?: ClusterKinds): Promise<StoredObject[]> {
    const wanted = kindList(kinds);
    const items = await this.queries.indexPartitions(TABLE_INDEXES.byCluster, clusterPartitionOf(namespace, clusterName), wanted);
    // A sort-key prefix shared by several kinds can reach others (MachineHealthCheck beside Machine).
    return objectsOf(items).filter((obj) => isOfKinds(obj, wanted));
  }

  /** The byOwner index (controller or first owner) plus owner-edge items for the other owners. */
  listByOwner(ownerUid: string): Promise<StoredObject[]> {
    return this.edges.ownedBy(ownerUid);
  }

  private async removeIfVersion(stored: StoredObject): Promise<void> {
    await this.writes.removeIfVersion(stored);
    this.emit({ type: 'REMOVE', oldObject: stored });
  }

  private async applyDeletePlan(
    plan: ReturnType<typeof planDelete>,
    stored: StoredObject,
    policy: PropagationPolicy,
  ): Promise<DeleteResult> {
    if (plan.action === 'remove') {
      await this.removeIfVersion(stored);
      await collectGarbage(this, stored.metadata.uid, policy);
      return { object: stored, removed: true };
    }
    if (plan.action === 'markDeleting') {
      await this.writes.markDeleting(plan.object, stored);
      this.emit({ type: 'MODIFY', oldObject: stored, newObject: plan.object });
    }
    if (policy === 'Orphan') await collectGarbage(this, stored.metadata.uid, 'Orphan');
    return { object: plan.object, removed: false };
  }

  private emitModified(written: Written): StoredObject {
    this.emit({ type: 'MODIFY', ...(written.oldObject ? { oldObject: written.oldObject } : {}), newObject: written.newObject });
    return written.newObject;
  }

  private emit(change: ObjectChange): void {
    if (!this.tapChanges) return;
    const clean: ObjectChange = { type: change.type };
    if (change.oldObject) clean.oldObject = change.oldObject;
    if (change.newObject) clean.newObject = change.newObject;
    for (const listener of this.listeners) listener(structuredClone(clean));
  }
}

const DELETE_ATTEMPTS = 5;

function isRetryableDeleteRace(error: unknown, options: DeleteOptions, attempt: number): boolean {
  if (isNotFound(error)) return false;
  return options.resourceVersion === undefined && attempt < DELETE_ATTEMPTS && isConflict(error);
}
