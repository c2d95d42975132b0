/** EC2's network resources (subnets, NAT gateways, route tables, security groups) as the port's plain data. */

import type {
  NatGateway as SdkNatGateway,
  RouteTable as SdkRouteTable,
  SecurityGroup as SdkSecurityGroup,
  Subnet as SdkSubnet,
} from '@aws-sdk/client-ec2';
import type { NatGateway, NatGatewayState, RouteTable, SecurityGroup, Subnet } from '../../../ports/ec2.js';
import { tagsOf } from './ec2-shapes.js';

const NAT_STATES: readonly NatGatewayState[] = ['pending', 'available', 'deleting', 'deleted', 'failed'];

export function subnetOf(s: SdkSubnet): Subnet {
  return {
    id: s.SubnetId ?? '',
    vpcId: s.VpcId ?? '',
    cidrBlock: s.CidrBlock ?? '',
    availabilityZone: s.AvailabilityZone ?? '',
    mapPublicIpOnLaunch: s.MapPublicIpOnLaunch === true,
    tags: tagsOf(s.Tags),
  };
}

export function natOf(n: SdkNatGateway): NatGateway {
  return {
    id: n.NatGatewayId ?? '',
    subnetId: n.SubnetId ?? '',
    ...(n.VpcId ? { vpcId: n.VpcId } : {}),
    state: NAT_STATES.find((s) => s === n.State) ?? 'pending',
    allocationIds: (n.NatGatewayAddresses ?? []).flatMap((a) => (a.AllocationId ? [a.AllocationId] : [])),
    publicIps: (n.NatGatewayAddresses ?? []).flatMap((a) => (a.PublicIp ? [a.PublicIp] : [])),
    tags: tagsOf(n.Tags),
  };
}

export function routeTableOf(t: SdkRouteTable): RouteTable {
  return {
    id: t.RouteTableId ?? '',
    vpcId: t.VpcId ?? '',
    routes: (t.Routes ?? []).map((r) => ({
      destinationCidrBlock: r.DestinationCidrBlock ?? '',
      ...(r.GatewayId ? { gatewayId: r.GatewayId } : {}),
      ...(r.NatGatewayId ? { natGatewayId: r.NatGatewayId } : {}),
    })),
    associations: (t.Associations ?? []).map((a) => ({ id: a.RouteTableAssociationId ?? '', ...(a.SubnetId ? { subnetId: a.SubnetId } : {}), main: a.Main === true })),
    tags: tagsOf(t.Tags),
  };
}

export function securityGroupOf(g: SdkSecurityGroup): SecurityGroup {
  return {
    id: g.GroupId ?? '',
    name: g.GroupName ?? '',
    vpcId: g.VpcId ?? '',
    ingress: (g.IpPermissions ?? []).map((p) => ({
      protocol: p.IpProtocol ?? '-1',
      fromPort: p.FromPort ?? -1,
      toPort: p.ToPort ?? -1,
      ...(p.IpRanges && p.IpRanges.length > 0 ? { cidrBlocks: p.IpRanges.flatMap((r) => (r.CidrIp ? [r.CidrIp] : [])) } : {}),
      ...(p.UserIdGroupPairs && p.UserIdGroupPairs.length > 0 ? { sourceSecurityGroupIds: p.UserIdGroupPairs.flatMap((r) => (r.GroupId ? [r.GroupId] : [])) } : {}),
    })),
    tags: tagsOf(g.Tags),
  };
}
