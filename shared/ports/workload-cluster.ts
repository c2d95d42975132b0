import { isRecord } from '../contracts/json.js';

/** A Node condition (corev1.NodeCondition) as health checks read it. */
export interface WorkloadNodeCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
}

/** What the core sees of a workload cluster's Node. */
export interface WorkloadNode {
  name: string;
  ready?: boolean;
  /** status.conditions (Ready, MemoryPressure, …) when the cluster reports them. */
  conditions?: WorkloadNodeCondition[];
  /** status.nodeInfo fields (kubeletVersion, …). */
  info?: Record<string, string>;
}

export interface WorkloadClusterRef {
  namespace: string;
  name: string;
}

/** The workload cluster's API as the Machine reconciler needs it (capi-contract.md §3.2 node reference). */
export interface WorkloadCluster {
  findNodeByProviderID(cluster: WorkloadClusterRef, providerID: string): Promise<WorkloadNode | undefined>;
}

/** Key of the WorkloadCluster port on ReconcileContext.providers. */
export const WORKLOAD_CLUSTER_PORT = 'workloadCluster';

export function isWorkloadCluster(value: unknown): value is WorkloadCluster {
  return isRecord(value) && typeof value.findNodeByProviderID === 'function';
}
