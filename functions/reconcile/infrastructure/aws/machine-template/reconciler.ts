/**
 * AWSMachineTemplate (CAPA's awsmachinetemplate controller): `status.capacity` and
 * `status.nodeInfo` for the cluster autoscaler's scale from zero. No finalizer, nothing created
 * in the account: reads only. Woken by its own changes (the Cluster ownerReference arriving) and,
 * as CAPA is, by the creation of a MachineDeployment, MachineSet or KubeadmControlPlane that
 * clones it (their Kubernetes version picks the default image the operating system comes from).
 */

import { AWS_MACHINE_TEMPLATE_KIND } from '../../../../../shared/contracts/providers/aws/aws-kinds.js';
import type { ReconcilerDefinition } from '../../../engine/skeleton/types.js';
import { capacityPhase } from './capacity-phase.js';
import { nodeInfoPhase, TEMPLATE_CLONERS } from './node-info-phase.js';
import { needsStatusPhase, ownerRegionPhase } from './owner-phase.js';
import { type AwsMachineTemplateScope, createAwsMachineTemplateScope } from './scope.js';
import { computeAwsMachineTemplateStatus } from './status.js';

export const awsMachineTemplateReconciler: ReconcilerDefinition<AwsMachineTemplateScope> = {
  kind: AWS_MACHINE_TEMPLATE_KIND,
  watches: TEMPLATE_CLONERS.map((cloner) => ({ kind: cloner.kind, by: 'reference', field: cloner.reference, on: ['INSERT'] })),
  createScope: createAwsMachineTemplateScope,
  phases: [needsStatusPhase, ownerRegionPhase, capacityPhase, nodeInfoPhase],
  deletePhases: [],
  computeStatus: computeAwsMachineTemplateStatus,
};
