/**
 * Reads of the object table by query: whole partitions, index partitions (with their Secret twin,
 * ADR 0003), and the label-filtered pages of a list with their continue tokens.
 */

import { type DynamoDBClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { isRecord } from '../../../contracts/json.js';
import type { GroupKind, StoredObject } from '../../../contracts/object.js';
import { BadRequestError } from '../../../errors/index.js';
import type { ListQuery, ListResult } from '../../../ports/object-store.js';
import { decodeContinueToken, encodeContinueToken } from '../../../store/continue-token.js';
import { matchesLabelSelector } from '../../../store/label-selector.js';
import { ATTR, clusterSortKeyPrefix, type Item, isSecretKind, itemToObject } from './item-codec.js';
import { SECRET_PARTITION_PREFIX } from './table-design.js';

/** An index of the table, as table-design.ts declares it. */
export interface TableIndex {
  name: string;
  partitionKey: string;
  sortKey: string;
}

export class TableQueries {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
    /** Whether this process may read Secrets; without it the Secret twins are skipped. */
    private readonly secretAccess: boolean,
  ) {}

  /**
   * Every item of one index partition and of its Secret twin, narrowed to the kinds given: one
   * query per group of kinds, on the sort-key prefix they share (`cluster.x-k8s.io#Machine` for a
   * cluster's Machines, MachineSets and MachineDeployments), so it can return items of other kinds
   * under that prefix for the caller to drop.
   */
  async indexPartitions(index: TableIndex, partition: string, kinds?: readonly GroupKind[]): Promise<Item[]> {
    const queries = kinds ? this.narrowedQueries(partition, kinds) : this.partitionsToQuery(partition).map((pk) => ({ pk, prefix: undefined }));
    const pages = await Promise.all(
      queries.map(({ pk, prefix }) =>
        this.all({
          TableName: this.tableName,
          IndexName: index.name,
          KeyConditionExpression: prefix ? '#pk = :pk AND begins_with(#sk, :prefix)' : '#pk = :pk',
          ExpressionAttributeNames: { '#pk': index.partitionKey, ...(prefix ? { '#sk': index.sortKey } : {}) },
          ExpressionAttributeValues: { ':pk': { S: pk }, ...(prefix ? { ':prefix': { S: prefix } } : {}) },
        }),
      ),
    );
    return pages.flat();
  }

  private narrowedQueries(partition: string, kinds: readonly GroupKind[]): Array<{ pk: string; prefix: string }> {
    const byGroup = new Map<string, GroupKind[]>();
    for (const kind of kinds) byGroup.set(kind.group, [...(byGroup.get(kind.group) ?? []), kind]);
    return [...byGroup.values()].flatMap((group) => {
      const prefix = sharedPrefix(group.map((k) => clusterSortKeyPrefix(k.group, k.kind)));
      return this.partitionsToQuery(partition, group).map((pk) => ({ pk, prefix }));
    });
  }

  /** Every item the query matches, all pages. */
  async all(input: QueryCommandInput): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Item | undefined;
    do {
      const result = await this.client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
      items.push(...(result.Items ?? []));
      startKey = result.LastEvaluatedKey;
    } while (startKey !== undefined);
    return items;
  }

  /**
   * Pages of at most `limit` matching objects. DynamoDB's Limit counts items examined before the
   * label filter, so each round asks only for what is still missing and the token is always the
   * last examined key: nothing is skipped or repeated.
   */
  async page(base: QueryCommandInput, query: ListQuery): Promise<ListResult> {
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

  /**
   * The index partitions to query for one logical partition: its own, and its Secret twin when
   * allowed and when the query is not narrowed to other kinds.
   */
  private partitionsToQuery(partition: string, kinds?: readonly GroupKind[]): string[] {
    const secrets = this.secretAccess && (kinds === undefined || kinds.some((k) => isSecretKind(k.group, k.kind)));
    const ordinary = kinds === undefined || kinds.some((k) => !isSecretKind(k.group, k.kind));
    return [...(ordinary ? [partition] : []), ...(secrets ? [`${SECRET_PARTITION_PREFIX}${partition}`] : [])];
  }
}

/** The longest prefix all the strings start with. */
function sharedPrefix(strings: readonly string[]): string {
  let prefix = strings[0] ?? '';
  for (const s of strings) while (!s.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/** The objects among query items (other items, such as owner edges, decode to nothing). */
export function objectsOf(items: Item[]): StoredObject[] {
  return items.flatMap((item) => {
    const obj = itemToObject(item);
    return obj ? [obj] : [];
  });
}

/** undefined means no limit (0 as in Kubernetes); anything but a non-negative integer is refused. */
function pageLimit(limit: number | undefined): number | undefined {
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
    throw new BadRequestError(`limit must be a non-negative integer, got ${limit}`);
  }
  return limit === 0 ? undefined : limit;
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
