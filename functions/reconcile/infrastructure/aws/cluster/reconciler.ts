/**
 * AWSCluster (CAPA's kind on the v1beta1 InfraCluster contract): the cluster's network (managed
 * or the user's own), security groups and control-plane load balancer; `ready` with failure
 * domains and `spec.controlPlaneEndpoint` once they exist.
 */

import { AWS_CLUSTER_KIND, AWS_MACHINE_KIND } from '../../../../../shared/contracts/providers/aws/aws-kinds.js';
import type { PhaseResult, ReconcilerDefinition } from '../../../engine/skeleton/types.js';
import { deleteInfrastructurePhase, waitForMachinesPhase } from './delete-phases.js';
import { gatewaysPhase } from './gateways-phase.js';
import { loadBalancerPhase } from './load-balancer-phase.js';
import { ownerPhase } from './owner-phase.js';
import { AWS_CLUSTER_FINALIZER, type AwsClusterScope, createAwsClusterScope } from './scope.js';
import { securityGroupsPhase } from './security-groups-phase.js';
import { computeAwsClusterStatus } from './status.js';
import { subnetsPhase, vpcPhase } from './vpc-phase.js';

export function readyPhase(s: AwsClusterScope): PhaseResult {
  s.ready = true;
  s.conditions.push({ type: 'Ready', status: 'True', reason: 'Ready' });
  return {};
}

export const awsClusterReconciler: ReconcilerDefinition<AwsClusterScope> = {
  kind: AWS_CLUSTER_KIND,
  finalizer: AWS_CLUSTER_FINALIZER,
  // A deleting AWSCluster waits for its AWSMachines: their removal wakes it (the requeue stays as a net).
  watches: [{ kind: AWS_MACHINE_KIND, by: 'clusterLabel', changes: ['metadata.deletionTimestamp'] }],
  createScope: createAwsClusterScope,
  phases: [ownerPhase, vpcPhase, subnetsPhase, gatewaysPhase, securityGroupsPhase, loadBalancerPhase, readyPhase],
  deletePhases: [waitForMachinesPhase, deleteInfrastructurePhase],
  computeStatus: computeAwsClusterStatus,
};
