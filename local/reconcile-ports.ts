import { SdkAwsCloudFactory } from '../shared/adapters/aws/aws-cloud/sdk-aws-cloud.js';
import type { ProviderRegistry } from '../functions/reconcile/engine/providers/provider-registry.js';
import { runtimeExtensionPorts } from '../functions/reconcile/runtime/runtime-ports.js';
import { PROVIDER_LOOKUP_PORT } from '../shared/contracts/providers/provider-lookup.js';
import { AWS_CLOUD_PORT, type AwsCloudFactory } from '../shared/ports/aws-cloud.js';
import type { Clock } from '../shared/ports/clock.js';
import type { ObjectStore } from '../shared/ports/object-store.js';
import type { ExtensionTransport } from '../shared/ports/runtime-extensions.js';
import { WORKLOAD_CLUSTER_PORT, type WorkloadCluster } from '../shared/ports/workload-cluster.js';
import { KubeconfigWorkloadCluster } from '../shared/adapters/kubernetes/kubeconfig-workload-cluster.js';
import { PerClusterWorkloadCluster } from '../shared/workload-cluster/per-cluster-workload-cluster.js';
import { InMemoryWorkloadCluster } from '../shared/workload-cluster/in-memory-workload-cluster.js';

export interface ReconcilePortOptions {
  providers: ProviderRegistry;
  clock: Clock;
  awsCloud?: AwsCloudFactory;
  workloadCluster?: WorkloadCluster;
  extensionTransport?: ExtensionTransport;
}

/** The provider ports of the embedded control plane's reconcilers, in the main thread or a worker alike. */
export function reconcilePorts(store: ObjectStore, options: ReconcilePortOptions): Record<string, unknown> {
  return {
    [PROVIDER_LOOKUP_PORT]: options.providers,
    // Per cluster: simulated clusters' Nodes in process, real ones through their kubeconfig Secret (ADR 0065).
    [WORKLOAD_CLUSTER_PORT]:
      options.workloadCluster ?? new PerClusterWorkloadCluster(store, new InMemoryWorkloadCluster(store), new KubeconfigWorkloadCluster({ store })),
    [AWS_CLOUD_PORT]: options.awsCloud ?? new SdkAwsCloudFactory(),
    ...runtimeExtensionPorts(store, options.extensionTransport, options.clock),
  };
}
