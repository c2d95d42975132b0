import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createObjectTable, DynamoObjectStore } from '../../../shared/adapters/aws/dynamodb/index.js';

/** The production DynamoDB adapter on a table at `endpoint` (created if missing), without a change tap. */
export async function dynamoStoreAt(endpoint: string, tableName: string): Promise<{ store: DynamoObjectStore; close(): void }> {
  const client = new DynamoDBClient({
    endpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'capless', secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? 'capless' },
  });
  await createObjectTable(client, tableName);
  return { store: new DynamoObjectStore({ client, tableName }), close: () => client.destroy() };
}
