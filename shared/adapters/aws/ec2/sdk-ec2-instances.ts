/** Instances on EC2 through the SDK. */

import {
  CreateTagsCommand,
  DeleteTagsCommand,
  DescribeImagesCommand,
  DescribeInstancesCommand,
  DescribeInstanceTypesCommand,
  DescribeNetworkInterfacesCommand,
  DescribeVolumesCommand,
  type EC2Client,
  ModifyInstanceMetadataOptionsCommand,
  ModifyNetworkInterfaceAttributeCommand,
  RunInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import type { Tags } from '../../../contracts/providers/aws/aws-tags.js';
import type { Ec2Instances, Filter, Image, Instance, InstanceMetadataOptions, InstanceTypeInfo, NetworkInterface, Query, RunInstanceRequest } from '../../../ports/ec2.js';
import { blockDeviceMapping, describableInstanceTypes, filtersOf, instanceOf, instanceType, metadataOptionsRequest, placementRequest, queryInput, tagSpecifications, tagsOf } from './ec2-shapes.js';
import { sdkCall } from './sdk-errors.js';

export class SdkEc2Instances implements Ec2Instances {
  constructor(protected readonly client: EC2Client) {}

  async describeInstances(query: Query): Promise<Instance[]> {
    const instances: Instance[] = [];
    let NextToken: string | undefined;
    do {
      const page = await sdkCall('DescribeInstances', () =>
        this.client.send(new DescribeInstancesCommand({ ...queryInput(query, 'InstanceIds'), ...(NextToken ? { NextToken } : {}) })),
      );
      for (const reservation of page.Reservations ?? []) for (const instance of reservation.Instances ?? []) instances.push(instanceOf(instance));
      NextToken = page.NextToken;
    } while (NextToken);
    return instances;
  }

  async describeImages(request: { owners: readonly string[]; filters: readonly Filter[] }): Promise<Image[]> {
    const out = await sdkCall('DescribeImages', () =>
      this.client.send(new DescribeImagesCommand({ Owners: [...request.owners], Filters: filtersOf(request.filters) })),
    );
    return (out.Images ?? []).map((i) => ({
      id: i.ImageId ?? '',
      name: i.Name ?? '',
      ownerId: i.OwnerId ?? '',
      creationDate: i.CreationDate ?? '',
      ...(i.Architecture ? { architecture: String(i.Architecture) } : {}),
      ...(i.Platform ? { platform: String(i.Platform) } : {}),
      ...(i.PlatformDetails ? { platformDetails: i.PlatformDetails } : {}),
      ...(i.RootDeviceName ? { rootDeviceName: i.RootDeviceName } : {}),
      ...(i.BlockDeviceMappings?.[0]?.Ebs?.VolumeSize !== undefined ? { rootSnapshotSizeGiB: i.BlockDeviceMappings[0].Ebs.VolumeSize } : {}),
    }));
  }

  async describeInstanceTypes(instanceTypes: readonly string[]): Promise<InstanceTypeInfo[]> {
    const out = await sdkCall('DescribeInstanceTypes', () =>
      this.client.send(new DescribeInstanceTypesCommand({ InstanceTypes: describableInstanceTypes(instanceTypes) })),
    );
    return (out.InstanceTypes ?? []).map((t) => ({
      instanceType: String(t.InstanceType ?? ''),
      ...(t.VCpuInfo?.DefaultVCpus !== undefined ? { defaultVCpus: t.VCpuInfo.DefaultVCpus } : {}),
      ...(t.MemoryInfo?.SizeInMiB !== undefined ? { memoryMiB: t.MemoryInfo.SizeInMiB } : {}),
      architectures: (t.ProcessorInfo?.SupportedArchitectures ?? []).map(String),
    }));
  }

  async runInstance(request: RunInstanceRequest): Promise<Instance> {
    const output = await sdkCall('RunInstances', () =>
      this.client.send(
        new RunInstancesCommand({
          ClientToken: request.clientToken,
          MinCount: 1,
          MaxCount: 1,
          ImageId: request.imageId,
          InstanceType: instanceType(request.instanceType),
          UserData: request.userData,
          ...(request.keyName ? { KeyName: request.keyName } : {}),
          ...(request.iamInstanceProfile ? { IamInstanceProfile: { Name: request.iamInstanceProfile } } : {}),
          // Top-level SubnetId/SecurityGroupIds unless a public IP choice needs the interface form.
          ...(request.publicIp === undefined
            ? { SubnetId: request.subnetId, SecurityGroupIds: [...request.securityGroupIds] }
            : {
                NetworkInterfaces: [
                  { DeviceIndex: 0, SubnetId: request.subnetId, Groups: [...request.securityGroupIds], AssociatePublicIpAddress: request.publicIp },
                ],
              }),
          ...(request.volumes && request.volumes.length > 0 ? { BlockDeviceMappings: request.volumes.map(blockDeviceMapping) } : {}),
          ...(request.metadataOptions ? { MetadataOptions: metadataOptionsRequest(request.metadataOptions) } : {}),
          ...(request.spot
            ? {
                InstanceMarketOptions: {
                  MarketType: 'spot',
                  SpotOptions: { InstanceInterruptionBehavior: 'terminate', SpotInstanceType: 'one-time', ...(request.spot.maxPrice ? { MaxPrice: request.spot.maxPrice } : {}) },
                },
              }
            : {}),
          ...(request.placement ? { Placement: placementRequest(request.placement) } : {}),
          TagSpecifications: [
            ...tagSpecifications('instance', request.tags),
            ...tagSpecifications('volume', request.tags),
            ...tagSpecifications('network-interface', request.tags),
            // The Spot request is created too, and the IAM policy wants capless's tag on it.
            ...(request.spot ? tagSpecifications('spot-instances-request', request.tags) : []),
          ],
        }),
      ),
    );
    const instance = output.Instances?.[0];
    if (!instance?.InstanceId) throw new Error('RunInstances returned no instance');
    return instanceOf(instance);
  }

  async terminateInstances(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await sdkCall('TerminateInstances', () => this.client.send(new TerminateInstancesCommand({ InstanceIds: [...ids] })));
  }

  async describeInstanceNetworkInterfaces(instanceId: string): Promise<NetworkInterface[]> {
    const interfaces: NetworkInterface[] = [];
    let NextToken: string | undefined;
    do {
      const page = await sdkCall('DescribeNetworkInterfaces', () =>
        this.client.send(new DescribeNetworkInterfacesCommand({ Filters: [{ Name: 'attachment.instance-id', Values: [instanceId] }], ...(NextToken ? { NextToken } : {}) })),
      );
      for (const eni of page.NetworkInterfaces ?? []) {
        if (eni.NetworkInterfaceId) interfaces.push({ id: eni.NetworkInterfaceId, securityGroupIds: (eni.Groups ?? []).flatMap((g) => g.GroupId ?? []) });
      }
      NextToken = page.NextToken;
    } while (NextToken);
    return interfaces;
  }

  async setNetworkInterfaceSecurityGroups(networkInterfaceId: string, groupIds: readonly string[]): Promise<void> {
    await sdkCall('ModifyNetworkInterfaceAttribute', () => this.client.send(new ModifyNetworkInterfaceAttributeCommand({ NetworkInterfaceId: networkInterfaceId, Groups: [...groupIds] })));
  }

  async modifyInstanceMetadataOptions(instanceId: string, options: InstanceMetadataOptions): Promise<void> {
    await sdkCall('ModifyInstanceMetadataOptions', () => this.client.send(new ModifyInstanceMetadataOptionsCommand({ InstanceId: instanceId, ...metadataOptionsRequest(options) })));
  }

  async describeVolumes(ids: readonly string[]): Promise<{ id: string; tags: Tags }[]> {
    if (ids.length === 0) return [];
    const out = await sdkCall('DescribeVolumes', () => this.client.send(new DescribeVolumesCommand({ VolumeIds: [...ids] })));
    return (out.Volumes ?? []).flatMap((v) => (v.VolumeId ? [{ id: v.VolumeId, tags: tagsOf(v.Tags) }] : []));
  }

  async updateResourceTags(resourceId: string, change: { create: Tags; delete: Tags }): Promise<void> {
    const asTags = (tags: Tags) => Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
    if (Object.keys(change.create).length > 0) {
      await sdkCall('CreateTags', () => this.client.send(new CreateTagsCommand({ Resources: [resourceId], Tags: asTags(change.create) })));
    }
    if (Object.keys(change.delete).length > 0) {
      await sdkCall('DeleteTags', () => this.client.send(new DeleteTagsCommand({ Resources: [resourceId], Tags: asTags(change.delete) })));
    }
  }
}
