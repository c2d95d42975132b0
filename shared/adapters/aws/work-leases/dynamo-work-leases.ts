import {
  type AttributeValue,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { keyString, type ObjectKey } from '../../../contracts/object.js';
import type { RunSettlement, WorkLeases } from '../../../work/work-leases.js';
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
/** The lease token of the run whose requeue is still owed (docs/adr/0144). */
const AWAITS = { '#aw': 'awaits' };
/**
 * A release that keeps the item: the lease goes and the dirty flag is cleared (the caller reruns
 * on the old value); the owed requeue is cleared by an answered run, named by a requeued one, and
 * left as it was by a failed one.
 */
const RELEASE_UPDATES: Readonly<Record<RunSettlement, string>> = {
  answered: 'REMOVE #lu, #lt, #aw SET #d = :f',
  requeued: 'REMOVE #lu, #lt SET #d = :f, #aw = :tok',
  failed: 'REMOVE #lu, #lt SET #d = :f',
};
/** No pending message: no marker, or a marker older than the TTL (or from before queuedAt existed). */
const NOT_QUEUED_OR_STALE = '(attribute_not_exists(#q) OR #q = :f OR attribute_not_exists(#qa) OR #qa < :stale)';
const NOT_QUEUED = '(attribute_not_exists(#q) OR #q = :f)';
const NO_LIVE_LEASE = '(attribute_not_exists(#lu) OR #lu < :now)';

interface WorkState {
  queued: boolean;
  queuedAt: number | undefined;
  dirty: boolean;
  leaseUntil: number | undefined;
  awaits: string | undefined;
}

/**
 * WorkLeases as one item per object (`pk = work#<key>`, `sk = work`) in a DynamoDB table,
 * written only with conditional single-item writes. The item is deleted when a run ends with
 * nothing owed (no message pending, no rerun, no requeue), so idle objects cost no storage.
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
    lease: { token: string; nowMs: number; leaseMs: number; holdsQueuedMarker: boolean; awaits?: string },
  ): Promise<boolean> {
    const awaits = lease.awaits;
    const stepsAside = lease.holdsQueuedMarker ? NO_LIVE_LEASE : `${NO_LIVE_LEASE} AND ${NOT_QUEUED_OR_STALE}`;
    const condition = awaits === undefined ? stepsAside : `${stepsAside} AND #aw = :aw`;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const old = await this.conditionalUpdate(key, {
        UpdateExpression: 'SET #lu = :until, #lt = :tok, #d = :f, #q = :f REMOVE #qa',
        ConditionExpression: condition,
        ExpressionAttributeNames: awaits === undefined ? NAMES : { ...NAMES, ...AWAITS },
        ExpressionAttributeValues: {
          ':until': num(lease.nowMs + lease.leaseMs),
          ':tok': { S: lease.token },
          ':f': { BOOL: false },
          ':now': num(lease.nowMs),
          ...(lease.holdsQueuedMarker ? {} : { ':stale': num(lease.nowMs - this.queuedMarkerTtlMs) }),
          ...(awaits === undefined ? {} : { ':aw': { S: awaits } }),
        },
      });
      if (old === 'ok') return true;
      if ((await this.refusal(key, old, lease)) === 'refused') return false;
    }
    return true;
  }

  /** Why an acquire's condition failed: 'refused' drops the message, 'again' tries once more. */
  private async refusal(key: ObjectKey, old: WorkState, lease: { nowMs: number; holdsQueuedMarker: boolean; awaits?: string }): Promise<'refused' | 'again'> {
    if (leaseLive(old, lease.nowMs)) {
      // As any message during a run: one rerun after it (a requeue sent just before its own
      // run's release may arrive here, and must not be lost).
      return (await this.markDirty(key, lease.nowMs)) ? 'refused' : 'again';
    }
    // A later run answered this requeue, or asked for one of its own in its place.
    if (lease.awaits !== undefined && old.awaits !== lease.awaits) return 'refused';
    return !lease.holdsQueuedMarker && this.pending(old, lease.nowMs) ? 'refused' : 'again';
  }

  /**
   * Ends the run holding `token`. With nothing owed the item goes (one delete); otherwise one
   * update keeps what is owed: a pending message, a rerun, and the requeue (`awaits`), which an
   * answered run clears, a requeued run names itself, and a failed run leaves as it was.
   */
  async release(key: ObjectKey, token: string, settlement: RunSettlement): Promise<{ rerun: boolean }> {
    if (settlement !== 'requeued' && (await this.deleteIfNothingOwed(key, token, settlement))) return { rerun: false };
    try {
      const result = await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: itemKey(key),
          UpdateExpression: RELEASE_UPDATES[settlement],
          ConditionExpression: '#lt = :tok',
          ExpressionAttributeNames: { '#lu': NAMES['#lu'], '#lt': NAMES['#lt'], '#d': NAMES['#d'], ...(settlement === 'failed' ? {} : AWAITS) },
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

  /** Deletes the item when the run holding `token` leaves nothing owed; false when something is. */
  private async deleteIfNothingOwed(key: ObjectKey, token: string, settlement: 'answered' | 'failed'): Promise<boolean> {
    // A failed run answers nothing: a requeue still owed keeps the item.
    const requeueAnswered = settlement === 'answered' ? '' : ' AND attribute_not_exists(#aw)';
    try {
      await this.client.send(
        new DeleteItemCommand({
          TableName: this.tableName,
          Key: itemKey(key),
          ConditionExpression: `#lt = :tok AND ${NOT_QUEUED} AND (attribute_not_exists(#d) OR #d = :f)${requeueAnswered}`,
          ExpressionAttributeNames: { '#lt': NAMES['#lt'], '#q': NAMES['#q'], '#d': NAMES['#d'], ...(settlement === 'answered' ? {} : AWAITS) },
          ExpressionAttributeValues: { ':tok': { S: token }, ':f': { BOOL: false } },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
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
    awaits: item?.awaits?.S,
  };
}

function leaseLive(state: WorkState, nowMs: number): boolean {
  return state.leaseUntil !== undefined && state.leaseUntil >= nowMs;
}
