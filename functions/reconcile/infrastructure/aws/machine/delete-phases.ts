/**
 * Deleting an AWSMachine (CAPA's reconcileDelete): secrets first, then the instance found by its
 * recorded id or its tags is taken out of the load balancer, terminated, and waited for until
 * `terminated`; only then does the finalizer go. A recorded id EC2 no longer knows is trusted
 * gone only after it has stayed unknown for 15 minutes (a new instance can be invisible for a
 * while; terminated ones are listed for about an hour), so a lagging read never orphans one.
 */

import { conditionsOf } from '../../../../../shared/contracts/conditions.js';
import { TAG_ROLE } from '../../../../../shared/contracts/providers/aws/aws-tags.js';
import { isCloudApiError } from '../../../../../shared/errors/index.js';
import type { Instance } from '../../../../../shared/ports/ec2.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { cloudFailure } from '../common/cloud-error.js';
import { readClusterNetwork } from '../common/cluster-network.js';
import { describeRecorded, findTaggedInstance, recordedInstanceId } from './instance-lookup.js';
import { API_SERVER_PORT } from './load-balancer-phase.js';
import { loadOwners } from './owners-phase.js';
import { type AwsMachineScope, instanceCondition, INSTANCE_READY } from './scope.js';
import { deleteUserDataSecrets } from './secrets-phase.js';

export const TERMINATION_REQUEUE_SECONDS = 15;
const UNKNOWN_ID_GRACE_SECONDS = 15 * 60;

async function instanceToDelete(s: AwsMachineScope): Promise<Instance | undefined> {
  const ec2 = s.cloud?.ec2;
  if (!ec2) return undefined;
  const recorded = recordedInstanceId(s.object);
  if (!recorded) return s.cluster ? findTaggedInstance(ec2, s.cluster.metadata.name, s.object, s.machine?.metadata.name) : undefined;
  try {
    return await describeRecorded(ec2, recorded);
  } catch (error) {
    if (!isCloudApiError(error) || !error.code.startsWith('InvalidInstanceID.NotFound') || !unknownForLong(s)) throw error;
    return undefined;
  }
}

function unknownForLong(s: AwsMachineScope): boolean {
  const previous = conditionsOf(s.object.status).find((c) => c.type === INSTANCE_READY);
  if (previous?.reason !== 'InstanceNotFound') return false;
  return (s.ctx.clock.now().getTime() - Date.parse(previous.lastTransitionTime)) / 1000 >= UNKNOWN_ID_GRACE_SECONDS;
}

export async function deleteInstancePhase(s: AwsMachineScope): Promise<PhaseResult> {
  await loadOwners(s);
  if (!s.cloud) return {};
  let instance: Instance | undefined;
  try {
    await deleteUserDataSecrets(s);
    instance = await instanceToDelete(s);
    if (!instance || instance.state === 'terminated') {
      instanceCondition(s, 'False', 'Deleted');
      return {};
    }
    await deregister(s, instance);
    if (instance.state !== 'shutting-down') {
      await s.cloud.ec2.terminateInstances([instance.id]);
      // Some EC2s (moto, LocalStack) terminate at once: no need to come back for it.
      const [after] = await s.cloud.ec2.describeInstances({ ids: [instance.id] });
      if (after?.state === 'terminated') {
        instanceCondition(s, 'False', 'Deleted');
        return {};
      }
    }
  } catch (error) {
    const reason = isCloudApiError(error) && error.code.startsWith('InvalidInstanceID.NotFound') ? 'InstanceNotFound' : 'DeletionFailed';
    return cloudFailure(s, INSTANCE_READY, reason, error);
  }
  instanceCondition(s, 'False', 'Deleting', `instance ${instance.id} is terminating`);
  return { stop: true, requeueAfterSeconds: TERMINATION_REQUEUE_SECONDS };
}

async function deregister(s: AwsMachineScope, instance: Instance): Promise<void> {
  const controlPlane = s.controlPlane || instance.tags[TAG_ROLE] === 'control-plane';
  const targetGroupArn = readClusterNetwork(s.awsCluster)?.apiServerLoadBalancer?.targetGroupArn;
  const loadBalancers = s.cloud?.loadBalancers;
  if (!controlPlane || !targetGroupArn || !loadBalancers) return;
  const targets = await loadBalancers.describeTargets(targetGroupArn);
  if (targets.includes(instance.id)) await loadBalancers.deregisterTarget(targetGroupArn, instance.id, API_SERVER_PORT);
}
