/** Creates the objects table with its indexes (idempotent) and waits until it is ACTIVE. */

import {
  type AttributeDefinition,
  CreateTableCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { TABLE_INDEXES, TABLE_KEYS } from './table-design.js';

export interface CreateObjectTableOptions {
  /** Enable a NEW_AND_OLD_IMAGES stream (DynamoDB and DynamoDB Local; dynalite drops it). */
  stream?: boolean;
  /** Seconds to wait for ACTIVE. Default 60. */
  maxWaitSeconds?: number;
}

export async function createObjectTable(
  client: DynamoDBClient,
  tableName: string,
  options: CreateObjectTableOptions = {},
): Promise<void> {
  const indexes = Object.values(TABLE_INDEXES);
  const names: string[] = [TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, ...indexes.flatMap((index) => [index.partitionKey, index.sortKey])];
  const attributes: AttributeDefinition[] = names.map((AttributeName) => ({ AttributeName, AttributeType: 'S' }));
  const globalIndexes: GlobalSecondaryIndex[] = indexes.map((index) => ({
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' },
      { AttributeName: index.sortKey, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: 'ALL' },
  }));
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: attributes,
        KeySchema: [
          { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: globalIndexes,
        StreamSpecification: options.stream ? { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } : undefined,
      }),
    );
  } catch (error) {
    if (!(error instanceof Error && error.name === 'ResourceInUseException')) throw error;
  }
  await waitUntilTableExists(
    { client, maxWaitTime: options.maxWaitSeconds ?? 60, minDelay: 1, maxDelay: 2 },
    { TableName: tableName },
  );
}
