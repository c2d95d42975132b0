import { SdkAwsCloudFactory } from '../../shared/adapters/aws/aws-cloud/sdk-aws-cloud.js';
import { objectStoreFromEnv } from '../../shared/adapters/aws/dynamodb/store-from-env.js';
import { type AwsWork, workQueueFromEnv } from '../../shared/adapters/aws/sqs/work-queue-from-env.js';
import { PROVIDER_LOOKUP_PORT } from '../../shared/contracts/providers/provider-lookup.js';
import { systemClock } from '../../shared/ports/clock.js';
import { consoleLogger, type Logger } from '../../shared/ports/logger.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import { AWS_CLOUD_PORT } from '../../shared/ports/aws-cloud.js';
import { WORKLOAD_CLUSTER_PORT } from '../../shared/ports/workload-cluster.js';
import { InMemoryWorkloadCluster } from '../../shared/workload-cluster/in-memory-workload-cluster.js';
import { PerClusterWorkloadCluster } from '../../shared/workload-cluster/per-cluster-workload-cluster.js';
import { KubeconfigWorkloadCluster } from '../../shared/adapters/kubernetes/kubeconfig-workload-cluster.js';
import { builtinProviderRegistry } from './engine/providers/builtin.js';
import { ReconcilerRegistry } from './engine/registry.js';
import type { ReconcileContext } from './engine/skeleton/types.js';
import { runtimeExtensionPorts } from './runtime/runtime-ports.js';

export interface AwsWorkWiring extends AwsWork {
  store: ObjectStore;
  registry: ReconcilerRegistry;
  context: ReconcileContext;
}

/**
 * What the router, reconcile and resync functions share, built once per Lambda container:
 * the object store, the SQS work queue with its DynamoDB work records, and the reconcilers of
 * the built-in providers (the same composition `capless up` runs).
 */
export function awsWorkWiring(service: string, env: NodeJS.ProcessEnv = process.env, logger: Logger = consoleLogger('info', { service })): AwsWorkWiring {
  const store = objectStoreFromEnv(env);
  const work = workQueueFromEnv(env);
  const providers = builtinProviderRegistry();
  const registry = new ReconcilerRegistry(providers.reconcilers());
  const context: ReconcileContext = {
    store,
    queue: work.queue,
    clock: systemClock,
    logger,
    providers: {
      [PROVIDER_LOOKUP_PORT]: providers,
      [WORKLOAD_CLUSTER_PORT]: new PerClusterWorkloadCluster(store, new InMemoryWorkloadCluster(store), new KubeconfigWorkloadCluster({ store })),
      [AWS_CLOUD_PORT]: new SdkAwsCloudFactory(),
      ...runtimeExtensionPorts(store),
    },
  };
  return { ...work, store, registry, context };
}
