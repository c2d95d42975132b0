/**
 * etcd leadership moved off a control-plane Machine before it goes (Cluster API's
 * forwardEtcdLeadership): before the KubeadmControlPlane deletes a Machine (scale-down, rollout,
 * remediation) and again before its member is removed (pre-terminate-hook.ts), in case it became
 * the leader meanwhile or was deleted by hand. Removing the leader's member makes etcd elect a new
 * one, and writes stall until it does; a transfer hands over at once.
 *
 * The leaving Machine's etcd Pod is asked whether its member leads (Cluster API's etcd client on
 * that Node compares its member with the leader); one that does not answer leads no one it could
 * hand over to (etcd elects another when it goes). When it leads, the transfer is asked of that
 * Pod (etcd accepts it only from the leader), to the first other Machine's member that takes it,
 * in Cluster API's order: Machines a MachineHealthCheck finds healthy first, then up-to-date
 * ones, then the newest (Cluster API puts Machines with an unhealthy etcd member last as well;
 * capless does not record that).
 * Nothing to do for an external etcd, a Machine whose Node never registered, or no other Machine
 * with a Node; a leader that cannot hand over is a transient error (tried again).
 */

import { conditionsOf, isConditionTrue } from '../../../../shared/contracts/conditions.js';
import { isDeleting, type StoredObject } from '../../../../shared/contracts/object.js';
import { TransientError } from '../../../../shared/errors/index.js';
import { type EtcdMember, type EtcdNode, type EtcdStatus, type WorkloadClusterRef, WorkloadClusterUnavailableError } from '../../../../shared/ports/workload-cluster.js';
import { workloadClusterOf } from '../../engine/providers/workload-cluster-port.js';
import { usesExternalEtcd } from '../common/cluster-certificates.js';
import { CONDITION_HEALTH_CHECK_SUCCEEDED } from '../../core/machinehealthcheck/well-known.js';
import { type MachineFacts, machineNode } from './machine-facts.js';
import type { KcpScope } from './scope.js';

/** Whether kubeadm runs etcd on the control-plane Nodes (Cluster API's IsEtcdManaged): not external. */
export function managesEtcd(scope: KcpScope): boolean {
  return !usesExternalEtcd(scope.spec.kubeadmConfigSpec);
}

/** The control plane's Machines other than `machine`, not deleting. */
function otherLiveMachines(machines: readonly StoredObject[], machine: StoredObject): StoredObject[] {
  return machines.filter((m) => !isDeleting(m) && m.metadata.name !== machine.metadata.name);
}

/** The Nodes of the control plane's other Machines, not deleting: where etcd is asked. */
export function otherEtcdNodes(scope: KcpScope, machine: StoredObject): EtcdNode[] {
  return otherLiveMachines(scope.machines, machine).flatMap((m) => machineNode(m) ?? []);
}

/** The Nodes that may take the leadership from `machine`'s, best first (Cluster API's getCandidatesForEtcdLeadership). */
export function leadershipCandidates(machines: readonly StoredObject[], facts: readonly MachineFacts[], machine: StoredObject): EtcdNode[] {
  const upToDate = new Set(facts.filter((f) => f.upToDate).map((f) => f.name));
  const healthy = (m: StoredObject) => isConditionTrue(conditionsOf(m.status), CONDITION_HEALTH_CHECK_SUCCEEDED);
  const current = (m: StoredObject) => upToDate.has(m.metadata.name);
  const newest = (a: StoredObject, b: StoredObject) => (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '');
  const preferred = (a: StoredObject, b: StoredObject) => Number(healthy(b)) - Number(healthy(a)) || Number(current(b)) - Number(current(a)) || newest(a, b);
  return otherLiveMachines(machines, machine)
    .sort(preferred)
    .flatMap((m) => machineNode(m) ?? []);
}

export function workloadClusterRefOf(scope: KcpScope): WorkloadClusterRef | undefined {
  return scope.clusterName ? { namespace: scope.object.metadata.namespace, name: scope.clusterName } : undefined;
}

async function handOver(scope: KcpScope, cluster: WorkloadClusterRef, leaving: EtcdNode, members: readonly EtcdMember[], candidates: readonly EtcdNode[]): Promise<void> {
  const workload = workloadClusterOf(scope.ctx);
  const successors = candidates.flatMap((node) => members.find((member) => member.name === node.name) ?? []);
  let lastError: unknown;
  for (const successor of successors) {
    try {
      await workload.moveEtcdLeader(cluster, leaving, successor.id);
      scope.ctx.logger.info(`moved etcd leadership from ${leaving.name} to ${successor.name}`);
      return;
    } catch (error) {
      lastError = error;
      scope.ctx.logger.info(`could not move etcd leadership from ${leaving.name} to ${successor.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new TransientError(`unable to move etcd leadership off Node ${leaving.name}: ${successors.length === 0 ? 'no other member to lead' : 'every candidate refused'}`, { cause: lastError });
}

/** Moves etcd's leadership off the Machine's member when it has it. */
export async function forwardEtcdLeadership(scope: KcpScope, machine: StoredObject): Promise<void> {
  const cluster = workloadClusterRefOf(scope);
  const leaving = machineNode(machine);
  if (!cluster || !leaving || !managesEtcd(scope)) return;
  const workload = workloadClusterOf(scope.ctx);
  let status: EtcdStatus | undefined;
  try {
    status = await workload.etcdStatus(cluster, leaving);
  } catch (error) {
    if (!(error instanceof WorkloadClusterUnavailableError)) throw error;
    scope.ctx.logger.info(`etcd on Node ${leaving.name} does not answer, so it leads no one to hand over: ${error.message}`);
    return;
  }
  if (!status || status.memberId !== status.leaderId) return;
  const members = (await workload.listEtcdMembers(cluster, leaving)) ?? [];
  await handOver(scope, cluster, leaving, members, leadershipCandidates(scope.machines, scope.facts, machine));
}
