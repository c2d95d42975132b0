/**
 * The managed network an AWSCluster asks for, as data (CAPA pkg/cloud/services/network):
 * the VPC, one public and one private subnet per availability zone (at most
 * `availabilityZoneUsageLimit`, zones in name order), their route tables, one NAT gateway per
 * zone, the internet gateway and the security groups per role, each with CAPA's name and tags.
 * Pure: the reconciler compares it with what EC2 reports and creates what is missing.
 */

import { kubernetesClusterTagKey, OWNED, ownedResourceTags, type ResourceRole, type Tags, TAG_ELB_ROLE, TAG_INTERNAL_ELB_ROLE } from '../../../../../shared/contracts/providers/aws/aws-tags.js';

export const DEFAULT_VPC_CIDR = '10.0.0.0/16';
export const DEFAULT_AZ_LIMIT = 3;

export interface NetworkPlanInput {
  cluster: string;
  vpcCidr: string;
  /** Available zones of the region, any order. */
  zones: readonly string[];
  azLimit: number;
  additionalTags?: Tags;
}

export interface PlannedSubnet {
  name: string;
  cidrBlock: string;
  availabilityZone: string;
  isPublic: boolean;
  tags: Tags;
}

export interface PlannedResource {
  name: string;
  tags: Tags;
}

export interface PlannedNat extends PlannedResource {
  availabilityZone: string;
  /** The public subnet it lives in. */
  subnetName: string;
  elasticIp: PlannedResource;
}

export interface PlannedRouteTable extends PlannedResource {
  subnetName: string;
  availabilityZone: string;
  isPublic: boolean;
}

export interface NetworkPlan {
  vpc: PlannedResource & { cidrBlock: string };
  subnets: PlannedSubnet[];
  internetGateway: PlannedResource;
  natGateways: PlannedNat[];
  routeTables: PlannedRouteTable[];
}

function ipToInt(ip: string): number {
  return ip.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}

function intToIp(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/** The first `count` blocks of an even split of `cidr` (CAPA's cidr.SplitIntoSubnetsIPv4). */
export function splitCidr(cidr: string, count: number): string[] {
  const [address = '', prefixText = ''] = cidr.split('/');
  const prefix = Number(prefixText);
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(address) || !Number.isInteger(prefix) || prefix < 0 || prefix > 32) throw new Error(`invalid CIDR ${cidr}`);
  const bits = Math.ceil(Math.log2(Math.max(1, count)));
  const newPrefix = prefix + bits;
  if (newPrefix > 28) throw new Error(`${cidr} is too small for ${count} subnets`);
  const size = 2 ** (32 - newPrefix);
  const base = ipToInt(address) - (ipToInt(address) % 2 ** (32 - prefix));
  return Array.from({ length: count }, (_, i) => `${intToIp(base + i * size)}/${newPrefix}`);
}

function subnetTags(input: NetworkPlanInput, name: string, isPublic: boolean): Tags {
  return {
    ...ownedResourceTags(input.cluster, name, isPublic ? 'public' : 'private', input.additionalTags),
    [kubernetesClusterTagKey(input.cluster)]: OWNED,
    [isPublic ? TAG_ELB_ROLE : TAG_INTERNAL_ELB_ROLE]: '1',
  };
}

function resource(input: NetworkPlanInput, name: string, role: ResourceRole): PlannedResource {
  return { name, tags: ownedResourceTags(input.cluster, name, role, input.additionalTags) };
}

export function planNetwork(input: NetworkPlanInput): NetworkPlan {
  const zones = [...input.zones].sort().slice(0, Math.max(1, input.azLimit));
  const n = zones.length;
  // CAPA: split the VPC in n+1; the first part is cut into the n public subnets, the rest are private.
  const [publicRange = input.vpcCidr, ...privateRanges] = splitCidr(input.vpcCidr, n + 1);
  const publicRanges = splitCidr(publicRange, n);
  const subnets: PlannedSubnet[] = zones.flatMap((zone, i) => {
    const publicName = `${input.cluster}-subnet-public-${zone}`;
    const privateName = `${input.cluster}-subnet-private-${zone}`;
    return [
      { name: publicName, cidrBlock: publicRanges[i] ?? '', availabilityZone: zone, isPublic: true, tags: subnetTags(input, publicName, true) },
      { name: privateName, cidrBlock: privateRanges[i] ?? '', availabilityZone: zone, isPublic: false, tags: subnetTags(input, privateName, false) },
    ];
  });
  return {
    vpc: { ...resource(input, `${input.cluster}-vpc`, 'common'), cidrBlock: input.vpcCidr },
    subnets,
    internetGateway: resource(input, `${input.cluster}-igw`, 'common'),
    natGateways: zones.map((zone) => ({
      ...resource(input, `${input.cluster}-nat-${zone}`, 'common'),
      availabilityZone: zone,
      subnetName: `${input.cluster}-subnet-public-${zone}`,
      elasticIp: resource(input, `${input.cluster}-eip-${zone}`, 'common'),
    })),
    routeTables: subnets.map((subnet) => ({
      ...resource(input, `${input.cluster}-rt-${subnet.isPublic ? 'public' : 'private'}-${subnet.availabilityZone}`, 'common'),
      subnetName: subnet.name,
      availabilityZone: subnet.availabilityZone,
      isPublic: subnet.isPublic,
    })),
  };
}
