import { randomUUID } from 'node:crypto';
import { type InvocationResult, processInvocation } from '../../shared/adapters/aws/lambda/invocation-consumer.js';
import { lambdaTelemetry } from '../../shared/adapters/aws/powertools/lambda-telemetry.js';
import { parseReconcilerInvocation } from '../../shared/contracts/work-dispatch.js';
import { reconcileWiring } from './wiring.js';

const telemetry = lambdaTelemetry(process.env.POWERTOOLS_SERVICE_NAME ?? 'capless-reconcile');
const deps = reconcileWiring(process.env, telemetry.logger);

/**
 * One kind's reconciler (RECONCILE_KIND), invoked asynchronously by the dispatcher of the shared
 * work queue with a batch of that kind's work (docs/adr/0110). An error ends the invocation in
 * Lambda's on-failure destination, where the dispatcher sends its requests again.
 */
export const handler = telemetry.instrument(
  (event: unknown): Promise<InvocationResult> => {
    const invocation = parseReconcilerInvocation(event);
    if (!invocation) throw new Error('not a reconciler invocation: expected {v: 1, kind, messages, cloudEvents}');
    return processInvocation(invocation, randomUUID(), deps);
  },
  (result) => ({ Reconciled: result.reconciled, ReconcileResent: result.resent }),
);
