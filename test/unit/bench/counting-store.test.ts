import { describe, expect, it } from 'vitest';
import { CountingStore } from '../../../bench/counting-store.js';
import type { GroupKind } from '../../../shared/contracts/object.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';

/** The benchmark counts store reads as the DynamoDB adapter makes them: a cluster list is one query per group of its kinds. */
const MACHINE: GroupKind = { group: 'cluster.x-k8s.io', kind: 'Machine' };
const MACHINE_SET: GroupKind = { group: 'cluster.x-k8s.io', kind: 'MachineSet' };
const CONFIG: GroupKind = { group: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfig' };

describe('CountingStore reads of a cluster list', () => {
  it.each<[string, GroupKind | GroupKind[] | undefined, number]>([
    ['every kind', undefined, 1],
    ['one kind', MACHINE, 1],
    ['kinds of one group', [MACHINE, MACHINE_SET], 1],
    ['kinds of two groups', [MACHINE, MACHINE_SET, CONFIG], 2],
  ])('%s: %i', async (_name, kinds, reads) => {
    const store = new CountingStore(new MemoryObjectStore());
    await store.listByCluster('ns', 'c1', kinds);
    expect(store.counts().reads).toBe(reads);
    expect(store.counts().readUnits).toBe(reads);
  });
});
