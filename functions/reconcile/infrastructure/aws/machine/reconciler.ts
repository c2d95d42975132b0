/**
 * AWSMachine (CAPA's kind on the v1beta1 InfraMachine contract): an EC2 instance per AWSMachine,
 * never two. Woken by its Machine (bootstrap data, failure domain, nodeRef), by EC2
 * state-change events routed to its queue, and by a requeue while an instance is pending.
 */

import { AWS_CLUSTER_KIND, AWS_MACHINE_KIND } from '../../../../../shared/contracts/providers/aws/aws-kinds.js';
import type { ReconcilerDefinition } from '../../../engine/skeleton/types.js';
import { deleteInstancePhase } from './delete-phases.js';
import { instancePhase } from './instance-phase.js';
import { metadataOptionsPhase } from './metadata-options.js';
import { loadBalancerAttachPhase } from './load-balancer-phase.js';
import { ownersPhase, prerequisitesPhase } from './owners-phase.js';
import { AWS_MACHINE_FINALIZER, type AwsMachineScope, createAwsMachineScope } from './scope.js';
import { secretsCleanupPhase } from './secrets-phase.js';
import { securityGroupsPhase } from './security-groups-phase.js';
import { tagsPhase } from './tags-phase.js';
import { awsMachinesOfStateChange } from './state-change-events.js';
import { computeAwsMachineStatus } from './status.js';
import { adoptingMachineWatch } from '../../../engine/references/adopting-machine-watch.js';

export const awsMachineReconciler: ReconcilerDefinition<AwsMachineScope> = {
  kind: AWS_MACHINE_KIND,
  finalizer: AWS_MACHINE_FINALIZER,
  watches: [
    adoptingMachineWatch('spec.infrastructureRef', ['spec.bootstrap.dataSecretName', 'spec.failureDomain', 'metadata.ownerReferences', 'status.nodeRef']),
    // The cluster's network and readiness (what a waiting AWSMachine needs to launch), and the tags its instances carry.
    { kind: AWS_CLUSTER_KIND, by: 'clusterLabel', changes: ['status.ready', 'status.network', 'status.networkStatus', 'spec.additionalTags'] },
  ],
  createScope: createAwsMachineScope,
  phases: [ownersPhase, prerequisitesPhase, instancePhase, tagsPhase, securityGroupsPhase, metadataOptionsPhase, loadBalancerAttachPhase, secretsCleanupPhase],
  deletePhases: [deleteInstancePhase],
  computeStatus: computeAwsMachineStatus,
  cloudEvents: awsMachinesOfStateChange,
};
