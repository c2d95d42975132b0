import { beforeEach, describe, expect, it } from 'vitest';
import { ReconcileReadCache } from '../../../functions/reconcile/engine/work/read-cache.js';
import { type KubeObject, keyOf, type ObjectKey } from '../../../shared/contracts/object.js';
import { ConflictError } from '../../../shared/errors/index.js';
import type { ObjectStore } from '../../../shared/ports/object-store.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';

const CM = { group: '', kind: 'ConfigMap' };
const SECRET = { group: '', kind: 'Secret' };
const key = (name: string): ObjectKey => ({ ...CM, namespace: 'ns', name });
const configMap = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns', labels: { 'cluster.x-k8s.io/cluster-name': 'c1', ...labels } },
  data: {},
});

/** Counts the calls that reach the store under the cache. */
function counted(inner: ObjectStore) {
  const calls = { reads: 0, writes: 0 };
  const read = <T>(call: () => Promise<T>): Promise<T> => {
    calls.reads++;
    return call();
  };
  const write = <T>(call: () => Promise<T>): Promise<T> => {
    calls.writes++;
    return call();
  };
  const store: ObjectStore = {
    get: (k) => read(() => inner.get(k)),
    list: (q) => read(() => inner.list(q)),
    listByCluster: (n, c, k) => read(() => inner.listByCluster(n, c, k)),
    listByOwner: (u) => read(() => inner.listByOwner(u)),
    create: (o) => write(() => inner.create(o)),
    update: (o) => write(() => inner.update(o)),
    updateStatus: (o) => write(() => inner.updateStatus(o)),
    updateWithStatus: (o) => write(() => inner.updateWithStatus(o)),
    delete: (k, o) => write(() => inner.delete(k, o)),
  };
  return { store, calls };
}

let memory: MemoryObjectStore;
beforeEach(async () => {
  memory = new MemoryObjectStore();
  await memory.create(configMap('a'));
  await memory.create(configMap('b'));
});

describe('the per-reconcile read cache', () => {
  it.each<[string, (c: ReconcileReadCache) => Promise<unknown>, number]>([
    ['the same get twice reads once', async (c) => { await c.get(key('a')); await c.get(key('a')); }, 1],
    ['a missing object is remembered as missing', async (c) => { await c.get(key('zz')); await c.get(key('zz')); }, 1],
    ['objects a list returned are not read again', async (c) => { await c.listByCluster('ns', 'c1', CM); await c.get(key('a')); await c.get(key('b')); }, 1],
    ['the same list twice reads once', async (c) => { await c.list({ ...CM, namespace: 'ns' }); await c.list({ ...CM, namespace: 'ns' }); }, 1],
    ['different lists read each', async (c) => { await c.listByCluster('ns', 'c1', CM); await c.listByCluster('ns', 'c1'); }, 2],
    ['one kind, and that kind with another, read each', async (c) => { await c.listByCluster('ns', 'c1', CM); await c.listByCluster('ns', 'c1', [CM, SECRET]); }, 2],
    ['two lists of different kinds read each', async (c) => { await c.listByCluster('ns', 'c1', [CM, SECRET]); await c.listByCluster('ns', 'c1', [SECRET]); await c.listByCluster('ns', 'c1', [CM]); }, 3],
    ['the same kinds in another order read once', async (c) => { await c.listByCluster('ns', 'c1', [CM, SECRET]); await c.listByCluster('ns', 'c1', [SECRET, CM]); }, 1],
    ['a write makes lists read again', async (c) => { await c.listByCluster('ns', 'c1', CM); await c.create(configMap('c')); await c.listByCluster('ns', 'c1', CM); }, 2],
    ['a written object is known without a read', async (c) => { const b = await c.get(key('b')); if (b) await c.update({ ...b, data: { x: '1' } }); await c.get(key('b')); }, 1],
    ['a deleted object is read again', async (c) => { await c.get(key('a')); await c.delete(key('a')); await c.get(key('a')); }, 2],
  ])('%s', async (_name, steps, reads) => {
    const { store, calls } = counted(memory);
    await steps(new ReconcileReadCache(store));
    expect(calls.reads).toBe(reads);
  });

  it('answers with what was written, and copies: editing an answer changes nothing cached', async () => {
    const cache = new ReconcileReadCache(memory);
    const a = await cache.get(key('a'));
    if (!a) throw new Error('a is missing');
    a.metadata.labels = { edited: 'yes' };
    expect((await cache.get(key('a')))?.metadata.labels?.edited).toBeUndefined();
    const written = await cache.update({ ...a, metadata: { ...a.metadata, labels: { v: '2' } } });
    expect((await cache.get(key('a')))?.metadata.resourceVersion).toBe(written.metadata.resourceVersion);
  });

  it('a conflict forgets the stale version, so a retry reads the store (updateFresh)', async () => {
    const { store, calls } = counted(memory);
    const cache = new ReconcileReadCache(store);
    const stale = await cache.get(key('a'));
    if (!stale) throw new Error('a is missing');
    await memory.update({ ...stale, data: { by: 'someone else' } });
    await expect(cache.update({ ...stale, data: { by: 'me' } })).rejects.toBeInstanceOf(ConflictError);
    const fresh = await cache.get(key('a'));
    expect(fresh?.data).toEqual({ by: 'someone else' });
    expect(calls.reads).toBe(2);
    expect(keyOf(fresh ?? stale)).toEqual(key('a'));
  });
});

describe('what a reconcile read (ADR 0137)', () => {
  let inner: MemoryObjectStore;
  beforeEach(async () => {
    inner = new MemoryObjectStore();
    for (const name of ['a', 'b', 'c']) await inner.create(configMap(name));
  });

  /** name → resourceVersion of what `readVersions` reports, by the uids the store gave. */
  async function readBy(cache: ReconcileReadCache): Promise<Record<string, string>> {
    const names = new Map<string, string>();
    for (const name of ['a', 'b', 'c']) {
      const stored = await inner.get(key(name));
      if (stored) names.set(stored.metadata.uid, name);
    }
    return Object.fromEntries([...cache.readVersions()].map(([uid, version]) => [names.get(uid) ?? uid, version]));
  }
  const versionOf = async (name: string) => (await inner.get(key(name)))?.metadata.resourceVersion ?? '';
  const touch = async (name: string) => {
    const current = await inner.get(key(name));
    if (current) await inner.update({ ...current, data: { at: String(Date.now()) } });
  };

  it.each<[string, (cache: ReconcileReadCache) => Promise<unknown>, string[]]>([
    ['a get', (c) => c.get(key('a')), ['a']],
    ['a list, every item', (c) => c.list({ ...CM, namespace: 'ns' }), ['a', 'b', 'c']],
    ['a cluster list, every item', (c) => c.listByCluster('ns', 'c1', CM), ['a', 'b', 'c']],
    ['a get of a missing object: nothing', (c) => c.get(key('ghost')), []],
    ['a write without a read: nothing', async (c) => c.create(configMap('d')), []],
    [
      'a read and then a write of the same object: nothing of it',
      async (c) => {
        const a = await c.get(key('a'));
        await c.get(key('b'));
        if (a) await c.update({ ...a, data: { x: '1' } });
      },
      ['b'],
    ],
    ['a read and then a delete of it: nothing of it', async (c) => { await c.get(key('a')); await c.get(key('b')); await c.delete(key('a')); }, ['b']],
  ])('%s', async (_label, reads, expected) => {
    const cache = new ReconcileReadCache(inner);
    await reads(cache);
    const expectedVersions = Object.fromEntries(await Promise.all(expected.map(async (name) => [name, await versionOf(name)] as const)));
    expect(await readBy(cache)).toEqual(expectedVersions);
  });

  it('keeps the version an object was first read at, though a later list hands out a newer one', async () => {
    const cache = new ReconcileReadCache(inner);
    await cache.get(key('a'));
    const first = await versionOf('a');
    await touch('a');
    await cache.create(configMap('d')); // a write forgets the cached lists
    const listed = await cache.list({ ...CM, namespace: 'ns' });
    expect(listed.items.find((i) => i.metadata.name === 'a')?.metadata.resourceVersion).not.toBe(first);
    expect((await readBy(cache)).a).toBe(first);
  });
});
