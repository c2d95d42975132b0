import { keyOf } from '../../../shared/contracts/object.js';
import type { ObjectStore } from '../../../shared/ports/object-store.js';
import type { WorkQueue } from '../../../shared/ports/work-queue.js';
import type { ReconcilerRegistry } from '../engine/registry.js';

export const RESYNC_PAGE_SIZE = 200;

/**
 * The periodic resync that catches drift: every object of every registered kind, in pages,
 * is enqueued once. The queues coalesce requests already pending. Returns how many were enqueued.
 */
export async function resyncAll(
  store: Pick<ObjectStore, 'list'>,
  registry: ReconcilerRegistry,
  queue: WorkQueue,
): Promise<number> {
  let total = 0;
  for (const { kind } of registry.all()) {
    let token: string | undefined;
    do {
      const page = await store.list({ ...kind, limit: RESYNC_PAGE_SIZE, ...(token ? { continue: token } : {}) });
      await queue.enqueueMany(page.items.map(keyOf));
      total += page.items.length;
      token = page.continue;
    } while (token);
  }
  return total;
}
