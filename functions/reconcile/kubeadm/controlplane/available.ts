/**
 * A KubeadmControlPlane's `Available`, as Cluster API's setAvailableCondition decides it: the
 * control plane is initialized, not being deleted, its certificates are there, at least one
 * provisioned Machine runs healthy control-plane components (and, with a stacked etcd, a healthy
 * etcd Pod and member), and a quorum of etcd's voting members is healthy, with etcd's members
 * matching the Machines' Nodes. What is wrong but not fatal goes in the message of a True
 * condition. Pure.
 *
 * Cluster API leaves out of the counts, for ten seconds, a condition that just stopped being True;
 * here a Machine's conditions are this reconcile's, so any that is not True counts.
 */

import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import type { EtcdMember } from '../../../../shared/ports/workload-cluster.js';

/** What the health phase learned of one Machine (control-plane-health.ts). */
export interface MachineHealth {
  /** spec.providerID set. */
  provisioned: boolean;
  nodeName?: string;
  /** Every component condition True (with a stacked etcd, EtcdPodHealthy and EtcdMemberHealthy too). */
  componentsHealthy: boolean;
  etcdMemberHealthy: boolean;
}

export interface ControlPlaneHealth {
  machines: readonly MachineHealth[];
  /** With a stacked etcd: its members (undefined when etcd could not be asked) and whether they match the Nodes. */
  etcd?: { members?: readonly EtcdMember[]; matching: boolean };
}

export interface AvailabilityInputs {
  initialized: boolean;
  /** When the control plane's Initialized condition last became True. */
  initializedSince?: string;
  now: Date;
  deleting: boolean;
  certificatesAvailable: boolean;
  /** Undefined when the workload cluster was not asked this reconcile. */
  health?: ControlPlaneHealth;
}

/** How long after initialization etcd's member list may still be missing without it being a failure. */
const MEMBER_LIST_GRACE_MS = 2 * 60 * 1000;

const available = (status: ConditionInput['status'], reason: string, message: string): ConditionInput => ({ type: 'Available', status, reason, ...(message ? { message } : {}) });

interface EtcdCounts {
  members: number;
  voting: number;
  learners: number;
  healthy: number;
  notHealthy: number;
  quorum: number;
}

function countEtcd(health: ControlPlaneHealth, members: readonly EtcdMember[]): EtcdCounts {
  const byNode = new Map(health.machines.flatMap((m) => (m.nodeName === undefined ? [] : [[m.nodeName, m] as const])));
  let provisioning = health.machines.filter((m) => m.nodeName === undefined);
  const counts = { members: members.length, voting: 0, learners: 0, healthy: 0, notHealthy: 0, quorum: 0 };
  for (const member of members) {
    if (member.isLearner || member.name === '') counts.learners += 1;
    else counts.voting += 1;
    // A member not named yet is a Machine joining: counted healthy, as Cluster API does.
    if (member.name === '') {
      counts.healthy += 1;
      continue;
    }
    let machine = byNode.get(member.name);
    if (!machine && provisioning.length === 1) {
      machine = provisioning[0];
      provisioning = [];
    }
    if (machine?.etcdMemberHealthy) counts.healthy += 1;
    else counts.notHealthy += 1;
  }
  counts.quorum = Math.floor(counts.voting / 2) + 1;
  return counts;
}

function etcdMessage(healthy: number, counts: EtcdCounts): string {
  const learners = counts.learners > 0 ? ` ${counts.learners} learner etcd member,` : '';
  if (healthy === 0) return `* There are no healthy etcd member,${learners} at least ${counts.quorum} healthy member required for etcd quorum`;
  const of = healthy === 1 ? `1 of ${counts.members} etcd members is healthy` : `${healthy} of ${counts.members} etcd members are healthy`;
  return `* ${of},${learners} at least ${counts.quorum} healthy member required for etcd quorum`;
}

function componentsMessage(healthy: number, machines: number): string {
  return healthy === 1 ? `* 1 of ${machines} Machines has healthy control plane components, at least 1 required` : `* ${healthy} of ${machines} Machines have healthy control plane components, at least 1 required`;
}

/** What decides before anything is counted (not initialized, not inspected, etcd not listed or not matching), or the health to count. */
function precondition(inputs: AvailabilityInputs): { decided: ConditionInput } | { health: ControlPlaneHealth } {
  const { health } = inputs;
  if (!inputs.initialized) return { decided: available('False', 'NotAvailable', 'Control plane not yet initialized') };
  if (!health) return { decided: available('Unknown', 'InspectionFailed', 'The workload cluster was not inspected') };
  if (health.etcd && !health.etcd.members) {
    const recent = inputs.initializedSince !== undefined && inputs.now.getTime() - Date.parse(inputs.initializedSince) < MEMBER_LIST_GRACE_MS;
    return { decided: recent ? available('False', 'NotAvailable', 'Waiting for etcd to report the list of members') : available('Unknown', 'InspectionFailed', 'Failed to get etcd members') };
  }
  if (health.etcd && !health.etcd.matching) return { decided: available('False', 'NotAvailable', 'The list of etcd members does not match the list of Machines and Nodes') };
  return { health };
}

export function availableCondition(inputs: AvailabilityInputs): ConditionInput {
  const checked = precondition(inputs);
  if ('decided' in checked) return checked.decided;
  const { health } = checked;
  const provisioned = health.machines.filter((m) => m.provisioned);
  const componentsHealthy = provisioned.filter((m) => m.componentsHealthy).length;
  const counts = health.etcd?.members ? countEtcd(health, health.etcd.members) : undefined;
  const quorate = !counts || counts.healthy >= counts.quorum;
  if (!inputs.deleting && quorate && componentsHealthy >= 1 && inputs.certificatesAvailable) {
    const messages = [
      ...(counts && counts.notHealthy > 0 ? [etcdMessage(counts.healthy, counts)] : []),
      ...(componentsHealthy < provisioned.length ? [componentsMessage(componentsHealthy, health.machines.length)] : []),
    ];
    return available('True', 'Available', messages.join('\n'));
  }
  const messages = [
    ...(inputs.deleting ? ['* Control plane metadata.deletionTimestamp is set'] : []),
    ...(inputs.certificatesAvailable ? [] : ['* Control plane certificates are not available']),
    ...(counts && !quorate ? [etcdMessage(counts.healthy, counts)] : []),
    ...(componentsHealthy < 1 ? ['* There are no Machines with healthy control plane components, at least 1 required'] : []),
  ];
  return available('False', 'NotAvailable', messages.join('\n'));
}
