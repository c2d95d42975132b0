/**
 * Whether etcd keeps its quorum once a member goes (Cluster API's targetEtcdClusterHealthy, for a
 * removal): the members left are asked for their status, each through its Machine's Node, and
 * enough of them must answer for a majority of the members left. A member no Machine owns cannot
 * be asked and counts as not answering. Removing a member that still runs must not leave a
 * three-member etcd with one member down at two with one answering, or a five-member one with
 * two down at four with two.
 */

import { type EtcdMember, isWorkloadClusterError, type WorkloadClusterRef } from '../../../../shared/ports/workload-cluster.js';
import { workloadClusterOf } from '../../engine/providers/workload-cluster-port.js';
import { machineNode } from './machine-facts.js';
import type { KcpScope } from './scope.js';

export async function keepsQuorum(scope: KcpScope, cluster: WorkloadClusterRef, members: readonly EtcdMember[], leaving: EtcdMember): Promise<boolean> {
  const left = members.filter((member) => member.id !== leaving.id);
  const workload = workloadClusterOf(scope.ctx);
  let answering = 0;
  for (const node of scope.machines.flatMap((m) => machineNode(m) ?? [])) {
    if (!left.some((member) => member.name === node.name)) continue;
    const status = await workload.etcdStatus(cluster, node).catch((error: unknown) => {
      if (isWorkloadClusterError(error)) return undefined;
      throw error;
    });
    if (status && left.some((member) => member.id === status.memberId)) answering += 1;
  }
  return answering >= Math.floor(left.length / 2) + 1;
}
