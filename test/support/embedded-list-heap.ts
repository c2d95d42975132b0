/**
 * Heap growth of the embedded store over many lists, measured in a process of its own so the test
 * runner's heap does not drown it (ADR 0042). Run as
 *
 *   node --expose-gc --import tsx test/support/embedded-list-heap.ts [lists] [objects]
 *
 * It starts the embedded dynalite persisted under a temporary data dir (LevelDB, as `capless up`
 * does), creates `objects` Machines of about 2 KB, lists them `lists` times in pages of 5 (by
 * namespace on the table, across namespaces on the byKind index, as `DynamoObjectStore.list`
 * does) and prints one JSON line: heap in use in MB after a full GC before and after the lists,
 * this thread's and the store thread's together (dynalite runs in a thread of its own, ADR 0116).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.js';
import { createObjectTable, DEFAULT_TABLE_NAME, DynamoObjectStore } from '../../shared/adapters/aws/dynamodb/index.js';

export interface ListHeapReport {
  lists: number;
  objects: number;
  beforeMb: number;
  afterMb: number;
  growthMb: number;
  seconds: number;
}

const WARM_UP_LISTS = 200;
const PAGE = 5;

async function collectedHeapMb(dynamo: EmbeddedDynamoDb): Promise<number> {
  const gc: unknown = Reflect.get(globalThis, 'gc');
  if (typeof gc !== 'function') throw new Error('run with node --expose-gc');
  gc();
  gc();
  return (getHeapStatistics().used_heap_size + (await dynamo.heapUsedBytes())) / 1e6;
}

async function measure(lists: number, objects: number): Promise<ListHeapReport> {
  const dataDir = await mkdtemp(join(tmpdir(), 'capless-heap-'));
  const dynamo = await startEmbeddedDynamoDb(dataDir);
  const client = new DynamoDBClient({ ...dynamo.clientConfig(), region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  try {
    await createObjectTable(client, DEFAULT_TABLE_NAME);
    const store = new DynamoObjectStore({ client, tableName: DEFAULT_TABLE_NAME });
    for (let i = 0; i < objects; i++) {
      await store.create({
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'Machine',
        metadata: { name: `m-${i}`, namespace: 'default', annotations: { padding: 'x'.repeat(2000) } },
        spec: { clusterName: 'heap' },
      });
    }
    const list = (i: number) =>
      store.list({ group: 'cluster.x-k8s.io', kind: 'Machine', limit: PAGE, ...(i % 2 === 0 ? { namespace: 'default' } : {}) });
    for (let i = 0; i < WARM_UP_LISTS; i++) await list(i);
    const beforeMb = await collectedHeapMb(dynamo);
    const started = performance.now();
    for (let i = 0; i < lists; i++) {
      const page = await list(i);
      if (page.items.length !== Math.min(PAGE, objects)) throw new Error(`list ${i} returned ${page.items.length} items`);
    }
    const seconds = (performance.now() - started) / 1000;
    const afterMb = await collectedHeapMb(dynamo);
    return { lists, objects, beforeMb, afterMb, growthMb: afterMb - beforeMb, seconds };
  } finally {
    client.destroy();
    await dynamo.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const [lists = '3000', objects = '100'] = process.argv.slice(2);
process.stdout.write(`${JSON.stringify(await measure(Number(lists), Number(objects)))}\n`);
