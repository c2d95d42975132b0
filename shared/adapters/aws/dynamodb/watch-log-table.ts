/**
 * The watch log table (ADR 0080): partition `kind` (`group/Kind`), sort key `rv` (the record's
 * resourceVersion, zero-padded so string order is numeric order), the record as JSON in `record`,
 * and `expiresAt` for DynamoDB's TTL. A record is keyed by its resourceVersion, so writing it again
 * overwrites it: appends are idempotent.
 */

import { BatchWriteItemCommand, CreateTableCommand, DynamoDBClient, type WriteRequest, QueryCommand, UpdateTimeToLiveCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { isRecord } from '../../../contracts/json.js';
import type { GroupKind } from '../../../contracts/object.js';
import type { WatchLog } from '../../../ports/watch-log.js';
import { parseJournalRecord } from '../../../watch/change-journal.js';
import { kindKeyOf, type WatchLogRecord, watchLogKindKey } from '../../../watch/watch-log-record.js';

export const WATCH_LOG_KEYS = { partitionKey: 'kind', sortKey: 'rv', ttl: 'expiresAt' } as const;
/** How long records are kept (the TTL; the watch function treats older positions as gone). */
export const WATCH_LOG_RETENTION_SECONDS = 3600;
const BATCH_SIZE = 25;

export interface DynamoWatchLogOptions {
  client: DynamoDBClient;
  tableName: string;
  now?: () => Date;
}

export class DynamoWatchLog implements WatchLog {
  constructor(private readonly options: DynamoWatchLogOptions) {}

  async append(records: readonly WatchLogRecord[]): Promise<void> {
    const expiresAt = String(Math.floor((this.options.now?.() ?? new Date()).getTime() / 1000) + WATCH_LOG_RETENTION_SECONDS);
    for (let start = 0; start < records.length; start += BATCH_SIZE) {
      let pending: WriteRequest[] = records.slice(start, start + BATCH_SIZE).map((record) => ({
        PutRequest: {
          Item: {
            [WATCH_LOG_KEYS.partitionKey]: { S: kindKeyOf(record.object) },
            [WATCH_LOG_KEYS.sortKey]: { S: sortKey(record.object.metadata.resourceVersion) },
            record: { S: JSON.stringify(record) },
            [WATCH_LOG_KEYS.ttl]: { N: expiresAt },
          },
        },
      }));
      while (pending.length > 0) {
        const result = await this.options.client.send(new BatchWriteItemCommand({ RequestItems: { [this.options.tableName]: pending } }));
        pending = result.UnprocessedItems?.[this.options.tableName] ?? [];
      }
    }
  }

  async since(kind: GroupKind, after: string, limit: number): Promise<WatchLogRecord[]> {
    const result = await this.options.client.send(
      new QueryCommand({
        TableName: this.options.tableName,
        KeyConditionExpression: '#kind = :kind AND #rv > :after',
        ExpressionAttributeNames: { '#kind': WATCH_LOG_KEYS.partitionKey, '#rv': WATCH_LOG_KEYS.sortKey },
        ExpressionAttributeValues: { ':kind': { S: watchLogKindKey(kind) }, ':after': { S: sortKey(after) } },
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return (result.Items ?? []).flatMap((item) => {
      const record = parseRecord(item.record?.S);
      return record ? [record] : [];
    });
  }
}

/** Creates the watch log table with its TTL (idempotent; tests and DynamoDB Local). */
export async function createWatchLogTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: WATCH_LOG_KEYS.partitionKey, AttributeType: 'S' },
          { AttributeName: WATCH_LOG_KEYS.sortKey, AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: WATCH_LOG_KEYS.partitionKey, KeyType: 'HASH' },
          { AttributeName: WATCH_LOG_KEYS.sortKey, KeyType: 'RANGE' },
        ],
      }),
    );
  } catch (error) {
    if (!(error instanceof Error && error.name === 'ResourceInUseException')) throw error;
  }
  await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1, maxDelay: 2 }, { TableName: tableName });
  try {
    await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { Enabled: true, AttributeName: WATCH_LOG_KEYS.ttl } }));
  } catch {
    // dynalite has no TTL; DynamoDB Local and DynamoDB do.
  }
}

function sortKey(resourceVersion: string): string {
  return resourceVersion.padStart(20, '0');
}

function parseRecord(text: string | undefined): WatchLogRecord | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  // A record's shape is a journal record's without the sequence number.
  const parsed = parseJournalRecord({ ...value, seq: 1 });
  if (!parsed) return undefined;
  const labels = value.previousLabels;
  return { type: parsed.type, object: parsed.object, ...(isStringMap(labels) ? { previousLabels: labels } : {}) };
}

function isStringMap(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((entry) => typeof entry === 'string');
}

/** Names the watch log table in a function's environment. */
export const WATCH_LOG_TABLE_ENV = 'WATCH_LOG_TABLE_NAME';

/**
 * The watch log a Lambda function uses: the table WATCH_LOG_TABLE_NAME names, or undefined when
 * the stack serves no watches. AWS_ENDPOINT_URL_DYNAMODB or AWS_ENDPOINT_URL point it elsewhere.
 */
export function watchLogFromEnv(env: NodeJS.ProcessEnv = process.env): DynamoWatchLog | undefined {
  const tableName = env[WATCH_LOG_TABLE_ENV];
  if (!tableName) return undefined;
  const endpoint = env.AWS_ENDPOINT_URL_DYNAMODB ?? env.AWS_ENDPOINT_URL;
  return new DynamoWatchLog({ client: new DynamoDBClient(endpoint ? { endpoint } : {}), tableName });
}
