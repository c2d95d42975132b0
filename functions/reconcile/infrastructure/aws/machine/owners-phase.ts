/**
 * AWSMachine: find the Machine that controls it, its Cluster and AWSCluster, the region and the
 * cloud; then wait (no timer: watches deliver the changes) for the cluster infrastructure and the
 * bootstrap data, as CAPA does.
 */

import { booleanAt, stringAt } from '../../../../../shared/contracts/json.js';
import { controllerOf, LABEL_CLUSTER_NAME, LABEL_CONTROL_PLANE } from '../../../../../shared/contracts/object.js';
import { AWS_GROUP } from '../../../../../shared/contracts/providers/aws/aws-kinds.js';
import { CORE_GROUP } from '../../../../../shared/contracts/providers/builtin-providers.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { awsCloudFor } from '../common/cloud-port.js';
import { parseAwsProviderID, regionOfZone } from '../common/cluster-network.js';
import { type AwsMachineScope, instanceCondition } from './scope.js';

/** Reads what exists of Machine, Cluster and AWSCluster; never stops (deletion needs what it can get). */
export async function loadOwners(s: AwsMachineScope): Promise<void> {
  const { namespace } = s.object.metadata;
  const owner = controllerOf(s.object);
  if (owner?.kind === 'Machine') s.machine = await s.ctx.store.get({ group: CORE_GROUP, kind: 'Machine', namespace, name: owner.name });
  s.controlPlane = s.machine?.metadata.labels?.[LABEL_CONTROL_PLANE] !== undefined;
  const clusterName = s.object.metadata.labels?.[LABEL_CLUSTER_NAME] ?? stringAt(s.machine, 'spec', 'clusterName');
  if (clusterName) s.cluster = await s.ctx.store.get({ group: CORE_GROUP, kind: 'Cluster', namespace, name: clusterName });
  const infraName = stringAt(s.cluster, 'spec', 'infrastructureRef', 'name');
  if (infraName && stringAt(s.cluster, 'spec', 'infrastructureRef', 'kind') === 'AWSCluster') {
    s.awsCluster = await s.ctx.store.get({ group: AWS_GROUP, kind: 'AWSCluster', namespace, name: infraName });
  }
  const recorded = parseAwsProviderID(stringAt(s.object, 'spec', 'providerID'));
  s.region = recorded ? regionOfZone(recorded.availabilityZone) : stringAt(s.awsCluster, 'spec', 'region');
  if (s.region) s.cloud = awsCloudFor(s.ctx, s.region);
}

export async function ownersPhase(s: AwsMachineScope): Promise<PhaseResult> {
  await loadOwners(s);
  if (!s.machine) {
    instanceCondition(s, 'False', 'WaitingForMachine', 'no Machine controls this AWSMachine yet');
    return { stop: true };
  }
  if (!s.cluster || !s.awsCluster) {
    instanceCondition(s, 'False', 'WaitingForClusterInfrastructure', 'the Cluster or its AWSCluster does not exist yet');
    return { stop: true };
  }
  if (!s.cloud) {
    instanceCondition(s, 'False', 'WaitingForClusterInfrastructure', 'the AWSCluster names no spec.region');
    return { stop: true };
  }
  return {};
}

/** Before an instance exists: the cluster infrastructure must be ready and the bootstrap data there. */
export function prerequisitesPhase(s: AwsMachineScope): PhaseResult {
  if (stringAt(s.object, 'spec', 'instanceID')) return {};
  if (booleanAt(s.awsCluster, 'status', 'ready') !== true) {
    instanceCondition(s, 'False', 'WaitingForClusterInfrastructure', 'the AWSCluster is not ready yet');
    return { stop: true };
  }
  if (!stringAt(s.machine, 'spec', 'bootstrap', 'dataSecretName')) {
    instanceCondition(s, 'False', 'WaitingForBootstrapData', 'the Machine has no bootstrap data secret yet');
    return { stop: true };
  }
  return {};
}
