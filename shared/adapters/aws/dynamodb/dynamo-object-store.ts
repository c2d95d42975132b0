/**
 * ObjectStore on one DynamoDB table (ADR 0001). Every write is conditional; no transactions.
 * Operation counts per call (the happy path, which is what reconcilers hit):
 *   get 1 read · create 1 write · updateStatus 1 write · update 1 write when spec is unchanged,
 *   else 1 failed write + 1 read + 1 write · delete 1 write without finalizers, else 1 failed
 *   write + 1 read + 1 write · plus 1 write per extra owner of multi-owner objects.
 */

import {
  type AttributeValue,
  BatchGetItemCommand,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  type QueryCommandInput,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { isRecord } from '../../../contracts/json.js';
import { type GroupKind, keyOf, type KubeObject, type ObjectKey, type StoredObject } from '../../../contracts/object.js';
import { BadRequestError, isConflict, isNotFound } from '../../../errors/index.js';
import { type Clock, systemClock } from '../../../ports/clock.js';
import type {
  ChangeSource,
  DeleteOptions,
  DeleteResult,
  ListQuery,
  ListResult,
  ObjectChange,
  ObjectStore,
  PropagationPolicy,
} from '../../../ports/object-store.js';
import { decodeContinueToken, encodeContinueToken } from '../../../store/continue-token.js';
import { collectGarbage } from '../../../store/garbage-collection.js';
import { assertFitsItemLimit } from '../../../store/item-size.js';
import { matchesLabelSelector } from '../../../store/label-selector.js';
import {
  alreadyExists,
  conflict,
  notFound,
  planDelete,
  prepareCreate,
  prepareStatusUpdate,
  prepareUpdate,
} from '../../../store/prepare-write.js';
import { nextResourceVersion } from '../../../store/resource-version.js';
import { isStoredObject } from '../../../store/stored-object.js';
import { asItemTooLarge, isConditionalCheckFailed } from './dynamo-errors.js';
import {
  ATTR,
  extraOwnerUids,
  gensrcAttribute,
  type Item,
  itemKey,
  itemToObject,
  clusterPartitionOf,
  clusterSortKeyPrefix,
  isSecretKind,
  kindPartitionOf,
  mutableAttributes,
  objectToItem,
  ownerEdgeItem,
  partitionOf,
  statusAttribute,
} from './item-codec.js';
import { OWNER_EDGE_PARTITION_PREFIX, SECRET_PARTITION_PREFIX, TABLE_INDEXES } from './table-design.js';

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

const BATCH_GET_LIMIT = 100;
const DELETE_ATTEMPTS = 5;

export class DynamoObjectStore implements ObjectStore, ChangeSource {
  private readonly client: DynamoDBClient;
  private readonly tableName: string;
  private readonly tapChanges: boolean;
  private readonly clock: Clock;
  private readonly secretAccess: boolean;
  private readonly listeners = new Set<(change: ObjectChange) => void>();

  constructor(options: DynamoObjectStoreOptions) {
    this.client = options.client;
    this.tableName = options.tableName;
    this.tapChanges = options.tapChanges ?? false;
    this.clock = options.clock ?? systemClock;
    this.secretAccess = options.secretAccess ?? true;
  }

  /**
   * The index partitions to query for one logical partition: its own, and its Secret twin when
   * allowed and when the query is not narrowed to another kind.
   */
  private indexPartitions(partition: string, kind?: GroupKind): string[] {
    const secrets = this.secretAccess && (kind === undefined || isSecretKind(kind.group, kind.kind));
    const ordinary = kind === undefined || !isSecretKind(kind.group, kind.kind);
    return [...(ordinary ? [partition] : []), ...(secrets ? [`${SECRET_PARTITION_PREFIX}${partition}`] : [])];
  }

  private async queryIndexPartitions(
    index: { name: string; partitionKey: string; sortKey: string },
    partition: string,
    kind?: GroupKind,
  ): Promise<Item[]> {
    const sortKeyPrefix = kind ? clusterSortKeyPrefix(kind.group, kind.kind) : undefined;
    const pages = await Promise.all(
      this.indexPartitions(partition, kind).map((pk) =>
        this.queryAll({
          TableName: this.tableName,
          IndexName: index.name,
          KeyConditionExpression: sortKeyPrefix ? '#pk = :pk AND begins_with(#sk, :prefix)' : '#pk = :pk',
          ExpressionAttributeNames: { '#pk': index.partitionKey, ...(sortKeyPrefix ? { '#sk': index.sortKey } : {}) },
          ExpressionAttributeValues: { ':pk': { S: pk }, ...(sortKeyPrefix ? { ':prefix': { S: sortKeyPrefix } } : {}) },
        }),
      ),
    );
    return pages.flat();
  }

  onChange(listener: (change: ObjectChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async create(obj: KubeObject): Promise<StoredObject> {
    const created = prepareCreate(obj, this.clock.now());
    const item = objectToItem(created);
    await this.writeOwnerEdges(created, item);
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: item,
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': ATTR.pk },
        }),
      );
    } catch (error) {
      if (isConditionalCheckFailed(error)) throw alreadyExists(keyOf(created));
      throw asItemTooLarge(error, `${created.kind} "${created.metadata.name}"`) ?? error;
    }
    this.emit({ type: 'INSERT', newObject: created });
    return created;
  }

  async get(key: ObjectKey): Promise<StoredObject | undefined> {
    const result = await this.client.send(
      new GetItemCommand({ TableName: this.tableName, Key: itemKey(key), ConsistentRead: true }),
    );
    return itemToObject(result.Item);
  }

  /**
   * Fast path: one UpdateItem that rewrites the client-owned attributes, conditional on the
   * resourceVersion, on the generation source being unchanged and on the object not deleting.
   * If that condition fails: read, apply the shared semantics, write conditionally.
   */
  async update(obj: KubeObject): Promise<StoredObject> {
    if (isStoredObject(obj) && obj.metadata.deletionTimestamp === undefined) {
      prepareUpdate(obj, obj, this.clock.now());
      const fast = await this.tryUnchangedSpecUpdate(obj);
      if (fast.updated) return fast.updated;
      if (fast.current) return this.updateFromStored(fast.current, obj);
    }
    return this.updateFromStored(await this.get(keyOf(obj)), obj);
  }

  private async updateFromStored(stored: StoredObject | undefined, obj: KubeObject): Promise<StoredObject> {
    if (!stored) throw notFound(keyOf(obj));
    const plan = prepareUpdate(stored, obj, this.clock.now());
    if (plan.action === 'remove') {
      await this.removeIfVersion(stored);
      await collectGarbage(this, stored.metadata.uid, 'Background');
      return plan.object;
    }
    const item = objectToItem(plan.object);
    await this.writeOwnerEdges(plan.object, item);
    await this.putIfVersion(item, stored);
    this.emit({ type: 'MODIFY', oldObject: stored, newObject: plan.object });
    return plan.object;
  }

  async updateStatus(obj: KubeObject): Promise<StoredObject> {
    const key = keyOf(obj);
    if (obj.metadata.resourceVersion === undefined || !isStoredObject(obj)) {
      const stored = await this.get(key);
      if (!stored) throw notFound(key);
      prepareStatusUpdate(stored, obj, this.clock.now());
    }
    assertFitsItemLimit(obj);
    const expected = obj.metadata.resourceVersion ?? '';
    const status = statusAttribute(obj);
    const names: Record<string, string> = { '#rv': ATTR.resourceVersion, '#st': ATTR.status };
    const values: Record<string, AttributeValue> = {
      ':rv': { S: expected },
      ':next': { S: nextResourceVersion(this.clock.now(), expected) },
    };
    if (status) values[':st'] = status;
    const next = values[':next'];
    try {
      const result = await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: itemKey(key),
          UpdateExpression: status ? 'SET #rv = :next, #st = :st' : 'SET #rv = :next REMOVE #st',
          ConditionExpression: '#rv = :rv',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_OLD',
        }),
      );
      const oldItem = result.Attributes ?? {};
      const newItem: Item = { ...oldItem, [ATTR.resourceVersion]: next ?? { S: '' } };
      if (status) newItem[ATTR.status] = status;
      else delete newItem[ATTR.status];
      const updated = itemToObject(newItem);
      if (!updated) throw new Error(`updateStatus of ${key.kind} "${key.name}" produced no object`);
      this.emit({ type: 'MODIFY', oldObject: itemToObject(oldItem), newObject: updated });
      return updated;
    } catch (error) {
      if (isConditionalCheckFailed(error)) throw await this.conflictOrNotFound(key);
      throw asItemTooLarge(error, `${key.kind} "${key.name}"`) ?? error;
    }
  }

  async delete(key: ObjectKey, options: DeleteOptions = {}): Promise<DeleteResult> {
    const policy = options.propagationPolicy ?? 'Background';
    const removed = await this.tryRemoveWithoutFinalizers(key, options.resourceVersion);
    if (removed) {
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
    return this.pagedQuery(base, query);
  }

  async listByCluster(namespace: string, clusterName: string, kind?: GroupKind): Promise<StoredObject[]> {
    const items = await this.queryIndexPartitions(TABLE_INDEXES.byCluster, clusterPartitionOf(namespace, clusterName), kind);
    return objectsOf(items);
  }

  /** The byOwner index (controller or first owner) plus owner-edge items for the other owners. */
  async listByOwner(ownerUid: string): Promise<StoredObject[]> {
    const [indexed, edges] = await Promise.all([
      this.queryIndexPartitions(TABLE_INDEXES.byOwner, ownerUid),
      this.queryAll({
        TableName: this.tableName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': ATTR.pk },
        ExpressionAttributeValues: { ':pk': { S: `${OWNER_EDGE_PARTITION_PREFIX}${ownerUid}` } },
        ConsistentRead: true,
      }),
    ]);
    const byKey = new Map<string, StoredObject>();
    for (const obj of [...objectsOf(indexed), ...(await this.edgeTargets(edges))]) {
      if ((obj.metadata.ownerReferences ?? []).some((ref) => ref.uid === ownerUid)) byKey.set(objectId(obj), obj);
    }
    await this.dropStaleEdges(ownerUid, edges, byKey);
    return [...byKey.values()].sort(byNamespaceAndName);
  }

  /** `updated` when the write landed; else `current` when DynamoDB returned the item that failed the check. */
  private async tryUnchangedSpecUpdate(obj: StoredObject): Promise<{ updated?: StoredObject; current?: StoredObject }> {
    const key = keyOf(obj);
    const next = nextResourceVersion(this.clock.now(), obj.metadata.resourceVersion);
    const { set, remove } = mutableAttributes(obj);
    set[ATTR.resourceVersion] = { S: next };
    const names: Record<string, string> = { '#rv': ATTR.resourceVersion, '#gs': ATTR.gensrc, '#dt': ATTR.deletionTimestamp };
    const values: Record<string, AttributeValue> = { ':expected': { S: obj.metadata.resourceVersion }, ':gs': gensrcAttribute(obj) };
    const setClauses = Object.entries(set).map(([attr, value], i) => {
      names[`#s${i}`] = attr;
      values[`:s${i}`] = value;
      return `#s${i} = :s${i}`;
    });
    const removeClauses = remove.map((attr, i) => {
      names[`#r${i}`] = attr;
      return `#r${i}`;
    });
    await this.writeOwnerEdges(obj, itemKey(key));
    try {
      const result = await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: itemKey(key),
          UpdateExpression: `SET ${setClauses.join(', ')}${removeClauses.length ? ` REMOVE ${removeClauses.join(', ')}` : ''}`,
          ConditionExpression: '#rv = :expected AND #gs = :gs AND attribute_not_exists(#dt)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_OLD',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      const oldItem = result.Attributes ?? {};
      const newItem: Item = { ...oldItem, ...set };
      for (const attr of remove) delete newItem[attr];
      const updated = itemToObject(newItem);
      if (!updated) throw new Error(`update of ${key.kind} "${key.name}" produced no object`);
      this.emit({ type: 'MODIFY', oldObject: itemToObject(oldItem), newObject: updated });
      return { updated };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return { current: itemToObject(error.Item) };
      throw asItemTooLarge(error, `${key.kind} "${key.name}"`) ?? error;
    }
  }

  private async putIfVersion(item: Item, stored: StoredObject): Promise<void> {
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: item,
          ConditionExpression: '#rv = :expected',
          ExpressionAttributeNames: { '#rv': ATTR.resourceVersion },
          ExpressionAttributeValues: { ':expected': { S: stored.metadata.resourceVersion } },
        }),
      );
    } catch (error) {
      if (isConditionalCheckFailed(error)) throw await this.conflictOrNotFound(keyOf(stored));
      throw asItemTooLarge(error, `${stored.kind} "${stored.metadata.name}"`) ?? error;
    }
  }

  private async removeIfVersion(stored: StoredObject): Promise<void> {
    try {
      await this.client.send(
        new DeleteItemCommand({
          TableName: this.tableName,
          Key: itemKey(keyOf(stored)),
          ConditionExpression: '#rv = :expected',
          ExpressionAttributeNames: { '#rv': ATTR.resourceVersion },
          ExpressionAttributeValues: { ':expected': { S: stored.metadata.resourceVersion } },
        }),
      );
    } catch (error) {
      if (isConditionalCheckFailed(error)) throw await this.conflictOrNotFound(keyOf(stored));
      throw error;
    }
    this.emit({ type: 'REMOVE', oldObject: stored });
  }

  /** One DeleteItem that succeeds only when no finalizers remain (and the precondition holds). */
  private async tryRemoveWithoutFinalizers(key: ObjectKey, resourceVersion: string | undefined): Promise<StoredObject | undefined> {
    const names: Record<string, string> = { '#pk': ATTR.pk, '#fc': ATTR.finalizerCount };
    const values: Record<string, AttributeValue> = { ':zero': { N: '0' } };
    let condition = 'attribute_exists(#pk) AND #fc = :zero';
    if (resourceVersion !== undefined) {
      names['#rv'] = ATTR.resourceVersion;
      values[':rv'] = { S: resourceVersion };
      condition += ' AND #rv = :rv';
    }
    try {
      const result = await this.client.send(
        new DeleteItemCommand({
          TableName: this.tableName,
          Key: itemKey(key),
          ConditionExpression: condition,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_OLD',
        }),
      );
      const removed = itemToObject(result.Attributes);
      if (removed) this.emit({ type: 'REMOVE', oldObject: removed });
      return removed;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      throw error;
    }
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
      await this.markDeleting(plan.object, stored);
    }
    if (policy === 'Orphan') await collectGarbage(this, stored.metadata.uid, 'Orphan');
    return { object: plan.object, removed: false };
  }

  private async markDeleting(next: StoredObject, stored: StoredObject): Promise<void> {
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: itemKey(keyOf(stored)),
          UpdateExpression: 'SET #rv = :next, #dt = :dt',
          ConditionExpression: '#rv = :expected',
          ExpressionAttributeNames: { '#rv': ATTR.resourceVersion, '#dt': ATTR.deletionTimestamp },
          ExpressionAttributeValues: {
            ':expected': { S: stored.metadata.resourceVersion },
            ':next': { S: next.metadata.resourceVersion },
            ':dt': { S: next.metadata.deletionTimestamp ?? '' },
          },
        }),
      );
    } catch (error) {
      if (isConditionalCheckFailed(error)) throw await this.conflictOrNotFound(keyOf(stored));
      throw error;
    }
    this.emit({ type: 'MODIFY', oldObject: stored, newObject: next });
  }

  private async conflictOrNotFound(key: ObjectKey): Promise<Error> {
    return (await this.get(key)) ? conflict(key) : notFound(key);
  }

  /** Owner edges are written before the object, so a crash leaves at most a stale edge (filtered on read). */
  private async writeOwnerEdges(obj: KubeObject, target: Item): Promise<void> {
    await Promise.all(
      extraOwnerUids(obj).map((uid) =>
        this.client.send(new PutItemCommand({ TableName: this.tableName, Item: ownerEdgeItem(uid, target) })),
      ),
    );
  }

  private async edgeTargets(edges: Item[]): Promise<StoredObject[]> {
    const keys = edges.flatMap((edge) => {
      const pk = edge[ATTR.edgeTargetPk]?.S;
      const sk = edge[ATTR.edgeTargetSk]?.S;
      return pk && sk ? [{ [ATTR.pk]: { S: pk }, [ATTR.sk]: { S: sk } }] : [];
    });
    const found: Item[] = [];
    for (let i = 0; i < keys.length; i += BATCH_GET_LIMIT) {
      let pending: Item[] = keys.slice(i, i + BATCH_GET_LIMIT);
      while (pending.length > 0) {
        const result = await this.client.send(
          new BatchGetItemCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } } }),
        );
        found.push(...(result.Responses?.[this.tableName] ?? []));
        pending = result.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
      }
    }
    return objectsOf(found);
  }

  private async dropStaleEdges(ownerUid: string, edges: Item[], live: Map<string, StoredObject>): Promise<void> {
    const liveTargets = new Set([...live.values()].map((obj) => {
      const key = itemKey(keyOf(obj));
      return `${key[ATTR.pk]?.S}#${key[ATTR.sk]?.S}`;
    }));
    const stale = edges.filter((edge) => !liveTargets.has(edge[ATTR.sk]?.S ?? ''));
    await Promise.all(
      stale.map((edge) =>
        this.client.send(
          new DeleteItemCommand({
            TableName: this.tableName,
            Key: { [ATTR.pk]: { S: `${OWNER_EDGE_PARTITION_PREFIX}${ownerUid}` }, [ATTR.sk]: { S: edge[ATTR.sk]?.S ?? '' } },
          }),
        ),
      ),
    );
  }

  /**
   * Pages of at most `limit` matching objects. DynamoDB's Limit counts items examined before the
   * label filter, so each round asks only for what is still missing and the token is always the
   * last examined key: nothing is skipped or repeated.
   */
  private async pagedQuery(base: QueryCommandInput, query: ListQuery): Promise<ListResult> {
    const limit = pageLimit(query.limit);
    let startKey = query.continue === undefined ? undefined : startKeyOf(query.continue);
    let fromToken = startKey !== undefined;
    const items: StoredObject[] = [];
    do {
      const input = new QueryCommand({ ...base, ExclusiveStartKey: startKey, Limit: limit === undefined ? undefined : limit - items.length });
      const result = await this.client.send(input).catch((error: unknown) => {
        // A start key DynamoDB refuses came from a forged token (ours always fit the query).
        if (fromToken && error instanceof Error && error.name === 'ValidationException') throw new BadRequestError('invalid continue token');
        throw error;
      });
      fromToken = false;
      for (const obj of objectsOf(result.Items ?? [])) {
        const selected =
          (query.name === undefined || obj.metadata.name === query.name) &&
          matchesLabelSelector(obj.metadata.labels, query.labelSelector ?? []);
        if (selected) items.push(obj);
      }
      startKey = result.LastEvaluatedKey;
    } while (startKey !== undefined && (limit === undefined || items.length < limit));
    return startKey === undefined ? { items } : { items, continue: encodeContinueToken(startKey) };
  }

  private async queryAll(input: QueryCommandInput): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Item | undefined;
    do {
      const result = await this.client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
      items.push(...(result.Items ?? []));
      startKey = result.LastEvaluatedKey;
    } while (startKey !== undefined);
    return items;
  }

  private emit(change: ObjectChange): void {
    if (!this.tapChanges) return;
    const clean: ObjectChange = { type: change.type };
    if (change.oldObject) clean.oldObject = change.oldObject;
    if (change.newObject) clean.newObject = change.newObject;
    for (const listener of this.listeners) listener(structuredClone(clean));
  }
}

function isRetryableDeleteRace(error: unknown, options: DeleteOptions, attempt: number): boolean {
  if (isNotFound(error)) return false;
  return options.resourceVersion === undefined && attempt < DELETE_ATTEMPTS && isConflict(error);
}

/** undefined means no limit (0 as in Kubernetes); anything but a non-negative integer is refused. */
function pageLimit(limit: number | undefined): number | undefined {
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
    throw new BadRequestError(`limit must be a non-negative integer, got ${limit}`);
  }
  return limit === 0 ? undefined : limit;
}

function objectsOf(items: Item[]): StoredObject[] {
  return items.flatMap((item) => {
    const obj = itemToObject(item);
    return obj ? [obj] : [];
  });
}

function objectId(obj: StoredObject): string {
  return `${obj.apiVersion}|${obj.kind}|${obj.metadata.namespace}|${obj.metadata.name}`;
}

function byNamespaceAndName(a: StoredObject, b: StoredObject): number {
  const left = `${a.metadata.namespace}#${a.metadata.name}`;
  const right = `${b.metadata.namespace}#${b.metadata.name}`;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** A continue token is a LastEvaluatedKey: a map of string attributes. Anything else is forged. */
function startKeyOf(token: string): Item {
  const decoded = decodeContinueToken(token);
  const key: Item = {};
  for (const [name, value] of Object.entries(decoded)) {
    if (!isRecord(value) || typeof value.S !== 'string' || Object.keys(value).length !== 1) {
      throw new BadRequestError('invalid continue token');
    }
    key[name] = { S: value.S };
  }
  if (!(ATTR.pk in key) || !(ATTR.sk in key)) throw new BadRequestError('invalid continue token');
  return key;
}
