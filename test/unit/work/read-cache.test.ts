import { beforeEach, describe, expect, it } from 'vitest';
import { ReconcileReadCache } from '../../../functions/reconcile/engine/work/read-cache.js';
import { type KubeObject, keyOf, type ObjectKey } from '../../../shared/contracts/object.js';
import { ConflictError } from '../../../shared/errors/index.js';
import type { ObjectStore } from '../../../shared/ports/object-store.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';

const CM = { group: '', kind: 'ConfigMap' };
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
