import { describe, expect, it } from 'vitest';
import { ReconcilerRegistry } from '../../../functions/reconcile/engine/registry.js';
import { RESYNC_PAGE_SIZE, resyncAll } from '../../../functions/reconcile/resync/resync-all.js';
import { keyString } from '../../../shared/contracts/object.js';
import type { ReconcileRequest, WorkQueue } from '../../../shared/ports/work-queue.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { Probe, widget } from '../../support/probe-reconciler.js';

class CollectingQueue implements WorkQueue {
  readonly keys: string[] = [];
  calls = 0;
  async enqueue(request: ReconcileRequest): Promise<void> {
    this.keys.push(keyString(request));
  }
  async enqueueMany(requests: readonly ReconcileRequest[]): Promise<void> {
    this.calls++;
    for (const request of requests) this.keys.push(keyString(request));
  }
}

describe('Function: resyncAll', () => {
  it('enqueues every object of every registered kind, page by page, and nothing else', async () => {
    const store = new MemoryObjectStore();
    const count = RESYNC_PAGE_SIZE * 2 + 7;
    for (let i = 0; i < count; i++) await store.create(widget(`w-${i}`, i % 2 === 0 ? 'default' : 'other'));
    await store.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'not-reconciled' }, data: {} });
    const queue = new CollectingQueue();

    const enqueued = await resyncAll(store, new ReconcilerRegistry([new Probe().reconciler()]), queue);

    expect(enqueued).toBe(count);
    expect(new Set(queue.keys).size).toBe(count);
    expect(queue.keys.every((k) => k.startsWith('test.capless.io/Widget/'))).toBe(true);
    expect(queue.calls).toBe(3);
  });

  it('does nothing without registered reconcilers', async () => {
    const store = new MemoryObjectStore();
    await store.create(widget('a'));
    const queue = new CollectingQueue();
    expect(await resyncAll(store, new ReconcilerRegistry(), queue)).toBe(0);
    expect(queue.keys).toEqual([]);
  });
});
