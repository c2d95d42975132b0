import type { ObjectStore } from '../../../shared/ports/object-store.js';
import type { Logger } from '../../../shared/ports/logger.js';
import type { WorkQueue } from '../../../shared/ports/work-queue.js';
import { awsWorkWiring } from '../aws-work-wiring.js';
import type { ReconcilerRegistry } from '../engine/registry.js';

export interface ResyncDeps {
  store: ObjectStore;
  registry: ReconcilerRegistry;
  queue: WorkQueue;
  logger: Logger;
}

/** The resync function's dependencies (env: TABLE_NAME, QUEUE_URLS). */
export function resyncWiring(env: NodeJS.ProcessEnv = process.env, logger?: Logger): ResyncDeps {
  const { store, registry, queue, context } = awsWorkWiring('capless-resync', env, logger);
  return { store, registry, queue, logger: context.logger };
}
