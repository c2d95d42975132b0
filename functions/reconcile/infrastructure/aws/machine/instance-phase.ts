/**
 * Find the instance (recorded id, then tags) and launch only when neither finds one; then report
 * its state the way CAPA does. A cloud error becomes `InstanceReady=False` with the AWS code and a
 * requeue with backoff; it never leads to a launch, because every run looks up before launching.
 */

import { stringAt } from '../../../../../shared/contracts/json.js';
import { TerminalError } from '../../../../../shared/errors/index.js';
import type { Instance } from '../../../../../shared/ports/ec2.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { cloudFailure } from '../common/cloud-error.js';
import { describeRecorded, findTaggedInstance, recordedInstanceId } from './instance-lookup.js';
import { launchInstance, recordInstance } from './launch.js';
import { type AwsMachineScope, INSTANCE_READY, instanceCondition } from './scope.js';

/** CAPA requeues a pending instance after 30 s; EC2 state-change events usually come sooner. */
export const PENDING_REQUEUE_SECONDS = 30;

function clusterNameOf(s: AwsMachineScope): string {
  return s.cluster?.metadata.name ?? '';
}

async function findOrLaunch(s: AwsMachineScope): Promise<Instance | undefined> {
  const cloud = s.cloud;
  if (!cloud) return undefined;
  const recorded = recordedInstanceId(s.object);
  if (recorded) return describeRecorded(cloud.ec2, recorded);
  const tagged = await findTaggedInstance(cloud.ec2, clusterNameOf(s), s.object, s.machine?.metadata.name);
  if (tagged) {
    await recordInstance(s, tagged);
    return tagged;
  }
  instanceCondition(s, 'False', 'InstanceProvisionStarted');
  return launchInstance(s, cloud.ec2, clusterNameOf(s));
}

export async function instancePhase(s: AwsMachineScope): Promise<PhaseResult> {
  try {
    s.instance = await findOrLaunch(s);
  } catch (error) {
    const reason = recordedInstanceId(s.object) ? 'InstanceNotFound' : 'InstanceProvisionFailed';
    // A spec EC2 would not launch (market options, placement): said on the Machine, not retried until the spec changes.
    if (error instanceof TerminalError) {
      instanceCondition(s, 'False', reason, error.message);
      s.conditions.push({ type: 'Ready', status: 'False', reason, message: error.message });
      return { stop: true };
    }
    const result = cloudFailure(s, INSTANCE_READY, reason, error);
    const failed = s.conditions.at(-1);
    if (failed) s.conditions.push({ ...failed, type: 'Ready' });
    return result;
  }
  if (!s.instance) {
    instanceCondition(s, 'Unknown', 'InstanceNotFound', `instance ${recordedInstanceId(s.object) ?? ''} is not known to EC2`);
    return { stop: true, requeueAfterSeconds: PENDING_REQUEUE_SECONDS };
  }
  return stateResult(s, s.instance);
}

function stateResult(s: AwsMachineScope, instance: Instance): PhaseResult {
  switch (instance.state) {
    case 'pending':
      instanceCondition(s, 'False', 'InstanceNotReady', `instance ${instance.id} is pending`);
      return { requeueAfterSeconds: PENDING_REQUEUE_SECONDS };
    case 'running':
      instanceCondition(s, 'True', 'InstanceRunning');
      return {};
    case 'stopping':
    case 'stopped':
      instanceCondition(s, 'False', 'InstanceStopped', `instance ${instance.id} is ${instance.state}`);
      return {};
    default:
      instanceCondition(s, 'False', 'InstanceTerminated', `instance ${instance.id} is ${instance.state}`);
      if (instance.state === 'terminated') s.failure = { reason: 'UpdateError', message: `EC2 instance state "${instance.state}" is unexpected` };
      return {};
  }
}

/** The instance's providerID as recorded (set by recordInstance when found or launched). */
export function providerIDOf(s: AwsMachineScope): string | undefined {
  return stringAt(s.object, 'spec', 'providerID');
}
