import {
  type AttributeValue,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { keyString, type ObjectKey } from '../../../contracts/object.js';
import type { WorkLeases } from '../../../work/work-leases.js';
import { TABLE_KEYS } from '../dynamodb/table-design.js';

/** Partition-key prefix of work records; the router's stream decoder ignores it (not an object). */
export const WORK_PARTITION_PREFIX = 'work#';
const SORT_KEY = 'work';
const ATTEMPTS = 6;
/**
 * How long a queued marker stands for a pending message (default). A message the marker stands
 * for can be lost: the enqueuer crashed between the marker write and SendMessage, or the message
 * expired or was dead-lettered unseen. Past this age the marker is treated as absent, so the next
 * enqueue (a change or the resync) sends again instead of coalescing into nothing forever. A late
 * original message then costs one extra reconcile, never a concurrent one (the lease decides).
 */
export const DEFAULT_QUEUED_MARKER_TTL_MS = 15 * 60_000;

const NAMES = { '#q': 'queued', '#qa': 'queuedAt', '#d': 'dirty', '#lu': 'leaseUntil', '#lt': 'leaseToken' };
/** No pending message: no marker, or a marker older than the TTL (or from before queuedAt existed). */
const NOT_QUEUED_OR_STALE = '(attribute_not_exists(#q) OR #q = :f OR attribute_not_exists(#qa) OR #qa < :stale)';
const NOT_QUEUED = '(attribute_not_exists(#q) OR #q = :f)';
const NO_LIVE_LEASE = '(attribute_not_exists(#lu) OR #lu < :now)';

interface WorkState {
  queued: boolean;
  queuedAt: number | undefined;
  dirty: boolean;
  leaseUntil: number | undefined;
}

/**
 * WorkLeases as one item per object (`pk = work#<key>`, `sk = work`) in a DynamoDB table,
 * written only with conditional single-item writes. The item is deleted when a run ends with
 * nothing owed, so idle objects cost no storage.
 */
export class DynamoWorkLeases implements WorkLeases {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
    private readonly queuedMarkerTtlMs = DEFAULT_QUEUED_MARKER_TTL_MS,
  ) {}

  async markQueued(key: ObjectKey, nowMs: number): Promise<'send' | 'coalesced'> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const old = await this.conditionalUpdate(key, {
        UpdateExpression: 'SET #q = :t, #qa = :now',
        ConditionExpression: `${NOT_QUEUED_OR_STALE} AND ${NO_LIVE_LEASE}`,
        ExpressionAttributeNames: { '#q': NAMES['#q'], '#qa': NAMES['#qa'], '#lu': NAMES['#lu'] },
        ExpressionAttributeValues: {
          ':t': { BOOL: true },
          ':f': { BOOL: false },
          ':now': num(nowMs),
          ':stale': num(nowMs - this.queuedMarkerTtlMs),
        },
      });
      if (old === 'ok') return 'send';
      if (this.pending(old, nowMs)) return 'coalesced';
      if (leaseLive(old, nowMs) && (await this.markDirty(key, nowMs))) return 'coalesced';
    }
    return 'send';
  }

  async acquire(
    key: ObjectKey,
    lease: { token: string; nowMs: number; leaseMs: number; holdsQueuedMarker: boolean },
  ): Promise<boolean> {
    const condition = lease.holdsQueuedMarker ? NO_LIVE_LEASE : `${NO_LIVE_LEASE} AND ${NOT_QUEUED_OR_STALE}`;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const old = await this.conditionalUpdate(key, {
        UpdateExpression: 'SET #lu = :until, #lt = :tok, #d = :f, #q = :f REMOVE #qa',
        ConditionExpression: condition,
        ExpressionAttributeNames: NAMES,
        ExpressionAttributeValues: {
          ':until': num(lease.nowMs + lease.leaseMs),
          ':tok': { S: lease.token },
          ':f': { BOOL: false },
          ':now': num(lease.nowMs),
          ...(lease.holdsQueuedMarker ? {} : { ':stale': num(lease.nowMs - this.queuedMarkerTtlMs) }),
        },
      });
      if (old === 'ok') return true;
      if (leaseLive(old, lease.nowMs)) {
        if (await this.markDirty(key, lease.nowMs)) return false;
      } else if (!lease.holdsQueuedMarker && this.pending(old, lease.nowMs)) {
        return false;
      }
    }
    return true;
  }

  async release(key: ObjectKey, token: string): Promise<{ rerun: boolean }> {
    try {
      await this.client.send(
        new DeleteItemCommand({
          TableName: this.tableName,
          Key: itemKey(key),
          ConditionExpression: `#lt = :tok AND ${NOT_QUEUED} AND (attribute_not_exists(#d) OR #d = :f)`,
          ExpressionAttributeNames: { '#lt': NAMES['#lt'], '#q': NAMES['#q'], '#d': NAMES['#d'] },
          ExpressionAttributeValues: { ':tok': { S: token }, ':f': { BOOL: false } },
        }),
      );
      return { rerun: false };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    try {
      const result = await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: itemKey(key),
          UpdateExpression: 'REMOVE #lu, #lt SET #d = :f',
          ConditionExpression: '#lt = :tok',
          ExpressionAttributeNames: { '#lu': NAMES['#lu'], '#lt': NAMES['#lt'], '#d': NAMES['#d'] },
          ExpressionAttributeValues: { ':tok': { S: token }, ':f': { BOOL: false } },
          ReturnValues: 'ALL_OLD',
        }),
      );
      return { rerun: stateOf(result.Attributes).dirty };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return { rerun: false };
      throw error;
    }
  }

  /** A message the queued marker stands for is presumed still on its way. */
  private pending(state: WorkState, nowMs: number): boolean {
    return state.queued && state.queuedAt !== undefined && state.queuedAt >= nowMs - this.queuedMarkerTtlMs;
  }

  /** Sets dirty while the lease is still live; false when it ended meanwhile. */
  private async markDirty(key: ObjectKey, nowMs: number): Promise<boolean> {
    const old = await this.conditionalUpdate(key, {
      UpdateExpression: 'SET #d = :t',
      ConditionExpression: '#lu >= :now',
      ExpressionAttributeNames: { '#d': NAMES['#d'], '#lu': NAMES['#lu'] },
      ExpressionAttributeValues: { ':t': { BOOL: true }, ':now': num(nowMs) },
    });
    return old === 'ok';
  }

  /** 'ok', or the item's state when the condition failed (from the error, else a consistent read). */
  private async conditionalUpdate(
    key: ObjectKey,
    input: {
      UpdateExpression: string;
      ConditionExpression: string;
      ExpressionAttributeNames: Record<string, string>;
      ExpressionAttributeValues: Record<string, AttributeValue>;
    },
  ): Promise<'ok' | WorkState> {
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: itemKey(key),
          ...input,
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return 'ok';
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      if (error.Item) return stateOf(error.Item);
      const read = await this.client.send(
        new GetItemCommand({ TableName: this.tableName, Key: itemKey(key), ConsistentRead: true }),
      );
      return stateOf(read.Item);
    }
  }
}

function itemKey(key: ObjectKey): Record<string, AttributeValue> {
  return {
    [TABLE_KEYS.partitionKey]: { S: `${WORK_PARTITION_PREFIX}${keyString(key)}` },
    [TABLE_KEYS.sortKey]: { S: SORT_KEY },
  };
}

function num(value: number): AttributeValue {
  return { N: String(value) };
}

function stateOf(item: Record<string, AttributeValue> | undefined): WorkState {
  const lease = item?.leaseUntil?.N;
  const queuedAt = item?.queuedAt?.N;
  return {
    queued: item?.queued?.BOOL === true,
    queuedAt: queuedAt === undefined ? undefined : Number(queuedAt),
    dirty: item?.dirty?.BOOL === true,
    leaseUntil: lease === undefined ? undefined : Number(lease),
  };
}

function leaseLive(state: WorkState, nowMs: number): boolean {
  return state.leaseUntil !== undefined && state.leaseUntil >= nowMs;
}
