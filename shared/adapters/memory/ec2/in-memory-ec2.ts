/**
 * An in-memory EC2 for tests and benchmarks: the network and security groups plus instances. Instances start
 * `pending` and are `running` from the next describe; terminated ones go `shutting-down` then
 * `terminated` and stay listed, as on EC2. Options model what differs between EC2 and moto:
 * `honourClientToken` (EC2 deduplicates RunInstances on it, moto does not) and
 * `describeLagCalls` (eventual consistency: a new instance is invisible to that many describes).
 */

import type { Tags } from '../../../contracts/providers/aws/aws-tags.js';
import { CloudApiError } from '../../../errors/index.js';
import type { BlockDeviceVolume, Ec2, Filter, Image, Instance, InstanceMetadataOptions, InstanceState, InstanceTypeInfo, NetworkInterface, Query, RunInstanceRequest } from '../../../ports/ec2.js';
import { select } from './filters.js';
import type { InMemoryNetworkOptions } from './in-memory-network.js';
import { KNOWN_INSTANCE_TYPES } from './instance-types.js';
import { InMemoryEc2SecurityGroups } from './in-memory-security-groups.js';

export interface InMemoryEc2Options extends Partial<InMemoryNetworkOptions> {
  /** Default true (EC2's behaviour); false behaves like moto. */
  honourClientToken?: boolean;
  /** Describes (by id or filter) that miss a new instance. Default 0. */
  describeLagCalls?: number;
  /** Instance profiles that exist (RunInstances fails on any other). Default: any name is accepted. */
  instanceProfiles?: readonly string[];
  /** Instance types offered (RunInstances fails on any other, DescribeInstanceTypes knows only these of its catalogue). Default: any. */
  instanceTypes?: readonly string[];
}

interface StoredInstance extends Instance {
  clientToken: string;
  userData: string;
  volumes: BlockDeviceVolume[];
  hiddenFor: number;
}

const TRANSITIONS: Partial<Record<InstanceState, InstanceState>> = { pending: 'running', 'shutting-down': 'terminated', stopping: 'stopped' };

export class InMemoryEc2 extends InMemoryEc2SecurityGroups implements Ec2 {
  readonly instances = new Map<string, StoredInstance>();
  /** The tags of the instances' EBS volumes, by volume id. */
  readonly volumeTags = new Map<string, Record<string, string>>();
  readonly images = new Map<string, Image & { tags: Record<string, string> }>();
  private readonly honourClientToken: boolean;
  private readonly describeLagCalls: number;
  private readonly instanceProfiles: ReadonlySet<string> | undefined;
  private readonly instanceTypes: ReadonlySet<string> | undefined;

  constructor(options: InMemoryEc2Options = {}) {
    super({ region: options.region ?? 'us-east-1', ...(options.zones ? { zones: options.zones } : {}) });
    this.honourClientToken = options.honourClientToken ?? true;
    this.describeLagCalls = options.describeLagCalls ?? 0;
    this.instanceProfiles = options.instanceProfiles ? new Set(options.instanceProfiles) : undefined;
    this.instanceTypes = options.instanceTypes ? new Set(options.instanceTypes) : undefined;
  }

  async describeInstances(query: Query): Promise<Instance[]> {
    const visible = [...this.instances.values()].filter((i) => i.hiddenFor === 0);
    for (const instance of this.instances.values()) if (instance.hiddenFor > 0) instance.hiddenFor--;
    const selected = select(
      visible,
      (i) => i.id,
      query,
      (i, name) =>
        ({
          'instance-state-name': [i.state],
          'instance-id': [i.id],
          'subnet-id': [i.subnetId],
          'vpc-id': [i.vpcId],
          'availability-zone': [i.availabilityZone],
          'client-token': [i.clientToken],
        })[name],
      'DescribeInstances',
      'InvalidInstanceID.NotFound',
    );
    const result = selected.map(publicView);
    for (const instance of selected) this.advance(instance);
    return result;
  }

  async describeImages(request: { owners: readonly string[]; filters: readonly Filter[] }): Promise<Image[]> {
    const owned = [...this.images.values()].filter((i) => request.owners.length === 0 || request.owners.includes(i.ownerId));
    return select(
      owned,
      (i) => i.id,
      { filters: request.filters },
      (i, name) =>
        ({ 'image-id': [i.id], name: [i.name], architecture: [i.architecture], state: ['available'], 'virtualization-type': ['hvm'], 'owner-id': [i.ownerId] })[name],
      'DescribeImages',
      'InvalidAMIID.NotFound',
    ).map(({ tags: _tags, ...image }) => structuredClone(image));
  }

  async describeInstanceTypes(instanceTypes: readonly string[]): Promise<InstanceTypeInfo[]> {
    const offered = (name: string) => KNOWN_INSTANCE_TYPES.has(name) && (!this.instanceTypes || this.instanceTypes.has(name));
    const unknown = instanceTypes.filter((name) => !offered(name));
    if (unknown.length > 0) {
      throw new CloudApiError('DescribeInstanceTypes', 'InvalidInstanceType', `The following supplied instance types do not exist: [${unknown.join(', ')}]`);
    }
    return [...new Set(instanceTypes)].flatMap((name) => structuredClone(KNOWN_INSTANCE_TYPES.get(name) ?? []));
  }

  /** Registers an image (what RegisterImage does), for AMI lookups; its root is `/dev/sda1`, 8 GiB, unless it says otherwise. */
  registerImage(image: Omit<Image, 'id'>): string {
    const id = this.ids.next('ami');
    this.images.set(id, { rootDeviceName: '/dev/sda1', rootSnapshotSizeGiB: 8, ...image, id, tags: {} });
    return id;
  }

  async runInstance(request: RunInstanceRequest): Promise<Instance> {
    if (this.honourClientToken) {
      const earlier = [...this.instances.values()].find((i) => i.clientToken === request.clientToken);
      if (earlier) return publicView(earlier);
    }
    const subnet = this.subnet('RunInstances', request.subnetId);
    this.refuseInvalidLaunch(request, subnet);
    const n = this.instances.size + 1;
    const instance: StoredInstance = {
      id: this.ids.next('i'),
      state: 'pending',
      availabilityZone: subnet.availabilityZone,
      subnetId: subnet.id,
      vpcId: subnet.vpcId,
      imageId: request.imageId,
      instanceType: request.instanceType,
      privateIp: `10.0.${(n >> 8) & 0xff}.${n & 0xff}`,
      privateDnsName: `ip-10-0-${(n >> 8) & 0xff}-${n & 0xff}.ec2.internal`,
      securityGroupIds: [...request.securityGroupIds],
      ...(request.iamInstanceProfile ? { iamInstanceProfileArn: `arn:aws:iam::123456789012:instance-profile/${request.iamInstanceProfile}` } : {}),
      // EC2 applies what RunInstances asked for, else its own defaults (IMDSv1 allowed, one hop).
      metadataOptions: request.metadataOptions ?? { httpEndpoint: 'enabled', httpProtocolIpv6: 'disabled', httpPutResponseHopLimit: 1, httpTokens: 'optional', instanceMetadataTags: 'disabled' },
      tags: { ...request.tags },
      ...(request.spot ? { lifecycle: 'spot' as const } : {}),
      ...(request.placement ? { placement: { ...request.placement } } : {}),
      // One EBS volume per block device asked for, or the image's root volume.
      volumeIds: Array.from({ length: Math.max(1, request.volumes?.length ?? 0) }, () => this.ids.next('vol')),
      clientToken: request.clientToken,
      userData: request.userData,
      volumes: structuredClone([...(request.volumes ?? [])]),
      hiddenFor: this.describeLagCalls,
    };
    this.instances.set(instance.id, instance);
    for (const volumeId of instance.volumeIds ?? []) this.volumeTags.set(volumeId, { ...request.tags });
    return publicView(instance);
  }

  /** What RunInstances refuses before it launches anything, with EC2's codes. */
  private refuseInvalidLaunch(request: RunInstanceRequest, subnet: { id: string; vpcId: string }): void {
    for (const groupId of request.securityGroupIds) {
      const group = this.securityGroups.get(groupId);
      if (!group) throw new CloudApiError('RunInstances', 'InvalidGroup.NotFound', `The security group '${groupId}' does not exist`);
      if (group.vpcId !== subnet.vpcId) throw new CloudApiError('RunInstances', 'InvalidParameter', `Security group ${groupId} and subnet ${subnet.id} belong to different networks.`);
    }
    if (request.iamInstanceProfile && this.instanceProfiles && !this.instanceProfiles.has(request.iamInstanceProfile)) {
      throw new CloudApiError('RunInstances', 'InvalidParameterValue', `Value (${request.iamInstanceProfile}) for parameter iamInstanceProfile.name is invalid. Invalid IAM Instance Profile name`);
    }
    if (this.instanceTypes && !this.instanceTypes.has(request.instanceType)) {
      throw new CloudApiError('RunInstances', 'InvalidParameterValue', `Invalid value '${request.instanceType}' for InstanceType.`);
    }
    if (!/^ami-[0-9a-f]+$/.test(request.imageId)) throw new CloudApiError('RunInstances', 'InvalidAMIID.Malformed', `Invalid id: "${request.imageId}"`);
  }

  async terminateInstances(ids: readonly string[]): Promise<void> {
    const missing = ids.filter((id) => !this.instances.has(id));
    if (missing.length > 0) throw new CloudApiError('TerminateInstances', 'InvalidInstanceID.NotFound', `The instance ID '${missing.join(', ')}' does not exist`);
    for (const id of ids) {
      const instance = this.instances.get(id);
      if (instance && instance.state !== 'terminated') instance.state = 'shutting-down';
    }
  }

  async updateResourceTags(resourceId: string, change: { create: Tags; delete: Tags }): Promise<void> {
    const tags = this.instances.get(resourceId)?.tags ?? this.volumeTags.get(resourceId);
    if (!tags) {
      const code = resourceId.startsWith('vol-') ? 'InvalidVolume.NotFound' : 'InvalidInstanceID.NotFound';
      throw new CloudApiError('CreateTags', code, `The ID '${resourceId}' does not exist`);
    }
    // DeleteTags with a value removes the tag only while it has that value.
    const kept = Object.fromEntries(Object.entries({ ...tags, ...change.create }).filter(([key, value]) => change.delete[key] !== value));
    const instance = this.instances.get(resourceId);
    if (instance) instance.tags = kept;
    else this.volumeTags.set(resourceId, kept);
  }

  async modifyInstanceMetadataOptions(instanceId: string, options: InstanceMetadataOptions): Promise<void> {
    const instance = this.instances.get(instanceId);
    if (!instance) throw new CloudApiError('ModifyInstanceMetadataOptions', 'InvalidInstanceID.NotFound', `The instance ID '${instanceId}' does not exist`);
    instance.metadataOptions = { ...options };
  }

  async describeVolumes(ids: readonly string[]): Promise<{ id: string; tags: Tags }[]> {
    const missing = ids.find((id) => !this.volumeTags.has(id));
    if (missing) throw new CloudApiError('DescribeVolumes', 'InvalidVolume.NotFound', `The volume '${missing}' does not exist.`);
    return ids.map((id) => ({ id, tags: { ...this.volumeTags.get(id) } }));
  }

  /** One network interface per instance (`eni-` and the instance's hex), carrying the instance's groups. */
  async describeInstanceNetworkInterfaces(instanceId: string): Promise<NetworkInterface[]> {
    const instance = this.instances.get(instanceId);
    if (!instance || instance.state === 'terminated') return [];
    return [{ id: networkInterfaceIdOf(instance.id), securityGroupIds: [...instance.securityGroupIds] }];
  }

  async setNetworkInterfaceSecurityGroups(networkInterfaceId: string, groupIds: readonly string[]): Promise<void> {
    const instance = [...this.instances.values()].find((i) => networkInterfaceIdOf(i.id) === networkInterfaceId && i.state !== 'terminated');
    if (!instance) throw new CloudApiError('ModifyNetworkInterfaceAttribute', 'InvalidNetworkInterfaceID.NotFound', `The networkInterface ID '${networkInterfaceId}' does not exist`);
    for (const groupId of groupIds) {
      const group = this.securityGroups.get(groupId);
      if (!group || group.vpcId !== instance.vpcId) throw new CloudApiError('ModifyNetworkInterfaceAttribute', 'InvalidGroup.NotFound', `The security group '${groupId}' does not exist in VPC '${instance.vpcId ?? ''}'`);
    }
    instance.securityGroupIds = [...groupIds];
  }

  /** The volumes RunInstances attached to the instance, as asked for. */
  volumesOf(instanceId: string): BlockDeviceVolume[] | undefined {
    return structuredClone(this.instances.get(instanceId)?.volumes);
  }

  /** The user data an instance was launched with (base64), as the instance metadata service would serve it. */
  userDataOf(instanceId: string): string | undefined {
    return this.instances.get(instanceId)?.userData;
  }

  /** Sets an instance's state, as EC2 would on its own (a stop, a spot interruption). */
  setInstanceState(instanceId: string, state: InstanceState): void {
    const instance = this.instances.get(instanceId);
    if (instance) instance.state = state;
  }

  protected override subnetInUse(subnetId: string): boolean {
    return super.subnetInUse(subnetId) || [...this.instances.values()].some((i) => i.subnetId === subnetId && i.state !== 'terminated');
  }

  protected override securityGroupInUse(groupId: string): boolean {
    return [...this.instances.values()].some((i) => i.state !== 'terminated' && i.securityGroupIds.includes(groupId));
  }

  private advance(instance: StoredInstance): void {
    const next = TRANSITIONS[instance.state];
    if (next) instance.state = next;
  }
}

function publicView(instance: StoredInstance): Instance {
  const { clientToken: _token, userData: _userData, volumes: _volumes, hiddenFor: _hidden, ...rest } = instance;
  return structuredClone(rest);
}

function networkInterfaceIdOf(instanceId: string): string {
  return `eni-${instanceId.slice('i-'.length)}`;
}
