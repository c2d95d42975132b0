import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { EmbeddedDynamoDbClientConfig } from '../../../local/embedded-dynamodb.js';
import { createObjectTable, DynamoObjectStore } from '../../../shared/adapters/aws/dynamodb/index.js';

/**
 * The production DynamoDB adapter on a table (created if missing), without a change tap: at an
 * endpoint URL, or in the embedded store through the client config it hands out (its Unix socket).
 */
export async function dynamoStoreAt(
  target: string | EmbeddedDynamoDbClientConfig,
  tableName: string,
): Promise<{ store: DynamoObjectStore; close(): void }> {
  const client = new DynamoDBClient({
    ...(typeof target === 'string' ? { endpoint: target } : target),
    region: process.env.AWS_REGION ?? 'us-east-1',
    credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'capless', secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? 'capless' },
  });
  await createObjectTable(client, tableName);
  return { store: new DynamoObjectStore({ client, tableName }), close: () => client.destroy() };
}
