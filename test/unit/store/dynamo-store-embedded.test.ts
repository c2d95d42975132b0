import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { createObjectTable } from '../../../shared/adapters/aws/dynamodb/create-object-table.js';
import { DynamoObjectStore } from '../../../shared/adapters/aws/dynamodb/dynamo-object-store.js';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../../local/embedded-dynamodb.js';
import { describeObjectStoreConformance } from '../../conformance/object-store.conformance.js';

/** The adapter as `capless up` runs it: dynalite in its own thread, requests crossing as messages (ADR 0116). */
let dynamo: EmbeddedDynamoDb;
let client: DynamoDBClient;
let tables = 0;

beforeAll(async () => {
  dynamo = await startEmbeddedDynamoDb('', { persist: false });
  client = new DynamoDBClient({ ...dynamo.clientConfig(), region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
});

afterAll(async () => {
  client.destroy();
  await dynamo.close();
});

describeObjectStoreConformance("DynamoObjectStore on the embedded store's thread transport", async () => {
  const tableName = `objects-${++tables}`;
  await createObjectTable(client, tableName);
  return { store: new DynamoObjectStore({ client, tableName, tapChanges: true }), cleanup: async () => {} };
});
