/**
 * Whether etcd keeps its quorum once a member goes (Cluster API's targetEtcdClusterHealthy, for a
 * removal): the members left are asked for their status, each through its Machine's Node, and
 * enough of them must answer for a majority of the members left. A member no Machine owns cannot
 * be asked and counts as not answering. Removing a member that still runs must not leave a
 * three-member etcd with one member down at two with one answering, or a five-member one with
 * two down at four with two.
 */

import type { StoredObject } from '../../../../shared/contracts/object.js';
import { type EtcdMember, type EtcdNode, isWorkloadClusterError, type WorkloadClusterRef } from '../../../../shared/ports/workload-cluster.js';
import { workloadClusterOf } from '../../engine/providers/workload-cluster-port.js';
import { managesEtcd, otherEtcdNodes, workloadClusterRefOf } from './etcd-leadership.js';
import { machineNode } from './machine-facts.js';
import type { KcpScope } from './scope.js';

/** The members, as the first of `nodes` whose etcd Pod answers lists them, with that Node. */
export interface ListedMembers {
  through: EtcdNode;
  members: EtcdMember[];
}

/** The members through the first Node whose etcd answers; undefined when none does (external etcd, a cluster down or refusing capless). */
export async function listThroughFirstAnswering(scope: KcpScope, nodes: readonly EtcdNode[]): Promise<ListedMembers | undefined> {
  const cluster = workloadClusterRefOf(scope);
  if (!cluster) return undefined;
  const workload = workloadClusterOf(scope.ctx);
  for (const through of nodes) {
    try {
      const members = await workload.listEtcdMembers(cluster, through);
      if (members) return { through, members };
    } catch (error) {
      if (!isWorkloadClusterError(error)) throw error;
      scope.ctx.logger.info(`etcd on Node ${through.name} does not answer: ${error.message}`);
    }
  }
  return undefined;
}

/** How the members left after `leaving` goes stand: how many answer, of how many, and whether that is a majority. */
export interface QuorumAfterRemoval {
  answering: number;
  remaining: number;
  keeps: boolean;
}

export async function quorumAfterRemoval(scope: KcpScope, cluster: WorkloadClusterRef, members: readonly EtcdMember[], leaving: EtcdMember): Promise<QuorumAfterRemoval> {
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
  return { answering, remaining: left.length, keeps: answering >= Math.floor(left.length / 2) + 1 };
}

export async function keepsQuorum(scope: KcpScope, cluster: WorkloadClusterRef, members: readonly EtcdMember[], leaving: EtcdMember): Promise<boolean> {
  return (await quorumAfterRemoval(scope, cluster, members, leaving)).keeps;
}

/**
 * Why remediating `machine` (deleting it, so its member goes) would cost etcd its quorum, in
 * Cluster API's words; undefined when it would not, or when etcd cannot be asked (the Machines'
 * health, counted by the remediation preflight, then decides alone).
 */
export async function remediationQuorumRisk(scope: KcpScope, machine: StoredObject): Promise<string | undefined> {
  const cluster = workloadClusterRefOf(scope);
  const node = machineNode(machine);
  if (!cluster || !node || !managesEtcd(scope)) return undefined;
  const listed = await listThroughFirstAnswering(scope, otherEtcdNodes(scope, machine));
  const member = listed?.members.find((m) => m.name === node.name);
  if (!listed || !member) return undefined;
  const quorum = await quorumAfterRemoval(scope, cluster, listed.members, member);
  if (quorum.keeps) return undefined;
  return `KCP can't remediate this machine because this could result in etcd losing quorum (${quorum.answering} of the ${quorum.remaining} other etcd members answer)`;
}
