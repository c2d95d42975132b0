/**
 * Any interleaving of allocations (racing in batches, as many function instances would) and
 * releases keeps every held address unique and inside the pool; sequential allocations always
 * take the lowest free address; an allocation fails only when the pool is full. On the memory
 * store and on the DynamoDB adapter (dynalite), through the ObjectStore port.
 */

import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reservationsOfPool, reservedAddress, reserveLowestFree } from '../../../functions/reconcile/ipam/reservations.js';
import { createObjectTable } from '../../../shared/adapters/aws/dynamodb/create-object-table.js';
import { DynamoObjectStore } from '../../../shared/adapters/aws/dynamodb/dynamo-object-store.js';
import { keyOf, type StoredObject } from '../../../shared/contracts/object.js';
import { contains, lowestFree, size } from '../../../shared/ipam/ip-ranges.js';
import { analysePool, type PoolSpec } from '../../../shared/ipam/pool-spec.js';
import type { ObjectStore } from '../../../shared/ports/object-store.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';

const POOLS: readonly PoolSpec[] = [
  { addresses: ['10.0.0.0/28'], prefix: 28, gateway: '10.0.0.1', excludedAddresses: ['10.0.0.5', '10.0.0.9-10.0.0.10'] },
  { addresses: ['192.168.1.10-192.168.1.14', '192.168.1.40', '192.168.1.200/30'], prefix: 24 },
  { addresses: ['fd00::10-fd00::1a'], prefix: 64, gateway: 'fd00::1', excludedAddresses: ['fd00::12'] },
];

type Op = { kind: 'allocate'; count: number } | { kind: 'release'; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 6 }).map((count) => ({ kind: 'allocate' as const, count })) },
  { weight: 1, arbitrary: fc.nat().map((pick) => ({ kind: 'release' as const, pick })) },
);

let runs = 0;

async function createPool(store: ObjectStore, spec: PoolSpec): Promise<StoredObject> {
  return store.create({
    apiVersion: 'ipam.cluster.x-k8s.io/v1alpha2',
    kind: 'InClusterIPPool',
    metadata: { name: `pool-${++runs}`, namespace: 'prop' },
    spec: { ...spec },
  });
}

async function createClaim(store: ObjectStore, pool: StoredObject, n: number): Promise<StoredObject> {
  return store.create({
    apiVersion: 'ipam.cluster.x-k8s.io/v1beta2',
    kind: 'IPAddressClaim',
    metadata: { name: `${pool.metadata.name}-claim-${n}`, namespace: 'prop' },
    spec: { poolRef: { apiGroup: 'ipam.cluster.x-k8s.io', kind: 'InClusterIPPool', name: pool.metadata.name } },
  });
}

async function checkInterleaving(store: ObjectStore, poolIndex: number, ops: readonly Op[]): Promise<void> {
  const spec = POOLS[poolIndex % POOLS.length] ?? POOLS[0];
  if (!spec) throw new Error('no pool');
  const analysis = analysePool(spec);
  if (!analysis.ok) throw new Error('bad pool fixture');
  const total = Number(size(analysis.set));
  const pool = await createPool(store, spec);
  const holders: StoredObject[] = [];
  let claims = 0;

  for (const op of ops) {
    if (op.kind === 'release') {
      const victim = holders.splice(op.pick % Math.max(1, holders.length), 1)[0];
      if (victim) await store.delete(keyOf(victim));
      continue;
    }
    const before = await reservationsOfPool(store, pool);
    const expectedLowest = lowestFree(analysis.set, new Set(before.flatMap((r) => reservedAddress(r)?.value ?? [])));
    const batch = await Promise.all(Array.from({ length: op.count }, () => createClaim(store, pool, ++claims)));
    const outcomes = await Promise.all(batch.map(async (claim) => ({ claim, outcome: await reserveLowestFree(store, pool, analysis.set, claim, before) })));
    const won = outcomes.filter((o) => o.outcome.reserved);
    for (const o of won) holders.push(o.claim);
    expect(won.length).toBe(Math.min(op.count, total - before.length));
    if (op.count === 1 && won[0]?.outcome.reserved) expect(won[0].outcome.address).toEqual(expectedLowest);

    const held = (await reservationsOfPool(store, pool)).map((r) => reservedAddress(r));
    const values = held.map((ip) => ip?.value);
    expect(new Set(values).size).toBe(held.length);
    expect(held.every((ip) => ip !== undefined && contains(analysis.set, ip))).toBe(true);
    expect(held.length).toBe(holders.length);
  }
}

function interleavingProperty(store: () => ObjectStore, numRuns: number) {
  return fc.assert(
    fc.asyncProperty(fc.nat({ max: POOLS.length - 1 }), fc.array(opArb, { minLength: 1, maxLength: 14 }), (poolIndex, ops) =>
      checkInterleaving(store(), poolIndex, ops),
    ),
    { numRuns },
  );
}

describe('address allocation (property)', () => {
  it('on the memory store', async () => {
    const memory = new MemoryObjectStore();
    await interleavingProperty(() => memory, 150);
  });

  describe('on DynamoDB (dynalite)', () => {
    const server = dynalite({ createTableMs: 0, deleteTableMs: 0 });
    let client: DynamoDBClient;
    let dynamo: DynamoObjectStore;

    beforeAll(async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      client = new DynamoDBClient({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
      await createObjectTable(client, 'ipam-allocation');
      dynamo = new DynamoObjectStore({ client, tableName: 'ipam-allocation' });
    });

    afterAll(async () => {
      client.destroy();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    });

    it('keeps addresses unique under racing batches', async () => {
      await interleavingProperty(() => dynamo, 12);
    }, 120_000);
  });
});
