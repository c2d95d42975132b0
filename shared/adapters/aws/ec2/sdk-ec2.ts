/**
 * The EC2 port on the AWS SDK. The client comes from the caller; built by `ec2ClientFor` it
 * honours AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_EC2 and the standard credential chain natively.
 */

import {
  AllocateAddressCommand,
  AssociateRouteTableCommand,
  AttachInternetGatewayCommand,
  AuthorizeSecurityGroupIngressCommand,
  CreateInternetGatewayCommand,
  CreateNatGatewayCommand,
  CreateRouteCommand,
  CreateRouteTableCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  DeleteInternetGatewayCommand,
  DeleteNatGatewayCommand,
  DeleteRouteTableCommand,
  DeleteSecurityGroupCommand,
  DeleteSubnetCommand,
  DeleteVpcCommand,
  DescribeAddressesCommand,
  DescribeAvailabilityZonesCommand,
  DescribeInternetGatewaysCommand,
  DescribeNatGatewaysCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  DetachInternetGatewayCommand,
  DisassociateRouteTableCommand,
  type EC2Client,
  ModifySubnetAttributeCommand,
  ModifyVpcAttributeCommand,
  ReleaseAddressCommand,
  RevokeSecurityGroupIngressCommand,
} from '@aws-sdk/client-ec2';
import type { Tags } from '../../../contracts/providers/aws/aws-tags.js';
import type {
  AvailabilityZone,
  Ec2,
  ElasticIp,
  IngressRule,
  InternetGateway,
  NatGateway,
  Query,
  Route,
  RouteTable,
  SecurityGroup,
  Subnet,
  Vpc,
} from '../../../ports/ec2.js';
import { filtersOf, ipPermission, queryInput, tagSpecifications, tagsOf } from './ec2-shapes.js';
import { natOf, routeTableOf, securityGroupOf, subnetOf } from './network-shapes.js';
import { SdkEc2Instances } from './sdk-ec2-instances.js';
import { sdkCall } from './sdk-errors.js';

export class SdkEc2 extends SdkEc2Instances implements Ec2 {
  constructor(client: EC2Client) {
    super(client);
  }

  async describeAvailabilityZones(): Promise<AvailabilityZone[]> {
    const out = await sdkCall('DescribeAvailabilityZones', () => this.client.send(new DescribeAvailabilityZonesCommand({})));
    return (out.AvailabilityZones ?? []).map((z) => ({ name: z.ZoneName ?? '', state: z.State ?? 'available' }));
  }

  async describeVpcs(query: Query): Promise<Vpc[]> {
    const out = await sdkCall('DescribeVpcs', () => this.client.send(new DescribeVpcsCommand(queryInput(query, 'VpcIds'))));
    return (out.Vpcs ?? []).map((v) => ({ id: v.VpcId ?? '', cidrBlock: v.CidrBlock ?? '', tags: tagsOf(v.Tags) }));
  }

  async createVpc(request: { cidrBlock: string; tags: Tags }): Promise<Vpc> {
    const out = await sdkCall('CreateVpc', () =>
      this.client.send(new CreateVpcCommand({ CidrBlock: request.cidrBlock, TagSpecifications: tagSpecifications('vpc', request.tags) })),
    );
    return { id: out.Vpc?.VpcId ?? '', cidrBlock: out.Vpc?.CidrBlock ?? request.cidrBlock, tags: tagsOf(out.Vpc?.Tags) };
  }

  async enableVpcDns(vpcId: string): Promise<void> {
    await sdkCall('ModifyVpcAttribute', () => this.client.send(new ModifyVpcAttributeCommand({ VpcId: vpcId, EnableDnsSupport: { Value: true } })));
    await sdkCall('ModifyVpcAttribute', () => this.client.send(new ModifyVpcAttributeCommand({ VpcId: vpcId, EnableDnsHostnames: { Value: true } })));
  }

  async deleteVpc(vpcId: string): Promise<void> {
    await sdkCall('DeleteVpc', () => this.client.send(new DeleteVpcCommand({ VpcId: vpcId })));
  }

  async describeSubnets(query: Query): Promise<Subnet[]> {
    const out = await sdkCall('DescribeSubnets', () => this.client.send(new DescribeSubnetsCommand(queryInput(query, 'SubnetIds'))));
    return (out.Subnets ?? []).map(subnetOf);
  }

  async createSubnet(request: { vpcId: string; cidrBlock: string; availabilityZone: string; tags: Tags }): Promise<Subnet> {
    const out = await sdkCall('CreateSubnet', () =>
      this.client.send(
        new CreateSubnetCommand({
          VpcId: request.vpcId,
          CidrBlock: request.cidrBlock,
          AvailabilityZone: request.availabilityZone,
          TagSpecifications: tagSpecifications('subnet', request.tags),
        }),
      ),
    );
    return subnetOf(out.Subnet ?? {});
  }

  async setMapPublicIpOnLaunch(subnetId: string): Promise<void> {
    await sdkCall('ModifySubnetAttribute', () => this.client.send(new ModifySubnetAttributeCommand({ SubnetId: subnetId, MapPublicIpOnLaunch: { Value: true } })));
  }

  async deleteSubnet(subnetId: string): Promise<void> {
    await sdkCall('DeleteSubnet', () => this.client.send(new DeleteSubnetCommand({ SubnetId: subnetId })));
  }

  async describeInternetGateways(query: Query): Promise<InternetGateway[]> {
    const out = await sdkCall('DescribeInternetGateways', () => this.client.send(new DescribeInternetGatewaysCommand(queryInput(query, 'InternetGatewayIds'))));
    return (out.InternetGateways ?? []).map((g) => ({
      id: g.InternetGatewayId ?? '',
      vpcIds: (g.Attachments ?? []).flatMap((a) => (a.VpcId ? [a.VpcId] : [])),
      tags: tagsOf(g.Tags),
    }));
  }

  async createInternetGateway(request: { tags: Tags }): Promise<InternetGateway> {
    const out = await sdkCall('CreateInternetGateway', () =>
      this.client.send(new CreateInternetGatewayCommand({ TagSpecifications: tagSpecifications('internet-gateway', request.tags) })),
    );
    return { id: out.InternetGateway?.InternetGatewayId ?? '', vpcIds: [], tags: tagsOf(out.InternetGateway?.Tags) };
  }

  async attachInternetGateway(gatewayId: string, vpcId: string): Promise<void> {
    await sdkCall('AttachInternetGateway', () => this.client.send(new AttachInternetGatewayCommand({ InternetGatewayId: gatewayId, VpcId: vpcId })));
  }

  async detachInternetGateway(gatewayId: string, vpcId: string): Promise<void> {
    await sdkCall('DetachInternetGateway', () => this.client.send(new DetachInternetGatewayCommand({ InternetGatewayId: gatewayId, VpcId: vpcId })));
  }

  async deleteInternetGateway(gatewayId: string): Promise<void> {
    await sdkCall('DeleteInternetGateway', () => this.client.send(new DeleteInternetGatewayCommand({ InternetGatewayId: gatewayId })));
  }

  async describeAddresses(query: Query): Promise<ElasticIp[]> {
    const out = await sdkCall('DescribeAddresses', () => this.client.send(new DescribeAddressesCommand(queryInput(query, 'AllocationIds'))));
    return (out.Addresses ?? []).map((a) => ({
      allocationId: a.AllocationId ?? '',
      publicIp: a.PublicIp ?? '',
      ...(a.AssociationId ? { associationId: a.AssociationId } : {}),
      tags: tagsOf(a.Tags),
    }));
  }

  async allocateAddress(request: { tags: Tags }): Promise<ElasticIp> {
    const out = await sdkCall('AllocateAddress', () =>
      this.client.send(new AllocateAddressCommand({ Domain: 'vpc', TagSpecifications: tagSpecifications('elastic-ip', request.tags) })),
    );
    return { allocationId: out.AllocationId ?? '', publicIp: out.PublicIp ?? '', tags: { ...request.tags } };
  }

  async releaseAddress(allocationId: string): Promise<void> {
    await sdkCall('ReleaseAddress', () => this.client.send(new ReleaseAddressCommand({ AllocationId: allocationId })));
  }

  async describeNatGateways(query: Query): Promise<NatGateway[]> {
    const filters = filtersOf(query.filters);
    const input = filters ? { Filter: filters } : {};
    const out = await sdkCall('DescribeNatGateways', () =>
      this.client.send(new DescribeNatGatewaysCommand({ ...input, ...(query.ids && query.ids.length > 0 ? { NatGatewayIds: [...query.ids] } : {}) })),
    );
    return (out.NatGateways ?? []).map(natOf);
  }

  async createNatGateway(request: { subnetId: string; allocationId: string; clientToken: string; tags: Tags }): Promise<NatGateway> {
    const out = await sdkCall('CreateNatGateway', () =>
      this.client.send(
        new CreateNatGatewayCommand({
          SubnetId: request.subnetId,
          AllocationId: request.allocationId,
          ClientToken: request.clientToken,
          TagSpecifications: tagSpecifications('natgateway', request.tags),
        }),
      ),
    );
    return natOf(out.NatGateway ?? {});
  }

  async deleteNatGateway(natGatewayId: string): Promise<void> {
    await sdkCall('DeleteNatGateway', () => this.client.send(new DeleteNatGatewayCommand({ NatGatewayId: natGatewayId })));
  }

  async describeRouteTables(query: Query): Promise<RouteTable[]> {
    const out = await sdkCall('DescribeRouteTables', () => this.client.send(new DescribeRouteTablesCommand(queryInput(query, 'RouteTableIds'))));
    return (out.RouteTables ?? []).map(routeTableOf);
  }

  async createRouteTable(request: { vpcId: string; tags: Tags }): Promise<RouteTable> {
    const out = await sdkCall('CreateRouteTable', () =>
      this.client.send(new CreateRouteTableCommand({ VpcId: request.vpcId, TagSpecifications: tagSpecifications('route-table', request.tags) })),
    );
    return routeTableOf(out.RouteTable ?? {});
  }

  async createRoute(routeTableId: string, route: Route): Promise<void> {
    await sdkCall('CreateRoute', () =>
      this.client.send(
        new CreateRouteCommand({
          RouteTableId: routeTableId,
          DestinationCidrBlock: route.destinationCidrBlock,
          ...(route.gatewayId ? { GatewayId: route.gatewayId } : {}),
          ...(route.natGatewayId ? { NatGatewayId: route.natGatewayId } : {}),
        }),
      ),
    );
  }

  async associateRouteTable(routeTableId: string, subnetId: string): Promise<string> {
    const out = await sdkCall('AssociateRouteTable', () => this.client.send(new AssociateRouteTableCommand({ RouteTableId: routeTableId, SubnetId: subnetId })));
    return out.AssociationId ?? '';
  }

  async disassociateRouteTable(associationId: string): Promise<void> {
    await sdkCall('DisassociateRouteTable', () => this.client.send(new DisassociateRouteTableCommand({ AssociationId: associationId })));
  }

  async deleteRouteTable(routeTableId: string): Promise<void> {
    await sdkCall('DeleteRouteTable', () => this.client.send(new DeleteRouteTableCommand({ RouteTableId: routeTableId })));
  }

  async describeSecurityGroups(query: Query): Promise<SecurityGroup[]> {
    const out = await sdkCall('DescribeSecurityGroups', () => this.client.send(new DescribeSecurityGroupsCommand(queryInput(query, 'GroupIds'))));
    return (out.SecurityGroups ?? []).map(securityGroupOf);
  }

  async createSecurityGroup(request: { vpcId: string; name: string; description: string; tags: Tags }): Promise<SecurityGroup> {
    const out = await sdkCall('CreateSecurityGroup', () =>
      this.client.send(
        new CreateSecurityGroupCommand({
          VpcId: request.vpcId,
          GroupName: request.name,
          Description: request.description,
          TagSpecifications: tagSpecifications('security-group', request.tags),
        }),
      ),
    );
    return { id: out.GroupId ?? '', name: request.name, vpcId: request.vpcId, ingress: [], tags: { ...request.tags } };
  }

  async authorizeIngress(groupId: string, rules: readonly IngressRule[]): Promise<void> {
    if (rules.length === 0) return;
    await sdkCall('AuthorizeSecurityGroupIngress', () =>
      this.client.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: groupId, IpPermissions: rules.map(ipPermission) })),
    );
  }

  async revokeIngress(groupId: string, rules: readonly IngressRule[]): Promise<void> {
    if (rules.length === 0) return;
    await sdkCall('RevokeSecurityGroupIngress', () =>
      this.client.send(new RevokeSecurityGroupIngressCommand({ GroupId: groupId, IpPermissions: rules.map(ipPermission) })),
    );
  }

  async deleteSecurityGroup(groupId: string): Promise<void> {
    await sdkCall('DeleteSecurityGroup', () => this.client.send(new DeleteSecurityGroupCommand({ GroupId: groupId })));
  }
}
