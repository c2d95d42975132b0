import type { StoredObject } from '../../../../shared/contracts/object.js';
import { type ClusterResourceSetSpec, clusterResourceSetSpecView } from '../../../../shared/contracts/schemas/addons/cluster-resource-set.js';
import { isWorkloadCluster, WORKLOAD_CLUSTER_PORT, type WorkloadCluster } from '../../../../shared/ports/workload-cluster.js';
import { InMemoryWorkloadCluster } from '../../../../shared/workload-cluster/in-memory-workload-cluster.js';
import type { ReconcileContext, Scope } from '../../engine/skeleton/types.js';

export interface ClusterResourceSetScope extends Scope {
  /** The spec as the reconciler reads it; undefined when it does not parse (admission let something odd through). */
  spec?: ClusterResourceSetSpec;
  workloadCluster: WorkloadCluster;
}

export function createClusterResourceSetScope(ctx: ReconcileContext, object: StoredObject): ClusterResourceSetScope {
  const parsed = clusterResourceSetSpecView.safeParse(object.spec ?? {});
  const candidate = ctx.providers?.[WORKLOAD_CLUSTER_PORT];
  return {
    ctx,
    object,
    conditions: [],
    ...(parsed.success ? { spec: parsed.data } : {}),
    workloadCluster: isWorkloadCluster(candidate) ? candidate : new InMemoryWorkloadCluster(ctx.store),
  };
}
