/**
 * TopologyReconciled (Cluster API's topology status.go): the first that applies of upgrade in
 * progress or on hold (ClusterUpgrading), only deferred MachineDeployments
 * (MachineDeploymentsUpgradeDeferred), else ReconcileSucceeded. Pure.
 */

import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import { TOPOLOGY_RECONCILED, TopologyReason } from '../../../../shared/contracts/topology/well-known.js';
import type { UpgradeDecision } from './upgrade.js';

const list = (names: readonly string[]) => names.join(', ');

export function topologyReconciledCondition(decision: UpgradeDecision, topologyVersion: string, hookMessages: readonly string[] = []): ConditionInput {
  const messages: string[] = [];
  if (decision.controlPlaneStartingUpgrade || decision.controlPlaneUpgrading) messages.push(`Control plane is upgrading to version ${decision.controlPlaneVersion}`);
  if (decision.controlPlanePendingUpgrade) messages.push(`Control plane rollout and upgrade to version ${topologyVersion} on hold`);
  if (decision.upgrading.length > 0) messages.push(`MachineDeployment(s) ${list(decision.upgrading)} are upgrading`);
  if (decision.pendingUpgrade.length > 0) messages.push(`MachineDeployment(s) ${list(decision.pendingUpgrade)} rollout and upgrade to version ${topologyVersion} on hold`);
  if (decision.pendingCreate.length > 0) messages.push(`MachineDeployment(s) ${list(decision.pendingCreate)} creation on hold`);
  if (hookMessages.length > 0) messages.push(`Following hooks are blocking upgrade: ${hookMessages.join('; ')}`);
  if (messages.length > 0) {
    return { type: TOPOLOGY_RECONCILED, status: 'False', reason: TopologyReason.ClusterUpgrading, message: messages.join('. ') };
  }
  if (decision.deferred.length > 0) {
    return {
      type: TOPOLOGY_RECONCILED,
      status: 'False',
      reason: TopologyReason.MachineDeploymentsUpgradeDeferred,
      message: `MachineDeployment(s) ${list(decision.deferred)} rollout and upgrade to version ${topologyVersion} deferred`,
    };
  }
  return { type: TOPOLOGY_RECONCILED, status: 'True', reason: TopologyReason.Succeeded };
}

export function topologyFailedCondition(reason: string, message: string): ConditionInput {
  return { type: TOPOLOGY_RECONCILED, status: 'False', reason, message };
}
