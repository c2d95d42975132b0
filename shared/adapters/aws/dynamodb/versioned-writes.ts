/**
 * The table's writes, each conditional on what the writer last read (ADR 0001: no transactions):
 * a new item only where none is, a replacement or removal only at the expected resourceVersion,
 * an update of the client-owned attributes only while the spec is unchanged. A failed condition
 * becomes Kubernetes' answer: AlreadyExists, Conflict or NotFound. None of them notify anyone;
 * the store emits its changes.
 */

import {
  type AttributeValue,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { type KubeObject, keyOf, type ObjectKey, type StoredObject } from '../../../contracts/object.js';
import type { Clock } from '../../../ports/clock.js';
import { assertFitsItemLimit } from '../../../store/item-size.js';
import { alreadyExists, conflict, notFound } from '../../../store/prepare-write.js';
import { nextResourceVersion } from '../../../store/resource-version.js';
import { asItemTooLarge, isConditionalCheckFailed } from './dynamo-errors.js';
import { ATTR, gensrcAttribute, type Item, itemKey, itemToObject, mutableAttributes, statusAttribute } from './item-codec.js';

/** A write that landed: the item before it and the object after. */
export interface Written {
  oldObject: StoredObject | undefined;
  newObject: StoredObject;
}

export class VersionedWrites {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  /** A consistent read of one object. */
  async get(key: ObjectKey): Promise<StoredObject | undefined> {
    const result = await this.client.send(new GetItemCommand({ TableName: this.tableName, Key: itemKey(key), ConsistentRead: true }));
    return itemToObject(result.Item);
  }

  /** Puts a new object's item; AlreadyExists when its key is taken. */
  async putNew(item: Item, created: StoredObject): Promise<void> {
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
  }

  /** Replaces the item of `stored`, as long as it is still at that version. */
  async putIfVersion(item: Item, stored: StoredObject): Promise<void> {
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

  /** Removes the item of `stored`, as long as it is still at that version. */
  async removeIfVersion(stored: StoredObject): Promise<void> {
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
  }

  /** One DeleteItem that succeeds only when no finalizers remain (and the precondition holds); the removed object, or undefined. */
  async removeIfNoFinalizers(key: ObjectKey, resourceVersion: string | undefined): Promise<StoredObject | undefined> {
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
      return itemToObject(result.Attributes);
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      throw error;
    }
  }

  /** Sets the deletion timestamp (and the next version) of `stored`, as long as it is still at that version. */
  async markDeleting(next: StoredObject, stored: StoredObject): Promise<void> {
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
  }

  /** Writes `obj`'s status (only), as long as the object is at `obj`'s resourceVersion. */
  async setStatusIfVersion(obj: KubeObject): Promise<Written> {
    const key = keyOf(obj);
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
      return { oldObject: itemToObject(oldItem), newObject: updated };
    } catch (error) {
      if (isConditionalCheckFailed(error)) throw await this.conflictOrNotFound(key);
      throw asItemTooLarge(error, `${key.kind} "${key.name}"`) ?? error;
    }
  }

  /**
   * One UpdateItem rewriting the client-owned attributes, conditional on the resourceVersion, on
   * the generation source being unchanged and on the object not deleting: `written` when it
   * landed, else `current` when DynamoDB returned the item that failed the check.
   */
  async setMutableIfSpecUnchanged(obj: StoredObject): Promise<{ written?: Written; current?: StoredObject }> {
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
      return { written: { oldObject: itemToObject(oldItem), newObject: updated } };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return { current: itemToObject(error.Item) };
      throw asItemTooLarge(error, `${key.kind} "${key.name}"`) ?? error;
    }
  }

  private async conflictOrNotFound(key: ObjectKey): Promise<Error> {
    return (await this.get(key)) ? conflict(key) : notFound(key);
  }
}
