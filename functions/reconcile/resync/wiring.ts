import type { ObjectStore } from '../../../shared/ports/object-store.js';
import type { Logger } from '../../../shared/ports/logger.js';
import type { SqsWorkQueue } from '../../../shared/adapters/aws/sqs/sqs-work-queue.js';
import { awsWorkWiring } from '../aws-work-wiring.js';
import type { ReconcilerRegistry } from '../engine/registry.js';

export interface ResyncDeps {
  store: ObjectStore;
  registry: ReconcilerRegistry;
  queue: SqsWorkQueue;
  logger: Logger;
}

/** The resync function's dependencies (env: TABLE_NAME, WORK_QUEUE_URL). */
export function resyncWiring(env: NodeJS.ProcessEnv = process.env, logger?: Logger): ResyncDeps {
  const { store, registry, queue, context } = awsWorkWiring('capless-resync', env, logger);
  return { store, registry, queue, logger: context.logger };
}
