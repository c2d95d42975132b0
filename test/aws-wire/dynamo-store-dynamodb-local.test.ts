import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, inject } from 'vitest';
import { createObjectTable } from '../../shared/adapters/aws/dynamodb/create-object-table.js';
import { DynamoObjectStore } from '../../shared/adapters/aws/dynamodb/dynamo-object-store.js';
import { describeObjectStoreConformance } from '../conformance/object-store.conformance.js';

const client = new DynamoDBClient({
  endpoint: inject('dynamodbEndpoint'),
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
let tables = 0;

afterAll(() => client.destroy());

describeObjectStoreConformance('DynamoObjectStore on DynamoDB Local', async () => {
  const tableName = `objects-${Date.now()}-${++tables}`;
  await createObjectTable(client, tableName, { stream: true });
  return { store: new DynamoObjectStore({ client, tableName, tapChanges: true }), cleanup: async () => {} };
});
