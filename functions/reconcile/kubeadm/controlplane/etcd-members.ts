/**
 * etcd members no Machine owns, removed (Cluster API's reconcileEtcdMembers): a member is
 * expected when it is named after the Node of one of the control plane's Machines (deleting ones
 * included: their member is the pre-terminate hook's to remove). Any other member is left by a
 * Machine that went without its member being removed (clusters made before ADR 0164, a Machine
 * deleted by hand around the hook, a learner whose instance never started), and counts against
 * etcd's quorum for ever.
 *
 * Like Cluster API it waits while a Machine has no Node yet (the unexpected member may be that
 * Machine's, not yet named after it), removes one member per run (sorted by name) and looks again
 * a second later. etcd is asked through the first Machine's Node whose etcd Pod answers; when none
 * does (etcd is external, or the workload cluster is down or refuses capless), there is nothing to
 * do now: the next reconcile looks again. Like Cluster API's targetEtcdClusterHealthy, a member is
 * removed only when the members left keep a quorum of answering members (etcd-quorum.ts).
 */

import { isDeleting } from '../../../../shared/contracts/object.js';
import { TransientError } from '../../../../shared/errors/index.js';
import type { EtcdMember } from '../../../../shared/ports/workload-cluster.js';
import { workloadClusterOf } from '../../engine/providers/workload-cluster-port.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { managesEtcd, workloadClusterRefOf } from './etcd-leadership.js';
import { keepsQuorum, listThroughFirstAnswering } from './etcd-quorum.js';
import { machineNode } from './machine-facts.js';
import type { KcpScope } from './scope.js';

/** Cluster API looks again a second after each removal. */
export const ETCD_MEMBER_REMOVED_REQUEUE_SECONDS = 1;

/** The members no expected Node name owns, in the order they are removed (by name, unnamed first). */
export function unexpectedEtcdMembers(members: readonly EtcdMember[], nodeNames: ReadonlySet<string>): EtcdMember[] {
  return members.filter((member) => !nodeNames.has(member.name)).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

export async function reconcileEtcdMembers(scope: KcpScope): Promise<PhaseResult | undefined> {
  const cluster = workloadClusterRefOf(scope);
  if (!cluster || !scope.initialized || isDeleting(scope.object) || !managesEtcd(scope) || scope.machines.length === 0) return undefined;
  if (scope.machines.some((m) => !machineNode(m))) return undefined;
  const expected = new Set(scope.machines.flatMap((m) => machineNode(m)?.name ?? []));
  const listed = scope.etcdMembers ?? (await listThroughFirstAnswering(scope, scope.machines.filter((m) => !isDeleting(m)).flatMap((m) => machineNode(m) ?? [])));
  if (!listed) return undefined;
  const [member, ...others] = unexpectedEtcdMembers(listed.members, expected);
  if (!member) return undefined;
  const name = member.name || '(Name not yet assigned)';
  // An unnamed member never started (a learner, no vote): Cluster API skips the check for it too.
  if (member.name && !(await keepsQuorum(scope, cluster, listed.members, member))) {
    throw new TransientError(`etcd member ${name} does not have a corresponding Machine, it must be removed from the cluster but this operation can lead to quorum loss. Please check the etcd status`);
  }
  await workloadClusterOf(scope.ctx).removeEtcdMember(cluster, listed.through, member.id);
  scope.ctx.logger.info(`removed etcd member ${name} (${member.id}): no Machine owns it${others.length > 0 ? `; ${others.length} more to remove` : ''}`);
  return { requeueAfterSeconds: ETCD_MEMBER_REMOVED_REQUEUE_SECONDS };
}
