import { CreateTableCommand, DynamoDBClient, PutItemCommand, QueryCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedDynamoDb } from '../../../local/embedded-dynamodb.js';
import { tcpListenPorts } from '../../support/tcp-listeners.js';

const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
const dirs: string[] = [];

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('startEmbeddedDynamoDb', () => {
  it('(the probe) sees a TCP listener of this process', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      expect(await tcpListenPorts()).toContain((server.address() as AddressInfo).port);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('opens no TCP port: it listens on a Unix socket in a 0700 directory, removed on close', async () => {
    const portsBefore = await tcpListenPorts();
    const dynamo = await startEmbeddedDynamoDb('', { persist: false });
    try {
      expect(Object.keys(dynamo).sort()).toEqual(['clientConfig', 'close', 'heapUsedBytes', 'socketClientConfig', 'socketPath']);
      expect(await tcpListenPorts()).toEqual(portsBefore);
      expect((await stat(dynamo.socketPath)).isSocket()).toBe(true);
      expect((await stat(dirname(dynamo.socketPath))).mode & 0o777).toBe(0o700);
      expect(Buffer.byteLength(dynamo.socketPath)).toBeLessThanOrEqual(103);
      expect(new URL(dynamo.clientConfig().endpoint).hostname).toBe('localhost');
    } finally {
      await dynamo.close();
    }
    await expect(stat(dirname(dynamo.socketPath))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.each([
    ['through the socket; each client has its own connections', 'socketClientConfig'],
    ["as messages to the store's thread (ADR 0116)", 'clientConfig'],
  ] as const)('serves a DynamoDBClient %s: create table, put, query', async (_how, config) => {
    const dynamo = await startEmbeddedDynamoDb('', { persist: false });
    const first = new DynamoDBClient({ ...dynamo[config](), region: 'us-east-1', credentials });
    const second = new DynamoDBClient({ ...dynamo[config](), region: 'us-east-1', credentials });
    try {
      await first.send(
        new CreateTableCommand({
          TableName: 'things',
          AttributeDefinitions: [
            { AttributeName: 'pk', AttributeType: 'S' },
            { AttributeName: 'sk', AttributeType: 'S' },
          ],
          KeySchema: [
            { AttributeName: 'pk', KeyType: 'HASH' },
            { AttributeName: 'sk', KeyType: 'RANGE' },
          ],
          BillingMode: 'PAY_PER_REQUEST',
        }),
      );
      // As on DynamoDB, a new table takes writes once ACTIVE (dynalite flips it on its next tick).
      await waitUntilTableExists({ client: first, maxWaitTime: 10, minDelay: 0.1, maxDelay: 0.2 }, { TableName: 'things' });
      for (const sk of ['a', 'b', 'c']) {
        await first.send(new PutItemCommand({ TableName: 'things', Item: { pk: { S: 'p' }, sk: { S: sk }, v: { S: `value-${sk}` } } }));
      }
      first.destroy();
      const page = await second.send(
        new QueryCommand({
          TableName: 'things',
          KeyConditionExpression: 'pk = :p',
          ExpressionAttributeValues: { ':p': { S: 'p' } },
          Limit: 2,
        }),
      );
      expect(page.Items?.map((item) => item.v?.S)).toEqual(['value-a', 'value-b']);
      expect(page.LastEvaluatedKey).toEqual({ pk: { S: 'p' }, sk: { S: 'b' } });
      // DynamoDB's errors come back as the SDK's typed exceptions either way.
      await expect(second.send(new PutItemCommand({ TableName: 'no-such-table', Item: { pk: { S: 'p' }, sk: { S: 'x' } } }))).rejects.toMatchObject({
        name: 'ResourceNotFoundException',
      });
    } finally {
      first.destroy();
      second.destroy();
      await dynamo.close();
    }
  });

  it('narrows an existing store directory to 0700 and its files to 0600 before opening it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'capless-store-'));
    dirs.push(dataDir);
    const storeDir = join(dataDir, 'dynamodb');
    await mkdir(storeDir, { mode: 0o755 });
    await writeFile(join(storeDir, 'stray.txt'), 'left by an older capless\n', { mode: 0o644 });
    const dynamo = await startEmbeddedDynamoDb(dataDir);
    try {
      expect((await stat(storeDir)).mode & 0o777).toBe(0o700);
      expect((await stat(join(storeDir, 'stray.txt'))).mode & 0o777).toBe(0o600);
    } finally {
      await dynamo.close();
    }
  });
});
