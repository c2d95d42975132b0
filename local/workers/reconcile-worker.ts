import { parentPort, workerData } from 'node:worker_threads';
import { z } from 'zod';
import { builtinProviderRegistry } from '../../functions/reconcile/engine/providers/builtin.js';
import { ReconcilerRegistry } from '../../functions/reconcile/engine/registry.js';
import { SdkAwsCloudFactory } from '../../shared/adapters/aws/aws-cloud/sdk-aws-cloud.js';
import { InMemoryLoadBalancers } from '../../shared/adapters/memory/load-balancers/in-memory-load-balancers.js';
import { systemClock } from '../../shared/ports/clock.js';
import { reconcilePorts } from '../reconcile-ports.js';
import { serveReconciles } from './serve-reconciles.js';

/** What `capless up` tells each worker thread (plain data: closures cannot cross threads). */
export const reconcileWorkerDataSchema = z.object({
  logLevel: z.enum(['debug', 'info', 'warn', 'error']),
  /** `capless up --simulated-load-balancers`. */
  simulatedLoadBalancers: z.boolean(),
});
export type ReconcileWorkerData = z.infer<typeof reconcileWorkerDataSchema>;

/** A reconcile worker thread: the built-in providers' reconcilers, served over the parent port (ADR 0115). */
if (parentPort) {
  const data = reconcileWorkerDataSchema.parse(workerData);
  const providers = builtinProviderRegistry();
  const awsCloud = data.simulatedLoadBalancers ? new SdkAwsCloudFactory({ loadBalancers: (region) => new InMemoryLoadBalancers(region) }) : new SdkAwsCloudFactory();
  serveReconciles(parentPort, {
    registry: new ReconcilerRegistry(providers.reconcilers()),
    clock: systemClock,
    logLevel: data.logLevel,
    providers: (store) => reconcilePorts(store, { providers, clock: systemClock, awsCloud }),
  });
}
