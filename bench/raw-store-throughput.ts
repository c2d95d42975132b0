import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedDynamoDb } from '../local/embedded-dynamodb.js';
import { openFileObjectStore } from '../local/file-object-store.js';
import type { ObjectStore } from '../shared/ports/object-store.js';
import { MemoryObjectStore } from '../shared/store/memory-store.js';
import type { BenchStoreKind } from './args.js';
import { dynamoStoreAt } from './adapters/aws/dynamo-store-at.js';
import { forEachBounded } from './bounded.js';

export interface RawStoreThroughput {
  writes: number;
  seconds: number;
  writesPerSecond: number;
}

/**
 * The store's own write limit with no control plane: `objects` Machine-sized objects created and
 * then given a status, `concurrency` writes in flight (as many as the control plane's
 * reconciles), on a fresh store of the same kind the benchmark uses.
 */
export async function measureRawStoreThroughput(
  kind: BenchStoreKind,
  options: { objects: number; concurrency: number; endpoint?: string },
): Promise<RawStoreThroughput> {
  const backend = await rawStore(kind, options.endpoint);
  try {
    const names = Array.from({ length: options.objects }, (_, i) => `m-${i}`);
    const namespace = `raw-${Date.now().toString(36)}`;
    const started = performance.now();
    await forEachBounded(names, options.concurrency, async (name) => {
      const created = await backend.store.create(machineLike(namespace, name));
      await backend.store.updateStatus({ ...created, status: { phase: 'Running', bootstrapReady: true, infrastructureReady: true } });
    });
    const seconds = (performance.now() - started) / 1000;
    const writes = names.length * 2;
    return { writes, seconds, writesPerSecond: writes / seconds };
  } finally {
    await backend.close();
  }
}

async function rawStore(kind: BenchStoreKind, endpoint: string | undefined): Promise<{ store: ObjectStore; close(): Promise<void> }> {
  if (kind === 'memory') return { store: new MemoryObjectStore(), close: async () => {} };
  if (kind === 'file') {
    const dir = await mkdtemp(join(tmpdir(), 'capless-raw-'));
    const opened = openFileObjectStore(dir);
    return {
      store: opened.store,
      async close() {
        opened.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  if (endpoint) {
    const table = await dynamoStoreAt(endpoint, `capless-raw-${Date.now().toString(36)}`);
    return { store: table.store, close: async () => table.close() };
  }
  const dir = await mkdtemp(join(tmpdir(), 'capless-raw-'));
  const dynamo = await startEmbeddedDynamoDb(dir, { persist: false });
  const table = await dynamoStoreAt(dynamo.clientConfig(), 'capless-raw');
  return {
    store: table.store,
    async close() {
      table.close();
      await dynamo.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function machineLike(namespace: string, name: string) {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: { name, namespace, labels: { 'cluster.x-k8s.io/cluster-name': 'raw' } },
    spec: {
      clusterName: 'raw',
      version: 'v1.32.0',
      bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfig', name } },
      infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachine', name },
    },
  };
}
