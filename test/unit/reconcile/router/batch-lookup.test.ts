import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { batchLookup } from '../../../../functions/reconcile/router/batch-lookup.js';
import { processStreamBatch } from '../../../../functions/reconcile/router/process-stream-batch.js';
import type { ReferrerLookup } from '../../../../functions/reconcile/router/route-change.js';
import { objectToItem } from '../../../../shared/adapters/aws/dynamodb/item-codec.js';
import { objectChangeFromStreamRecord } from '../../../../shared/adapters/aws/dynamodb/stream-record.js';
import { toLambdaImage } from '../../../../shared/adapters/aws/dynamodb-streams/lambda-image.js';
import type { GroupKind, ObjectKey, StoredObject } from '../../../../shared/contracts/object.js';
import type { ReconcileRequest, WorkQueue } from '../../../../shared/ports/work-queue.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { CountingLookup } from '../../../support/router-lookup.js';

const CORE = 'cluster.x-k8s.io';
const MACHINE: GroupKind = { group: CORE, kind: 'Machine' };
const HEALTH_CHECK: GroupKind = { group: CORE, kind: 'MachineHealthCheck' };

const clusterKey: ObjectKey = { ...{ group: CORE, kind: 'Cluster' }, namespace: 'ns', name: 'c1' };

describe('batchLookup', () => {
  it.each<[string, (lookup: ReferrerLookup) => Array<Promise<unknown>>, number]>([
    ['the same get, twice', (l) => [l.get(clusterKey), l.get(clusterKey)], 1],
    ['gets of two objects', (l) => [l.get(clusterKey), l.get({ ...clusterKey, name: 'c2' })], 2],
    ['the same cluster members, three times at once', (l) => [1, 2, 3].map(() => l.listByCluster('ns', 'c1', HEALTH_CHECK)), 1],
    ['one cluster, two kinds', (l) => [l.listByCluster('ns', 'c1', HEALTH_CHECK), l.listByCluster('ns', 'c1', MACHINE)], 2],
    ['one kind, two clusters', (l) => [l.listByCluster('ns', 'c1', HEALTH_CHECK), l.listByCluster('ns', 'c2', HEALTH_CHECK)], 2],
    ['every kind of a cluster, and one kind of it', (l) => [l.listByCluster('ns', 'c1'), l.listByCluster('ns', 'c1', MACHINE)], 2],
    ['the same list, twice', (l) => [l.list({ ...HEALTH_CHECK, namespace: 'ns' }), l.list({ ...HEALTH_CHECK, namespace: 'ns' })], 1],
    ['lists of two namespaces', (l) => [l.list({ ...HEALTH_CHECK, namespace: 'ns' }), l.list({ ...HEALTH_CHECK, namespace: 'other' })], 2],
  ])('%s: %i store call(s)', async (_name, ask, calls) => {
    const counting = new CountingLookup(new MemoryObjectStore());
    await Promise.all(ask(batchLookup(counting)));
    expect(counting.calls).toHaveLength(calls);
  });

  it('answers as the store does', async () => {
    const store = new MemoryObjectStore();
    const cluster = await store.create({ apiVersion: `${CORE}/v1beta2`, kind: 'Cluster', metadata: { name: 'c1', namespace: 'ns' }, spec: {} });
    const lookup = batchLookup(new CountingLookup(store));
    expect(await lookup.get(clusterKey)).toEqual(cluster);
    expect(await lookup.get({ ...clusterKey, name: 'missing' })).toBeUndefined();
  });

  it('asks again after a lookup failed, so a retried record does not inherit the failure', async () => {
    const counting = new CountingLookup(new MemoryObjectStore());
    const lookup = batchLookup(counting);
    counting.failNext = true;
    await expect(lookup.listByCluster('ns', 'c1', HEALTH_CHECK)).rejects.toThrow('throttled');
    await expect(lookup.listByCluster('ns', 'c1', HEALTH_CHECK)).resolves.toEqual([]);
    expect(counting.calls).toHaveLength(2);
  });
});

class RecordingQueue implements WorkQueue {
  readonly requests: ReconcileRequest[] = [];
  async enqueue(request: ReconcileRequest): Promise<void> {
    this.requests.push(request);
  }
  async enqueueMany(requests: readonly ReconcileRequest[]): Promise<void> {
    this.requests.push(...requests);
  }
}

function machine(name: string, resourceVersion: string, phase: string): StoredObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind: 'Machine',
    metadata: { name, namespace: 'ns', uid: `${name}-uid`, resourceVersion, generation: 1, creationTimestamp: '2026-01-01T00:00:00Z', labels: { [`${CORE}/cluster-name`]: 'c1' } },
    spec: { clusterName: 'c1', bootstrap: { dataSecretName: `${name}-data` } },
    status: {
      phase,
      conditions: [
        { type: 'Ready', status: phase === 'Running' ? 'True' : 'False', reason: 'R', lastTransitionTime: '2026-01-01T00:00:00Z' },
        // Evaluated by a health check already: its changes look the health checks up (ADR 0145).
        { type: 'HealthCheckSucceeded', status: 'True', reason: 'Succeeded', lastTransitionTime: '2026-01-01T00:00:00Z' },
      ],
    },
  };
}

function modify(before: StoredObject, after: StoredObject, sequence: string): DynamoDBRecord {
  const oldImage = toLambdaImage(objectToItem(before));
  const newImage = toLambdaImage(objectToItem(after));
  const keys = { pk: newImage.pk ?? { S: '' }, sk: newImage.sk ?? { S: '' } };
  return { eventName: 'MODIFY', dynamodb: { SequenceNumber: sequence, Keys: keys, OldImage: oldImage, NewImage: newImage } };
}

describe('processStreamBatch: the changes of one batch share their lookups', () => {
  it("three Machines of one cluster becoming Running look for the cluster's health checks once", async () => {
    const registry = new ReconcilerRegistry(builtinProviderRegistry().reconcilers());
    const counting = new CountingLookup(new MemoryObjectStore());
    const records = ['m1', 'm2', 'm3'].map((name, i) => modify(machine(name, '1', 'Provisioned'), machine(name, '2', 'Running'), String(i + 1)));
    const response = await processStreamBatch({ Records: records }, { registry, lookup: counting, queue: new RecordingQueue(), decode: objectChangeFromStreamRecord });
    expect(response.batchItemFailures).toEqual([]);
    expect(counting.calls.filter((c) => c === 'listByCluster ns/c1 MachineHealthCheck')).toHaveLength(1);
    expect(counting.calls).toEqual([...new Set(counting.calls)]);
  });

  it('a new batch asks again', async () => {
    const registry = new ReconcilerRegistry(builtinProviderRegistry().reconcilers());
    const counting = new CountingLookup(new MemoryObjectStore());
    const deps = { registry, lookup: counting, queue: new RecordingQueue(), decode: objectChangeFromStreamRecord };
    await processStreamBatch({ Records: [modify(machine('m1', '1', 'Provisioned'), machine('m1', '2', 'Running'), '1')] }, deps);
    await processStreamBatch({ Records: [modify(machine('m1', '2', 'Running'), machine('m1', '3', 'Deleting'), '2')] }, deps);
    expect(counting.calls.filter((c) => c === 'listByCluster ns/c1 MachineHealthCheck')).toHaveLength(2);
  });
});
