/**
 * etcd as the control plane's health check sees it: the members and the alarms, asked through the
 * first live Machine's Node whose etcd answers, those whose member was last seen healthy first
 * (Cluster API's getNodeNamesSortedByLastKnownEtcdHealth). The members listed are kept on the
 * scope, so the member cleanup later in the same reconcile does not ask again.
 */

import { conditionsOf, isConditionTrue } from '../../../../shared/contracts/conditions.js';
import { isDeleting } from '../../../../shared/contracts/object.js';
import { isWorkloadClusterError, type WorkloadClusterRef, WorkloadClusterUnavailableError } from '../../../../shared/ports/workload-cluster.js';
import { workloadClusterOf } from '../../engine/providers/workload-cluster-port.js';
import { CONDITION_ETCD_MEMBER_HEALTHY, type EtcdView } from './etcd-health.js';
import { listThroughFirstAnswering } from './etcd-quorum.js';
import { machineNode } from './machine-facts.js';
import type { KcpScope } from './scope.js';

export async function etcdView(scope: KcpScope, cluster: WorkloadClusterRef): Promise<EtcdView | undefined> {
  const live = scope.machines.filter((m) => !isDeleting(m) && machineNode(m));
  if (live.length === 0) return undefined;
  const healthyFirst = [...live].sort((a, b) => Number(lastSeenHealthy(b)) - Number(lastSeenHealthy(a)));
  const listed = await listThroughFirstAnswering(scope, healthyFirst.flatMap((m) => machineNode(m) ?? []));
  if (!listed) {
    return { state: 'failed', reason: 'ConnectionDown', message: `Failed to connect to etcd through Nodes ${live.map((m) => machineNode(m)?.name).join(', ')}` };
  }
  scope.etcdMembers = listed;
  try {
    const alarms = (await workloadClusterOf(scope.ctx).listEtcdAlarms(cluster, listed.through)) ?? [];
    return { state: 'listed', members: listed.members, alarms };
  } catch (error) {
    if (!isWorkloadClusterError(error)) throw error;
    return { state: 'failed', reason: error instanceof WorkloadClusterUnavailableError ? 'ConnectionDown' : 'InspectionFailed', message: `Failed to get etcd alarms: ${error.message}` };
  }
}

function lastSeenHealthy(machine: { status?: Record<string, unknown> }): boolean {
  return isConditionTrue(conditionsOf(machine.status), CONDITION_ETCD_MEMBER_HEALTHY);
}
