/**
 * The KubeadmControlPlane's pre-terminate hook (Cluster API's reconcilePreTerminateHook, since
 * v1.8): every control-plane Machine carries `pre-terminate.delete.hook.machine.cluster.x-k8s.io/kcp-cleanup`,
 * so a deleted one stops after its drain, before its infrastructure goes. Then, one Machine at a
 * time (the first deleted), the control plane removes the Machine's etcd member, asking etcd
 * through another control-plane Node, and takes the hook off; the Machine goes on. Without it the
 * member of a terminated instance stays in etcd: a one-Machine upgrade leaves two members with one
 * alive, and etcd loses quorum.
 *
 * It waits (looking again in 30 s, and woken when the Machine reaches the hook): while another
 * deleting Machine has no hook left, for Kubernetes v1.31 and later while the Machine has other
 * pre-terminate hooks (so its kubelet still works for them), and until the Machine controller
 * waits on the hook, and while removing the member would cost etcd its quorum (etcd-quorum.ts).
 * Before the member goes, etcd's leadership is moved off it (etcd-leadership.ts). The last
 * control-plane Machine, an external etcd, or a Machine whose Node never registered has no member
 * to remove. A deleted control plane takes every hook off first
 * (delete-phases.ts): its whole etcd goes.
 */

import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { stringAt } from '../../../../shared/contracts/json.js';
import { parseSemVer } from '../../../../shared/contracts/clusterctl/semver.js';
import { isDeleting, type StoredObject } from '../../../../shared/contracts/object.js';
import type { WorkloadClusterRef } from '../../../../shared/ports/workload-cluster.js';
import { PRE_TERMINATE_HOOK_PREFIX, REASON_WAITING_FOR_PRE_TERMINATE_HOOK } from '../../core/machine/delete-phases.js';
import { workloadClusterOf } from '../../engine/providers/workload-cluster-port.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { forwardEtcdLeadership, managesEtcd, otherEtcdNodes, workloadClusterRefOf } from './etcd-leadership.js';
import { keepsQuorum } from './etcd-quorum.js';
import type { KcpScope } from './scope.js';

export const KCP_PRE_TERMINATE_HOOK = `${PRE_TERMINATE_HOOK_PREFIX}/kcp-cleanup`;
/** Cluster API's deleteRequeueAfter. */
export const PRE_TERMINATE_REQUEUE_SECONDS = 30;

const WAIT: PhaseResult = { requeueAfterSeconds: PRE_TERMINATE_REQUEUE_SECONDS };

export function hasKcpHook(machine: StoredObject): boolean {
  return machine.metadata.annotations?.[KCP_PRE_TERMINATE_HOOK] !== undefined;
}

/** The Machine without the hook; undefined when it has none. */
export function withoutKcpHook(machine: StoredObject): StoredObject | undefined {
  if (!hasKcpHook(machine)) return undefined;
  const { [KCP_PRE_TERMINATE_HOOK]: _hook, ...annotations } = machine.metadata.annotations ?? {};
  return { ...machine, metadata: { ...machine.metadata, annotations } };
}

function otherPreTerminateHooks(machine: StoredObject): boolean {
  return Object.keys(machine.metadata.annotations ?? {}).some((key) => key.startsWith(`${PRE_TERMINATE_HOOK_PREFIX}/`) && key !== KCP_PRE_TERMINATE_HOOK);
}

/** From v1.31 the hook runs last: kubeadm's ControlPlaneKubeletLocalMode makes the kubelet stop with the member. */
function runsLast(version: string): boolean {
  const parsed = parseSemVer(version);
  return parsed !== undefined && (parsed.major > 1 || (parsed.major === 1 && parsed.minor >= 31));
}

function waitsOnHook(machine: StoredObject): boolean {
  const deleting = findCondition(conditionsOf(machine.status), 'Deleting');
  return deleting?.status === 'True' && deleting.reason === REASON_WAITING_FOR_PRE_TERMINATE_HOOK;
}

function byDeletion(a: StoredObject, b: StoredObject): number {
  return (a.metadata.deletionTimestamp ?? '').localeCompare(b.metadata.deletionTimestamp ?? '') || a.metadata.name.localeCompare(b.metadata.name);
}

async function takeHookOff(scope: KcpScope, machine: StoredObject): Promise<void> {
  const next = withoutKcpHook(machine);
  if (next) await scope.ctx.store.update(next);
}

/**
 * Removes the deleting Machine's etcd member through the first other control-plane Node whose
 * etcd Pod answers (Cluster API's client generator tries them in turn), once the members left keep
 * a quorum (etcd-quorum.ts); false when it must wait: no other Node to ask, or a quorum at stake.
 * When none of them runs an etcd Pod, etcd is not kubeadm's stacked one.
 */
async function removeMember(scope: KcpScope, cluster: WorkloadClusterRef, machine: StoredObject, nodeName: string): Promise<boolean> {
  const candidates = otherEtcdNodes(scope, machine);
  if (candidates.length === 0) return false;
  const workload = workloadClusterOf(scope.ctx);
  for (const through of candidates) {
    const members = await workload.listEtcdMembers(cluster, through);
    if (!members) continue;
    const member = members.find((m) => m.name === nodeName);
    if (!member) {
      scope.ctx.logger.info(`no etcd member of Machine ${machine.metadata.name}`);
      return true;
    }
    if (!(await keepsQuorum(scope, cluster, members, member))) {
      scope.ctx.logger.info(`Cannot delete control plane Machine ${machine.metadata.name}, the operation can lead to etcd quorum loss. Please check the etcd status`);
      return false;
    }
    await workload.removeEtcdMember(cluster, through, member.id);
    scope.ctx.logger.info(`removed etcd member ${member.id} of Machine ${machine.metadata.name}`);
    return true;
  }
  scope.ctx.logger.info(`no control-plane Node runs an etcd Pod: no member of Machine ${machine.metadata.name} to remove`);
  return true;
}

export async function preTerminateHookPhase(scope: KcpScope): Promise<PhaseResult | undefined> {
  const deleting = scope.machines.filter(isDeleting);
  if (deleting.length === 0) return undefined;
  // A deleting Machine already without the hook goes first.
  if (deleting.some((m) => !hasKcpHook(m))) return WAIT;
  const [machine] = [...deleting].sort(byDeletion);
  if (!machine) return undefined;
  if (runsLast(scope.spec.version) && otherPreTerminateHooks(machine)) return WAIT;
  if (!waitsOnHook(machine)) return WAIT;
  const nodeName = stringAt(machine, 'status', 'nodeRef', 'name');
  const cluster = workloadClusterRefOf(scope);
  if (scope.machines.length > 1 && managesEtcd(scope) && nodeName && cluster) {
    await forwardEtcdLeadership(scope, machine);
    const asked = await removeMember(scope, cluster, machine, nodeName);
    if (!asked) return WAIT;
  }
  await takeHookOff(scope, machine);
  return WAIT;
}
