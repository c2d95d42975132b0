/**
 * Owner edges (ADR 0001): the byOwner index holds an object under its controller (or first)
 * owner only, so each further owner gets an edge item pointing at the object. Edges are written
 * before the object, so a crash leaves at most a stale edge, which reads filter out and drop.
 */

import { BatchGetItemCommand, DeleteItemCommand, type DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { type KubeObject, keyOf, type StoredObject } from '../../../contracts/object.js';
import { ATTR, extraOwnerUids, type Item, itemKey, ownerEdgeItem } from './item-codec.js';
import { OWNER_EDGE_PARTITION_PREFIX, TABLE_INDEXES } from './table-design.js';
import { objectsOf, type TableQueries } from './table-queries.js';

const BATCH_GET_LIMIT = 100;

export class OwnerEdges {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
    private readonly queries: TableQueries,
  ) {}

  /** One edge per owner beyond the indexed one, pointing at `target` (the object's item or key). */
  async write(obj: KubeObject, target: Item): Promise<void> {
    await Promise.all(
      extraOwnerUids(obj).map((uid) =>
        this.client.send(new PutItemCommand({ TableName: this.tableName, Item: ownerEdgeItem(uid, target) })),
      ),
    );
  }

  /** The byOwner index (controller or first owner) plus owner-edge items for the other owners. */
  async ownedBy(ownerUid: string): Promise<StoredObject[]> {
    const [indexed, edges] = await Promise.all([
      this.queries.indexPartitions(TABLE_INDEXES.byOwner, ownerUid),
      this.queries.all({
        TableName: this.tableName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': ATTR.pk },
        ExpressionAttributeValues: { ':pk': { S: `${OWNER_EDGE_PARTITION_PREFIX}${ownerUid}` } },
        ConsistentRead: true,
      }),
    ]);
    const byKey = new Map<string, StoredObject>();
    for (const obj of [...objectsOf(indexed), ...(await this.targetsOf(edges))]) {
      if ((obj.metadata.ownerReferences ?? []).some((ref) => ref.uid === ownerUid)) byKey.set(objectId(obj), obj);
    }
    await this.dropStale(ownerUid, edges, byKey);
    return [...byKey.values()].sort(byNamespaceAndName);
  }

  private async targetsOf(edges: Item[]): Promise<StoredObject[]> {
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

  private async dropStale(ownerUid: string, edges: Item[], live: Map<string, StoredObject>): Promise<void> {
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
}

function objectId(obj: StoredObject): string {
  return `${obj.apiVersion}|${obj.kind}|${obj.metadata.namespace}|${obj.metadata.name}`;
}

function byNamespaceAndName(a: StoredObject, b: StoredObject): number {
  const left = `${a.metadata.namespace}#${a.metadata.name}`;
  const right = `${b.metadata.namespace}#${b.metadata.name}`;
  return left < right ? -1 : left > right ? 1 : 0;
}
