import { isWorkloadCluster, WORKLOAD_CLUSTER_PORT, type WorkloadCluster } from '../../../../shared/ports/workload-cluster.js';
import { InMemoryWorkloadCluster } from '../../../../shared/workload-cluster/in-memory-workload-cluster.js';
import type { ReconcileContext } from '../skeleton/types.js';

/**
 * The WorkloadCluster port on `ctx.providers.workloadCluster` (the in-memory one when none is
 * wired), reading capless's store through the reconcile's own store: what the reconcile already
 * read (an InMemoryMachine holding its simulated Node, the Cluster) is not read again.
 */
export function workloadClusterOf(ctx: ReconcileContext): WorkloadCluster {
  const candidate = ctx.providers?.[WORKLOAD_CLUSTER_PORT];
  if (!isWorkloadCluster(candidate)) return new InMemoryWorkloadCluster(ctx.store);
  return candidate.readingThrough?.(ctx.store) ?? candidate;
}
