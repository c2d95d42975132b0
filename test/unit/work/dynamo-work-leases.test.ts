import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { startEmbeddedDynamoDb, type EmbeddedDynamoDb } from '../../../local/embedded-dynamodb.js';
import { describeDynamoWorkLeases } from '../../conformance/dynamo-work-leases.conformance.js';

let dynamo: EmbeddedDynamoDb;
let client: DynamoDBClient | undefined;

beforeAll(async () => {
  dynamo = await startEmbeddedDynamoDb('', { persist: false });
  client = new DynamoDBClient({
    ...dynamo.clientConfig(),
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
});

afterAll(async () => {
  client?.destroy();
  await dynamo.close();
});

describeDynamoWorkLeases('dynalite', () => {
  if (!client) throw new Error('the embedded DynamoDB has not started');
  return client;
});
