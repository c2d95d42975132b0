/**
 * The instance metadata service options an AWSMachine's instance is launched with: its
 * `spec.instanceMetadataOptions` with CAPA's defaults (InstanceMetadataOptions.SetDefaults, which
 * CAPA's webhook applies to every AWSMachine): the endpoint enabled, IPv6 and instance tags off, a
 * hop limit of 1, and session tokens optional unless the spec asks for `httpTokens: required`
 * (IMDSv2 only). CAPA sends them on every RunInstances, so the account's or the AMI's own
 * defaults never decide.
 */

import { numberAt, recordAt, stringAt } from '../../../../../shared/contracts/json.js';
import type { InstanceMetadataOptions } from '../../../../../shared/ports/ec2.js';

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
