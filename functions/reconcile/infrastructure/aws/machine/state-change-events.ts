/**
 * EC2's "EC2 Instance State-change Notification" → the AWSMachine of that instance. The event
 * carries only the instance id and state (no tags), so the instance is described: capless's tag
 * says it is ours, CAPA's Name and MachineName tags name the AWSMachine and its namespace.
 * Anyone else's instance maps to nothing; so does one EC2 no longer knows.
 */

import type { CloudEvent } from '../../../../../shared/contracts/cloud-event-message.js';
import type { ObjectKey } from '../../../../../shared/contracts/object.js';
import { AWS_MACHINE_KIND } from '../../../../../shared/contracts/providers/aws/aws-kinds.js';
import { CAPLESS_MANAGED_TAG, CAPLESS_MANAGED_VALUE, TAG_MACHINE_NAME, TAG_NAME } from '../../../../../shared/contracts/providers/aws/aws-tags.js';
import { isCloudApiError } from '../../../../../shared/errors/index.js';
import type { ReconcileContext } from '../../../engine/skeleton/types.js';
import { awsCloudFor } from '../common/cloud-port.js';

export const EC2_STATE_CHANGE = { source: 'aws.ec2', detailType: 'EC2 Instance State-change Notification' } as const;

export async function awsMachinesOfStateChange(ctx: ReconcileContext, event: CloudEvent): Promise<ObjectKey[]> {
  if (event.source !== EC2_STATE_CHANGE.source || event.detailType !== EC2_STATE_CHANGE.detailType) return [];
  const instanceId = event.detail['instance-id'];
  if (typeof instanceId !== 'string') return [];
  let tags: Readonly<Record<string, string>> | undefined;
  try {
    [{ tags } = { tags: undefined }] = await awsCloudFor(ctx, event.region).ec2.describeInstances({ ids: [instanceId] });
  } catch (error) {
    if (isCloudApiError(error) && error.code.startsWith('InvalidInstanceID.NotFound')) return [];
    throw error;
  }
  if (tags?.[CAPLESS_MANAGED_TAG] !== CAPLESS_MANAGED_VALUE) return [];
  const name = tags[TAG_NAME];
  const namespace = tags[TAG_MACHINE_NAME]?.split('/')[0];
  return name && namespace ? [{ ...AWS_MACHINE_KIND, namespace, name }] : [];
}
