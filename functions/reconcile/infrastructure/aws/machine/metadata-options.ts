/**
 * The instance metadata service options an AWSMachine's instance is launched with: its
 * `spec.instanceMetadataOptions` with CAPA's defaults (InstanceMetadataOptions.SetDefaults, which
 * CAPA's webhook applies to every AWSMachine): the endpoint enabled, IPv6 and instance tags off, a
 * hop limit of 1, and session tokens optional unless the spec asks for `httpTokens: required`
 * (IMDSv2 only). CAPA sends them on every RunInstances, so the account's or the AMI's own
 * defaults never decide, and puts them back on a running instance whose options EC2 describes
 * otherwise (ensureInstanceMetadataOptions: someone changed them by hand).
 */

import { deepEqual, numberAt, recordAt, stringAt } from '../../../../../shared/contracts/json.js';
import { isCloudApiError } from '../../../../../shared/errors/index.js';
import type { InstanceMetadataOptions } from '../../../../../shared/ports/ec2.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import type { AwsMachineScope } from './scope.js';

const RETRY_SECONDS = 30;

export function instanceMetadataOptions(machineSpec: unknown): InstanceMetadataOptions {
  const options = recordAt(machineSpec, 'instanceMetadataOptions');
  return {
    httpEndpoint: stringAt(options, 'httpEndpoint') === 'disabled' ? 'disabled' : 'enabled',
    httpProtocolIpv6: stringAt(options, 'httpProtocolIpv6') === 'enabled' ? 'enabled' : 'disabled',
    httpPutResponseHopLimit: numberAt(options, 'httpPutResponseHopLimit') || 1,
    httpTokens: stringAt(options, 'httpTokens') === 'required' ? 'required' : 'optional',
    instanceMetadataTags: stringAt(options, 'instanceMetadataTags') === 'enabled' ? 'enabled' : 'disabled',
  };
}

export async function metadataOptionsPhase(s: AwsMachineScope): Promise<PhaseResult> {
  const instance = s.instance;
  if (!instance?.metadataOptions || !s.cloud || (instance.state !== 'running' && instance.state !== 'pending')) return {};
  const wanted = instanceMetadataOptions(s.object.spec);
  if (deepEqual(wanted, instance.metadataOptions)) return {};
  try {
    await s.cloud.ec2.modifyInstanceMetadataOptions(instance.id, wanted);
  } catch (error) {
    if (!isCloudApiError(error)) throw error;
    s.ctx.logger.warn('failed to ensure the instance metadata options; will retry', { instance: instance.id, error: error.message });
    return { requeueAfterSeconds: RETRY_SECONDS };
  }
  return {};
}
