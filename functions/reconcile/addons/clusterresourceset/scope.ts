import type { StoredObject } from '../../../../shared/contracts/object.js';
import { type ClusterResourceSetSpec, clusterResourceSetSpecView } from '../../../../shared/contracts/schemas/addons/cluster-resource-set.js';
import type { WorkloadCluster } from '../../../../shared/ports/workload-cluster.js';
import { workloadClusterOf } from '../../engine/providers/workload-cluster-port.js';
import type { ReconcileContext, Scope } from '../../engine/skeleton/types.js';

export interface ClusterResourceSetScope extends Scope {
  /** The spec as the reconciler reads it; undefined when it does not parse (admission let something odd through). */
  spec?: ClusterResourceSetSpec;
  workloadCluster: WorkloadCluster;
}

export function createClusterResourceSetScope(ctx: ReconcileContext, object: StoredObject): ClusterResourceSetScope {
  const parsed = clusterResourceSetSpecView.safeParse(object.spec ?? {});
  return {
    ctx,
    object,
    conditions: [],
    ...(parsed.success ? { spec: parsed.data } : {}),
    workloadCluster: workloadClusterOf(ctx),
  };
}
