import { resyncAll } from './resync-all.js';
import { resyncWiring } from './wiring.js';

const deps = resyncWiring();

/** EventBridge schedule → every object of every reconciled kind enqueued once (coalesced). */
export async function handler(): Promise<{ enqueued: number }> {
  const enqueued = await resyncAll(deps.store, deps.registry, deps.queue);
  deps.logger.info('resync done', { enqueued });
  return { enqueued };
}
