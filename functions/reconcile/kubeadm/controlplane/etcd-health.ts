/**
 * The health of each control-plane Machine's etcd member, as Cluster API's KubeadmControlPlane
 * reports it (workload_cluster_conditions.go updateManagedEtcdConditions and
 * compareMachinesAndMembers): `EtcdMemberHealthy` on the Machine is True when etcd lists a voting
 * member named after its Node with no alarm raised on it; a learner, an alarm or a missing member
 * is False. A member no Machine's Node is named after is the control plane's own error, which
 * makes `EtcdClusterHealthy` False. Pure.
 */

import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import type { EtcdAlarm, EtcdMember } from '../../../../shared/ports/workload-cluster.js';
import type { NodeView } from './component-health.js';

export const CONDITION_ETCD_MEMBER_HEALTHY = 'EtcdMemberHealthy';

/** What etcd said when asked, or why it could not be asked. */
export type EtcdView =
  | { state: 'listed'; members: readonly EtcdMember[]; alarms: readonly EtcdAlarm[] }
  | { state: 'failed'; reason: 'InspectionFailed' | 'ConnectionDown'; message: string };

export interface EtcdMachine {
  name: string;
  node: NodeView;
  /** status.nodeRef.name, when the Machine has a Node (deleting ones included). */
  nodeName?: string;
}

function condition(status: ConditionInput['status'], reason: string, message?: string): ConditionInput {
  return { type: CONDITION_ETCD_MEMBER_HEALTHY, status, reason, ...(message ? { message } : {}) };
}

/**
 * Cluster API sets a Machine's condition from its member, then overrides it for every Machine
 * whose Node has no member (compareMachinesAndMembers, deleting Machines included): that case is
 * decided first here, so each Machine's condition is set once.
 */
function memberCondition(machine: EtcdMachine, etcd: EtcdView): ConditionInput {
  const { node, nodeName } = machine;
  const member = etcd.state === 'listed' ? etcd.members.find((m) => m.name === nodeName) : undefined;
  if (etcd.state === 'listed' && nodeName !== undefined && !member) return condition('False', 'NotHealthy', `Etcd doesn't have an etcd member for Node ${nodeName}`);
  if (node.state === 'noNode') return condition('Unknown', 'InspectionFailed', node.waitingFor);
  if (node.state === 'deleting') return condition('False', 'Deleting', 'Machine is deleting');
  if (etcd.state === 'failed') return condition('Unknown', etcd.reason, etcd.message);
  // Listed with no member here means no Node name to look for.
  if (!member) return condition('Unknown', 'InspectionFailed', 'The Machine has no Node');
  if (member.isLearner) return condition('False', 'NotHealthy', 'Waiting for learner etcd member to be promoted');
  const alarms = etcd.alarms.filter((a) => a.memberId === member.id).map((a) => a.alarm);
  if (alarms.length > 0) return condition('False', 'NotHealthy', `Etcd reports alarms: ${alarms.join(', ')}`);
  return condition('True', 'Healthy');
}

export interface EtcdHealth {
  /** EtcdMemberHealthy by Machine name. */
  machines: Map<string, ConditionInput>;
  /** The control plane's own errors: members no Machine has. */
  errors: string[];
  /** The members etcd listed; undefined when it could not be asked. */
  members?: readonly EtcdMember[];
  /**
   * Whether the members and the Machines' Nodes match (compareMachinesAndMembers): no Node older
   * than two minutes of a Machine not deleting lacks a member, and no member lacks a Machine
   * unless one is still provisioning (that member may be its).
   */
  matching: boolean;
}

/** A Node this young may not have its etcd member listed yet (kubeadm join adds it after the kubelet registers). */
const NEW_NODE_GRACE_MS = 2 * 60 * 1000;

function matches(machines: readonly EtcdMachine[], members: readonly EtcdMember[], now: Date): boolean {
  const old = (node: NodeView) => node.state !== 'running' || node.createdAt === undefined || now.getTime() - Date.parse(node.createdAt) > NEW_NODE_GRACE_MS;
  const memberless = machines.some((m) => m.nodeName !== undefined && m.node.state !== 'deleting' && old(m.node) && !members.some((member) => member.name === m.nodeName));
  const provisioning = machines.some((m) => m.nodeName === undefined);
  const machineless = members.some((member) => !machines.some((m) => m.nodeName === member.name));
  return !memberless && (provisioning || !machineless);
}

export function etcdHealth(machines: readonly EtcdMachine[], etcd: EtcdView, now: Date): EtcdHealth {
  const conditions = new Map(machines.map((m) => [m.name, memberCondition(m, etcd)]));
  if (etcd.state !== 'listed') return { machines: conditions, errors: [], matching: !machines.some((m) => m.nodeName !== undefined) };
  const nodeNames = new Set(machines.flatMap((m) => m.nodeName ?? []));
  const errors = etcd.members
    .filter((member) => !nodeNames.has(member.name))
    .map((member) => `Etcd member ${member.name || `${member.id} (Name not yet assigned)`} does not have a corresponding Machine`);
  return { machines: conditions, errors, members: etcd.members, matching: matches(machines, etcd.members, now) };
}
