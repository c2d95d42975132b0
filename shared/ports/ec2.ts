/**
 * The EC2 API as the AWS provider's reconcilers use it: plain data in, plain data out, no SDK
 * types. Implementations: the SDK adapter (shared/adapters/aws/ec2/) and the in-memory fake
 * (shared/adapters/memory/ec2/); both pass test/conformance/ec2.conformance.ts. Failures are
 * `CloudApiError`s carrying EC2's error code.
 */

import type { Tags } from '../contracts/providers/aws/aws-tags.js';

export interface Filter {
  /** An EC2 filter name: `tag:Name`, `vpc-id`, `instance-state-name`, … */
  name: string;
  values: readonly string[];
}

export type InstanceState = 'pending' | 'running' | 'shutting-down' | 'terminated' | 'stopping' | 'stopped';

export interface Instance {
  id: string;
  state: InstanceState;
  availabilityZone?: string;
  subnetId?: string;
  vpcId?: string;
  imageId?: string;
  instanceType?: string;
  privateIp?: string;
  privateDnsName?: string;
  publicIp?: string;
  publicDnsName?: string;
  securityGroupIds: string[];
  iamInstanceProfileArn?: string;
  /** As EC2 applied them (absent when EC2 says nothing). */
  metadataOptions?: InstanceMetadataOptions;
  /** The EBS volumes attached (its block device mappings). */
  volumeIds?: string[];
  /** `spot` for a Spot instance (EC2's InstanceLifecycle); absent on demand. */
  lifecycle?: 'spot';
  /** Where EC2 placed it beyond its zone: tenancy and placement group, when set. */
  placement?: InstancePlacement;
  tags: Tags;
}

/** EC2's Placement of an instance, beyond its availability zone. */
export interface InstancePlacement {
  tenancy?: 'default' | 'dedicated' | 'host';
  groupName?: string;
  partitionNumber?: number;
}

/** EC2's MetadataOptions of an instance (its instance metadata service, IMDS). */
export interface InstanceMetadataOptions {
  httpEndpoint: 'enabled' | 'disabled';
  httpProtocolIpv6: 'enabled' | 'disabled';
  httpPutResponseHopLimit: number;
  /** `required`: IMDSv2 only (session tokens); `optional`: IMDSv1 too. */
  httpTokens: 'optional' | 'required';
  instanceMetadataTags: 'enabled' | 'disabled';
}

export interface RunInstanceRequest {
  /** Idempotency token: EC2 returns the instance of an earlier call with the same token. */
  clientToken: string;
  imageId: string;
  instanceType: string;
  subnetId: string;
  securityGroupIds: readonly string[];
  /** Base64 of the user data EC2 hands the instance. */
  userData: string;
  tags: Tags;
  iamInstanceProfile?: string;
  keyName?: string;
  publicIp?: boolean;
  /** The root volume (at the image's root device) and any others. */
  volumes?: readonly BlockDeviceVolume[];
  metadataOptions?: InstanceMetadataOptions;
  /**
   * A one-time Spot request terminated when interrupted (CAPA's only kind: one instance per
   * Machine, never replaced by EC2), at most `maxPrice` when set; absent is on demand.
   */
  spot?: { maxPrice?: string };
  placement?: InstancePlacement;
}

export interface Vpc {
  id: string;
  cidrBlock: string;
  tags: Tags;
}

export interface Subnet {
  id: string;
  vpcId: string;
  cidrBlock: string;
  availabilityZone: string;
  mapPublicIpOnLaunch: boolean;
  tags: Tags;
}

export interface InternetGateway {
  id: string;
  /** VPCs it is attached to. */
  vpcIds: string[];
  tags: Tags;
}

export interface ElasticIp {
  allocationId: string;
  publicIp: string;
  associationId?: string;
  tags: Tags;
}

export type NatGatewayState = 'pending' | 'available' | 'deleting' | 'deleted' | 'failed';

export interface NatGateway {
  id: string;
  subnetId: string;
  vpcId?: string;
  state: NatGatewayState;
  allocationIds: string[];
  publicIps: string[];
  tags: Tags;
}

export interface Route {
  destinationCidrBlock: string;
  gatewayId?: string;
  natGatewayId?: string;
}

export interface RouteTable {
  id: string;
  vpcId: string;
  routes: Route[];
  /** Subnet associations (association id → subnet id). */
  associations: { id: string; subnetId?: string; main: boolean }[];
  tags: Tags;
}

export interface IngressRule {
  protocol: string;
  fromPort: number;
  toPort: number;
  cidrBlocks?: readonly string[];
  sourceSecurityGroupIds?: readonly string[];
  description?: string;
}

export interface SecurityGroup {
  id: string;
  name: string;
  vpcId: string;
  ingress: IngressRule[];
  tags: Tags;
}

export interface AvailabilityZone {
  name: string;
  state: string;
}

export interface Query {
  ids?: readonly string[];
  filters?: readonly Filter[];
}

export interface Image {
  id: string;
  name: string;
  ownerId: string;
  creationDate: string;
  architecture?: string;
  /** `windows` for Windows images; absent for Linux ones (EC2's `Platform`). */
  platform?: string;
  /** EC2's `PlatformDetails`: `Linux/UNIX`, `Windows`, `Windows with SQL Server Standard`, … */
  platformDetails?: string;
  /** The device its root volume is attached as (`/dev/sda1`, `/dev/xvda`). */
  rootDeviceName?: string;
  /** The size of the snapshot of its first block device, GiB: a root volume may not be smaller. */
  rootSnapshotSizeGiB?: number;
}

/** An EBS volume attached at launch (CAPA's `Volume`), deleted with the instance. */
export interface BlockDeviceVolume {
  deviceName: string;
  sizeGiB: number;
  /** gp2, gp3, io1, io2, st1, sc1, standard. */
  type?: string;
  iops?: number;
  throughput?: number;
  encrypted?: boolean;
  /** A KMS key: the volume is encrypted with it. */
  kmsKeyId?: string;
}

/** What DescribeInstanceTypes says of one instance type. */
export interface InstanceTypeInfo {
  instanceType: string;
  defaultVCpus?: number;
  memoryMiB?: number;
  /** EC2's `SupportedArchitectures`: `x86_64`, `arm64`, `i386`, … */
  architectures: string[];
}

export interface Ec2Instances {
  describeInstances(query: Query): Promise<Instance[]>;
  /** Available images of these owners matching the filters (CAPA's AMI lookup). */
  describeImages(request: { owners: readonly string[]; filters: readonly Filter[] }): Promise<Image[]>;
  /** These instance types; one EC2 does not offer is `InvalidInstanceType`. */
  describeInstanceTypes(instanceTypes: readonly string[]): Promise<InstanceTypeInfo[]>;
  runInstance(request: RunInstanceRequest): Promise<Instance>;
  terminateInstances(ids: readonly string[]): Promise<void>;
  /**
   * Tags an instance or volume (CreateTags) and removes tags from it (DeleteTags, each only while
   * it still has the value given, as EC2 does); nothing to change is no call.
   */
  updateResourceTags(resourceId: string, change: { create: Tags; delete: Tags }): Promise<void>;
  /** Changes a running instance's metadata options (ModifyInstanceMetadataOptions). */
  modifyInstanceMetadataOptions(instanceId: string, options: InstanceMetadataOptions): Promise<void>;
  /** These EBS volumes with their tags. */
  describeVolumes(ids: readonly string[]): Promise<{ id: string; tags: Tags }[]>;
  /** The instance's network interfaces and their security groups (DescribeNetworkInterfaces by attachment). */
  describeInstanceNetworkInterfaces(instanceId: string): Promise<NetworkInterface[]>;
  /** Replaces a network interface's security groups (ModifyNetworkInterfaceAttribute). */
  setNetworkInterfaceSecurityGroups(networkInterfaceId: string, groupIds: readonly string[]): Promise<void>;
}

export interface NetworkInterface {
  id: string;
  securityGroupIds: string[];
}

export interface Ec2Network {
  describeAvailabilityZones(): Promise<AvailabilityZone[]>;
  describeVpcs(query: Query): Promise<Vpc[]>;
  createVpc(request: { cidrBlock: string; tags: Tags }): Promise<Vpc>;
  enableVpcDns(vpcId: string): Promise<void>;
  deleteVpc(vpcId: string): Promise<void>;
  describeSubnets(query: Query): Promise<Subnet[]>;
  createSubnet(request: { vpcId: string; cidrBlock: string; availabilityZone: string; tags: Tags }): Promise<Subnet>;
  setMapPublicIpOnLaunch(subnetId: string): Promise<void>;
  deleteSubnet(subnetId: string): Promise<void>;
  describeInternetGateways(query: Query): Promise<InternetGateway[]>;
  createInternetGateway(request: { tags: Tags }): Promise<InternetGateway>;
  attachInternetGateway(gatewayId: string, vpcId: string): Promise<void>;
  detachInternetGateway(gatewayId: string, vpcId: string): Promise<void>;
  deleteInternetGateway(gatewayId: string): Promise<void>;
  describeAddresses(query: Query): Promise<ElasticIp[]>;
  allocateAddress(request: { tags: Tags }): Promise<ElasticIp>;
  releaseAddress(allocationId: string): Promise<void>;
  describeNatGateways(query: Query): Promise<NatGateway[]>;
  createNatGateway(request: { subnetId: string; allocationId: string; clientToken: string; tags: Tags }): Promise<NatGateway>;
  deleteNatGateway(natGatewayId: string): Promise<void>;
  describeRouteTables(query: Query): Promise<RouteTable[]>;
  createRouteTable(request: { vpcId: string; tags: Tags }): Promise<RouteTable>;
  createRoute(routeTableId: string, route: Route): Promise<void>;
  associateRouteTable(routeTableId: string, subnetId: string): Promise<string>;
  disassociateRouteTable(associationId: string): Promise<void>;
  deleteRouteTable(routeTableId: string): Promise<void>;
}

export interface Ec2SecurityGroups {
  describeSecurityGroups(query: Query): Promise<SecurityGroup[]>;
  createSecurityGroup(request: { vpcId: string; name: string; description: string; tags: Tags }): Promise<SecurityGroup>;
  authorizeIngress(groupId: string, rules: readonly IngressRule[]): Promise<void>;
  revokeIngress(groupId: string, rules: readonly IngressRule[]): Promise<void>;
  deleteSecurityGroup(groupId: string): Promise<void>;
}

export type Ec2 = Ec2Instances & Ec2Network & Ec2SecurityGroups;
