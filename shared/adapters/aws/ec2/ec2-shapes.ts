/** Conversions between EC2's wire shapes and the port's plain data. */

import {
  type BlockDeviceMapping,
  type Filter as SdkFilter,
  type Instance as SdkInstance,
  type InstanceMetadataOptionsRequest,
  type InstanceMetadataOptionsResponse,
  type Placement,
  type Tag,
  type TagSpecification,
  VolumeType,
  _InstanceType,
} from '@aws-sdk/client-ec2';
import { CloudApiError } from '../../../errors/index.js';
import type { Tags } from '../../../contracts/providers/aws/aws-tags.js';
import type { BlockDeviceVolume, Filter, Instance, InstanceMetadataOptions, InstancePlacement, InstanceState, IngressRule, Query } from '../../../ports/ec2.js';

export function tagsOf(tags: readonly Tag[] | undefined): Tags {
  const result: Record<string, string> = {};
  for (const tag of tags ?? []) if (tag.Key !== undefined) result[tag.Key] = tag.Value ?? '';
  return result;
}

export function tagList(tags: Tags): Tag[] {
  return Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
}

export function tagSpecifications(resourceType: TagSpecification['ResourceType'], tags: Tags): TagSpecification[] {
  return [{ ResourceType: resourceType, Tags: tagList(tags) }];
}

export function filtersOf(filters: readonly Filter[] | undefined): SdkFilter[] | undefined {
  return filters && filters.length > 0 ? filters.map((f) => ({ Name: f.name, Values: [...f.values] })) : undefined;
}

export function queryInput(query: Query, idsField: string): Record<string, unknown> {
  return {
    ...(query.ids && query.ids.length > 0 ? { [idsField]: [...query.ids] } : {}),
    ...(query.filters && query.filters.length > 0 ? { Filters: filtersOf(query.filters) } : {}),
  };
}

const STATES: readonly InstanceState[] = ['pending', 'running', 'shutting-down', 'terminated', 'stopping', 'stopped'];

function stateOf(name: string | undefined): InstanceState {
  return STATES.find((s) => s === name) ?? 'pending';
}

export function instanceOf(instance: SdkInstance): Instance {
  return {
    id: instance.InstanceId ?? '',
    state: stateOf(instance.State?.Name),
    ...(instance.Placement?.AvailabilityZone ? { availabilityZone: instance.Placement.AvailabilityZone } : {}),
    ...(instance.SubnetId ? { subnetId: instance.SubnetId } : {}),
    ...(instance.VpcId ? { vpcId: instance.VpcId } : {}),
    ...(instance.ImageId ? { imageId: instance.ImageId } : {}),
    ...(instance.InstanceType ? { instanceType: String(instance.InstanceType) } : {}),
    ...(instance.PrivateIpAddress ? { privateIp: instance.PrivateIpAddress } : {}),
    ...(instance.PrivateDnsName ? { privateDnsName: instance.PrivateDnsName } : {}),
    ...(instance.PublicIpAddress ? { publicIp: instance.PublicIpAddress } : {}),
    ...(instance.PublicDnsName ? { publicDnsName: instance.PublicDnsName } : {}),
    securityGroupIds: (instance.SecurityGroups ?? []).flatMap((g) => (g.GroupId ? [g.GroupId] : [])),
    ...(instance.IamInstanceProfile?.Arn ? { iamInstanceProfileArn: instance.IamInstanceProfile.Arn } : {}),
    ...(instance.MetadataOptions ? { metadataOptions: metadataOptionsOf(instance.MetadataOptions) } : {}),
    volumeIds: (instance.BlockDeviceMappings ?? []).flatMap((mapping) => mapping.Ebs?.VolumeId ?? []),
    ...(instance.InstanceLifecycle === 'spot' ? { lifecycle: 'spot' as const } : {}),
    ...placementOf(instance.Placement),
    tags: tagsOf(instance.Tags),
  };
}

const TENANCIES = ['default', 'dedicated', 'host'] as const;

/** The instance's tenancy (when not the default) and placement group, as EC2 reports them. */
function placementOf(placement: SdkInstance['Placement']): { placement?: InstancePlacement } {
  const tenancy = TENANCIES.find((t) => t === placement?.Tenancy && t !== 'default');
  const found: InstancePlacement = {
    ...(tenancy ? { tenancy } : {}),
    ...(placement?.GroupName ? { groupName: placement.GroupName } : {}),
    ...(placement?.PartitionNumber !== undefined ? { partitionNumber: placement.PartitionNumber } : {}),
  };
  return Object.keys(found).length > 0 ? { placement: found } : {};
}

export function placementRequest(placement: InstancePlacement): Placement {
  return {
    ...(placement.tenancy ? { Tenancy: placement.tenancy } : {}),
    ...(placement.groupName ? { GroupName: placement.groupName } : {}),
    ...(placement.partitionNumber !== undefined ? { PartitionNumber: placement.partitionNumber } : {}),
  };
}

/** EC2's answer, with EC2's defaults for what it leaves out. */
function metadataOptionsOf(options: InstanceMetadataOptionsResponse): InstanceMetadataOptions {
  return {
    httpEndpoint: options.HttpEndpoint === 'disabled' ? 'disabled' : 'enabled',
    httpProtocolIpv6: options.HttpProtocolIpv6 === 'enabled' ? 'enabled' : 'disabled',
    httpPutResponseHopLimit: options.HttpPutResponseHopLimit ?? 1,
    httpTokens: options.HttpTokens === 'required' ? 'required' : 'optional',
    instanceMetadataTags: options.InstanceMetadataTags === 'enabled' ? 'enabled' : 'disabled',
  };
}

export function metadataOptionsRequest(options: InstanceMetadataOptions): InstanceMetadataOptionsRequest {
  return {
    HttpEndpoint: options.httpEndpoint,
    HttpProtocolIpv6: options.httpProtocolIpv6,
    HttpPutResponseHopLimit: options.httpPutResponseHopLimit,
    HttpTokens: options.httpTokens,
    InstanceMetadataTags: options.instanceMetadataTags,
  };
}

const VOLUME_TYPES: ReadonlySet<string> = new Set(Object.values(VolumeType));

function isVolumeType(name: string): name is VolumeType {
  return VOLUME_TYPES.has(name);
}

/** A volume type the SDK knows; any other is refused as EC2 refuses it. */
function volumeType(name: string): VolumeType {
  if (isVolumeType(name)) return name;
  throw new CloudApiError('RunInstances', 'InvalidParameterValue', `Value (${name}) for parameter volumeType is invalid.`);
}

/** CAPA's volumeToBlockDeviceMapping: deleted with the instance; a KMS key means encrypted. */
export function blockDeviceMapping(volume: BlockDeviceVolume): BlockDeviceMapping {
  return {
    DeviceName: volume.deviceName,
    Ebs: {
      DeleteOnTermination: true,
      VolumeSize: volume.sizeGiB,
      ...(volume.type ? { VolumeType: volumeType(volume.type) } : {}),
      ...(volume.iops ? { Iops: volume.iops } : {}),
      ...(volume.throughput ? { Throughput: volume.throughput } : {}),
      ...(volume.encrypted !== undefined || volume.kmsKeyId ? { Encrypted: volume.encrypted === true || Boolean(volume.kmsKeyId) } : {}),
      ...(volume.kmsKeyId ? { KmsKeyId: volume.kmsKeyId } : {}),
    },
  };
}

const INSTANCE_TYPES: ReadonlySet<string> = new Set(Object.values(_InstanceType));

function isInstanceType(name: string): name is _InstanceType {
  return INSTANCE_TYPES.has(name);
}

/** An instance type the SDK knows; any other is refused as EC2 refuses it. */
export function instanceType(name: string): _InstanceType {
  if (isInstanceType(name)) return name;
  throw new CloudApiError('RunInstances', 'InvalidParameterValue', `Invalid value '${name}' for InstanceType.`);
}

/** Instance types to describe; names the SDK does not know are refused as DescribeInstanceTypes refuses them. */
export function describableInstanceTypes(names: readonly string[]): _InstanceType[] {
  const unknown = names.filter((name) => !isInstanceType(name));
  if (unknown.length > 0) throw new CloudApiError('DescribeInstanceTypes', 'InvalidInstanceType', `The following supplied instance types do not exist: [${unknown.join(', ')}]`);
  return names.filter(isInstanceType);
}

export function ipPermission(rule: IngressRule) {
  return {
    IpProtocol: rule.protocol,
    FromPort: rule.fromPort,
    ToPort: rule.toPort,
    ...(rule.cidrBlocks ? { IpRanges: rule.cidrBlocks.map((CidrIp) => ({ CidrIp, ...(rule.description ? { Description: rule.description } : {}) })) } : {}),
    ...(rule.sourceSecurityGroupIds
      ? { UserIdGroupPairs: rule.sourceSecurityGroupIds.map((GroupId) => ({ GroupId, ...(rule.description ? { Description: rule.description } : {}) })) }
      : {}),
  };
}
