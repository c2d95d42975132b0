import type { CloudEvent } from '../../shared/contracts/cloud-event-message.js';
import type { Logger } from '../../shared/ports/logger.js';
import type { SqsConsumerDeps } from '../../shared/adapters/aws/sqs/sqs-batch-consumer.js';
import { awsWorkWiring } from './aws-work-wiring.js';
import { requestProcessor } from './engine/process-request.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './engine/work/retry-policy.js';

/** Environment variables of the generic reconcile function (besides TABLE_NAME, WORK_QUEUE_URL, DEAD_LETTER_QUEUE_URLS, LEASE_SECONDS). */
export const RECONCILE_ENV = {
  /** `<group>/<Kind>` this function reconciles. */
  kind: 'RECONCILE_KIND',
  /** Failed tries before a request is dead-lettered. Default 5. */
  maxAttempts: 'MAX_RECEIVE_COUNT',
} as const;

/** The reconcile function's dependencies, for the kind named by RECONCILE_KIND. */
export function reconcileWiring(env: NodeJS.ProcessEnv = process.env, logger?: Logger): SqsConsumerDeps {
  const wiring = awsWorkWiring('capless-reconcile', env, logger);
  const kindName = env[RECONCILE_ENV.kind] ?? '';
  const slash = kindName.lastIndexOf('/');
  const kind = { group: kindName.slice(0, Math.max(0, slash)), kind: kindName.slice(slash + 1) };
  if (slash === -1 || !wiring.registry.get(kind)) {
    throw new Error(`RECONCILE_KIND "${kindName}" names no registered reconciler (expected "<group>/<Kind>")`);
  }
  const policy = retryPolicyFrom(env[RECONCILE_ENV.maxAttempts]);
  const cloudEvents = wiring.registry.get(kind)?.cloudEvents;
  return {
    queue: wiring.queue,
    leases: wiring.leases,
    leaseSeconds: wiring.leaseSeconds,
    logger: wiring.context.logger.child({ kind: kindName }),
    kind,
    handler: requestProcessor({ registry: wiring.registry, policy, context: () => wiring.context }),
    ...(cloudEvents ? { cloudEvents: (event: CloudEvent) => cloudEvents(wiring.context, event) } : {}),
  };
}

function retryPolicyFrom(maxAttempts: string | undefined): RetryPolicy {
  const parsed = Number(maxAttempts);
  return Number.isInteger(parsed) && parsed > 0 ? { ...DEFAULT_RETRY_POLICY, maxAttempts: parsed } : DEFAULT_RETRY_POLICY;
}
