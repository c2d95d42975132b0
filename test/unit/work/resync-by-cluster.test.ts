import { describe, expect, it } from 'vitest';
import { ReconcilerRegistry } from '../../../functions/reconcile/engine/registry.js';
import { resyncByCluster } from '../../../functions/reconcile/resync/resync-by-cluster.js';
import { LABEL_CLUSTER_NAME } from '../../../shared/contracts/object.js';
import { RESYNC_KEYS_PER_MESSAGE, type ResyncMessage } from '../../../shared/contracts/work-dispatch.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { Probe, widget } from '../../support/probe-reconciler.js';

async function storeWith(objects: { name: string; namespace?: string; cluster?: string }[]): Promise<MemoryObjectStore> {
  const store = new MemoryObjectStore();
  for (const { name, namespace, cluster } of objects) {
    const object = widget(name, namespace);
    await store.create({ ...object, metadata: { ...object.metadata, ...(cluster ? { labels: { [LABEL_CLUSTER_NAME]: cluster } } : {}) } });
  }
  return store;
}

describe('Function: resyncByCluster', () => {
  it.each<[string, { name: string; namespace?: string; cluster?: string }[], Record<string, string[]>]>([
    ['one message per cluster', [{ name: 'a1', cluster: 'a' }, { name: 'b1', cluster: 'b' }, { name: 'a2', cluster: 'a' }], { 'default/a': ['a1', 'a2'], 'default/b': ['b1'] }],
    ['the same cluster name in two namespaces is two clusters', [{ name: 'x', cluster: 'dev' }, { name: 'y', namespace: 'other', cluster: 'dev' }], { 'default/dev': ['x'], 'other/dev': ['y'] }],
    ['objects of no cluster by namespace', [{ name: 'p' }, { name: 'q', namespace: 'other' }], { default: ['p'], other: ['q'] }],
    ['nothing to resync: no message', [], {}],
  ])('%s', async (_case, objects, expected) => {
    const sent: ResyncMessage[] = [];
    const result = await resyncByCluster(await storeWith(objects), new ReconcilerRegistry([new Probe().reconciler()]), async (messages) => void sent.push(...messages));
    const byScope = Object.fromEntries(sent.map((m) => [m.resync.scope, m.resync.keys.map((k) => k.name).sort()]));
    expect(byScope).toEqual(expected);
    expect(result).toEqual({ objects: objects.length, messages: Object.keys(expected).length });
  });

  it(`splits a cluster past ${RESYNC_KEYS_PER_MESSAGE} objects into pages, every object once`, async () => {
    const count = RESYNC_KEYS_PER_MESSAGE + 3;
    const store = await storeWith(Array.from({ length: count }, (_, i) => ({ name: `w${i}`, cluster: 'big' })));
    const sent: ResyncMessage[] = [];
    await resyncByCluster(store, new ReconcilerRegistry([new Probe().reconciler()]), async (messages) => void sent.push(...messages));
    expect(sent.map((m) => m.resync.keys.length)).toEqual([RESYNC_KEYS_PER_MESSAGE, 3]);
    expect(new Set(sent.flatMap((m) => m.resync.keys.map((k) => k.name))).size).toBe(count);
  });
});
