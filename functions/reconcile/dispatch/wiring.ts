import { reconcilerInvokerFromEnv } from '../../../shared/adapters/aws/lambda/invoker-from-env.js';
import { leaseSecondsFrom, workQueueFromEnv } from '../../../shared/adapters/aws/sqs/work-queue-from-env.js';
import type { Logger } from '../../../shared/ports/logger.js';
import { DEFAULT_RETRY_POLICY } from '../engine/work/retry-policy.js';
import type { DispatchDeps } from './dispatch-batch.js';

/** Environment variables of the dispatcher (besides WORK_QUEUE_URL, DEAD_LETTER_QUEUE_URLS, LEASE_SECONDS). */
export const DISPATCH_ENV = {
  /** JSON `{"<group>/<Kind>": "<function name or ARN>"}`: the reconciler of each kind. */
  reconcilerFunctions: 'RECONCILER_FUNCTIONS',
  /** Failed tries before a request is dead-lettered (the reconcilers' value). Default 5. */
  maxAttempts: 'MAX_RECEIVE_COUNT',
} as const;

/** The dispatcher's dependencies: the shared queue, every kind's dead-letter queue, and Lambda. */
export function dispatchWiring(env: NodeJS.ProcessEnv = process.env, logger?: Logger): DispatchDeps {
  const { invoker, functions } = reconcilerInvokerFromEnv(env[DISPATCH_ENV.reconcilerFunctions], env);
  const maxAttempts = Number(env[DISPATCH_ENV.maxAttempts]);
  return {
    invoker,
    queue: workQueueFromEnv(env).queue,
    kinds: new Set(Object.keys(functions)),
    maxAttempts: Number.isInteger(maxAttempts) && maxAttempts > 0 ? maxAttempts : DEFAULT_RETRY_POLICY.maxAttempts,
    leaseSeconds: leaseSecondsFrom(env),
    ...(logger ? { logger } : {}),
  };
}
