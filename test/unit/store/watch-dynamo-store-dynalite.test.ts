import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { afterAll, beforeAll } from 'vitest';
import { createObjectTable } from '../../../shared/adapters/aws/dynamodb/create-object-table.js';
import { DynamoObjectStore } from '../../../shared/adapters/aws/dynamodb/dynamo-object-store.js';
import { describeWatchConformance } from '../../conformance/watch.conformance.js';

const server = dynalite({ createTableMs: 0, deleteTableMs: 0 });
let client: DynamoDBClient;
let tables = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new DynamoDBClient({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
});

afterAll(async () => {
  client.destroy();
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

describeWatchConformance('DynamoObjectStore on dynalite', async () => {
  const tableName = `watch-${++tables}`;
  await createObjectTable(client, tableName);
  return { store: new DynamoObjectStore({ client, tableName, tapChanges: true }), cleanup: async () => {} };
});
