import { describe, expect, it } from 'vitest';
import type { StoredObject } from '../../../shared/contracts/object.js';
import { IndexedObjects } from '../../../shared/store/memory-indexes.js';

function obj(name: string, meta: { cluster?: string; owners?: string[]; namespace?: string } = {}): StoredObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: {
      name,
      namespace: meta.namespace ?? 'ns',
      uid: `u-${name}`,
      resourceVersion: '1',
      generation: 1,
      creationTimestamp: '2026-01-01T00:00:00Z',
      ...(meta.cluster ? { labels: { 'cluster.x-k8s.io/cluster-name': meta.cluster } } : {}),
      ...(meta.owners ? { ownerReferences: meta.owners.map((uid) => ({ apiVersion: 'v1', kind: 'X', name: uid, uid })) } : {}),
    },
  };
}

const names = (objects: StoredObject[]) => objects.map((o) => o.metadata.name).sort();

describe('IndexedObjects', () => {
  it.each<[string, StoredObject[], { kind: string[]; c1: string[]; c2: string[]; o1: string[] }]>([
    ['indexes by kind, cluster and owner', [obj('a', { cluster: 'c1', owners: ['o1'] }), obj('b', { cluster: 'c2' })], { kind: ['a', 'b'], c1: ['a'], c2: ['b'], o1: ['a'] }],
    ['a re-labelled object moves bucket', [obj('a', { cluster: 'c1' }), obj('a', { cluster: 'c2' })], { kind: ['a'], c1: [], c2: ['a'], o1: [] }],
    ['a dropped owner leaves the owner bucket', [obj('a', { owners: ['o1'] }), obj('a')], { kind: ['a'], c1: [], c2: [], o1: [] }],
    ['two owner refs to one uid index once', [obj('a', { owners: ['o1', 'o1'] })], { kind: ['a'], c1: [], c2: [], o1: ['a'] }],
  ])('%s', (_name, writes, expected) => {
    const index = new IndexedObjects();
    for (const w of writes) index.set(`ns/${w.metadata.name}`, w);
    expect(names(index.ofKind('cluster.x-k8s.io', 'Machine'))).toEqual(expected.kind);
    expect(names(index.inCluster('ns', 'c1'))).toEqual(expected.c1);
    expect(names(index.inCluster('ns', 'c2'))).toEqual(expected.c2);
    expect(names(index.ownedBy('o1'))).toEqual(expected.o1);
  });

  it.each<[string, StoredObject[], { ns: string[]; other: string[] }]>([
    ['indexes by kind within a namespace', [obj('a'), obj('b', { namespace: 'other' }), obj('c')], { ns: ['a', 'c'], other: ['b'] }],
    ['an object recreated in another namespace is found there only', [obj('a'), obj('a', { namespace: 'other' })], { ns: [], other: ['a'] }],
  ])('%s', (_name, writes, expected) => {
    const index = new IndexedObjects();
    for (const w of writes) index.set(w.metadata.name, w);
    expect(names(index.ofKindIn('cluster.x-k8s.io', 'Machine', 'ns'))).toEqual(expected.ns);
    expect(names(index.ofKindIn('cluster.x-k8s.io', 'Machine', 'other'))).toEqual(expected.other);
    expect(index.ofKindIn('cluster.x-k8s.io', 'MachineSet', 'ns')).toEqual([]);
  });

  it('a deleted object leaves every index', () => {
    const index = new IndexedObjects();
    index.set('ns/a', obj('a', { cluster: 'c1', owners: ['o1'] }));
    index.delete('ns/a');
    expect(index.has('ns/a')).toBe(false);
    expect(index.ofKind('cluster.x-k8s.io', 'Machine')).toEqual([]);
    expect(index.ofKindIn('cluster.x-k8s.io', 'Machine', 'ns')).toEqual([]);
    expect(index.inCluster('ns', 'c1')).toEqual([]);
    expect(index.ownedBy('o1')).toEqual([]);
  });
});
