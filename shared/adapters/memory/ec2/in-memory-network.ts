/**
 * The network half of the in-memory EC2: VPCs, subnets, internet gateways, Elastic IPs, NAT
 * gateways and route tables (security groups: in-memory-security-groups.ts), with EC2's dependency rules on delete
 * (`DependencyViolation`) so a teardown in the wrong order fails here as it would on AWS.
 */

import { CloudApiError } from '../../../errors/index.js';
import type {
  AvailabilityZone,
  ElasticIp,
  Ec2Network,
  InternetGateway,
  NatGateway,
  Query,
  Route,
  RouteTable,
  SecurityGroup,
  Subnet,
  Vpc,
} from '../../../ports/ec2.js';
import type { Tags } from '../../../contracts/providers/aws/aws-tags.js';
import { select } from './filters.js';
import { IdSource } from './ids.js';

export interface InMemoryNetworkOptions {
  region: string;
  /** Zone suffixes; default a, b, c, d. */
  zones?: readonly string[];
}

export const ec2Error = (operation: string, code: string, message: string) => new CloudApiError(operation, code, message);

export class InMemoryEc2Network implements Ec2Network {
  protected readonly ids = new IdSource();
  readonly vpcs = new Map<string, Vpc & { dns: boolean }>();
  readonly subnets = new Map<string, Subnet>();
  readonly internetGateways = new Map<string, InternetGateway>();
  readonly addresses = new Map<string, ElasticIp>();
  readonly natGateways = new Map<string, NatGateway & { clientToken: string }>();
  readonly routeTables = new Map<string, RouteTable>();
  /** Every VPC has a default group, made and dropped with it; the API on them is the subclass's. */
  readonly securityGroups = new Map<string, SecurityGroup>();
  protected readonly region: string;
  private readonly zones: readonly string[];

  constructor(options: InMemoryNetworkOptions) {
    this.region = options.region;
    this.zones = (options.zones ?? ['a', 'b', 'c', 'd']).map((z) => `${options.region}${z}`);
  }

  async describeAvailabilityZones(): Promise<AvailabilityZone[]> {
    return this.zones.map((name) => ({ name, state: 'available' }));
  }

  async describeVpcs(query: Query): Promise<Vpc[]> {
    return select(this.vpcs.values(), (v) => v.id, query, (v, name) => (name === 'vpc-id' ? [v.id] : name === 'cidr' ? [v.cidrBlock] : undefined), 'DescribeVpcs', 'InvalidVpcID.NotFound').map(
      ({ dns: _dns, ...vpc }) => structuredClone(vpc),
    );
  }

  async createVpc(request: { cidrBlock: string; tags: Tags }): Promise<Vpc> {
    const vpc = { id: this.ids.next('vpc'), cidrBlock: request.cidrBlock, tags: { ...request.tags }, dns: false };
    this.vpcs.set(vpc.id, vpc);
    // EC2 gives every VPC a main route table and a default security group.
    const main = { id: this.ids.next('rtb'), vpcId: vpc.id, routes: [{ destinationCidrBlock: vpc.cidrBlock, gatewayId: 'local' }], associations: [{ id: this.ids.next('rtbassoc'), main: true }], tags: {} };
    this.routeTables.set(main.id, main);
    const sg = { id: this.ids.next('sg'), name: 'default', vpcId: vpc.id, ingress: [], tags: {} };
    this.securityGroups.set(sg.id, sg);
    return { id: vpc.id, cidrBlock: vpc.cidrBlock, tags: { ...vpc.tags } };
  }

  async enableVpcDns(vpcId: string): Promise<void> {
    this.vpc('ModifyVpcAttribute', vpcId).dns = true;
  }

  async deleteVpc(vpcId: string): Promise<void> {
    this.vpc('DeleteVpc', vpcId);
    const inUse =
      [...this.subnets.values()].some((s) => s.vpcId === vpcId) ||
      [...this.internetGateways.values()].some((g) => g.vpcIds.includes(vpcId)) ||
      [...this.securityGroups.values()].some((g) => g.vpcId === vpcId && g.name !== 'default') ||
      [...this.routeTables.values()].some((t) => t.vpcId === vpcId && !t.associations.some((a) => a.main));
    if (inUse) throw ec2Error('DeleteVpc', 'DependencyViolation', `The vpc '${vpcId}' has dependencies and cannot be deleted.`);
    this.vpcs.delete(vpcId);
    for (const [id, t] of this.routeTables) if (t.vpcId === vpcId) this.routeTables.delete(id);
    for (const [id, g] of this.securityGroups) if (g.vpcId === vpcId) this.securityGroups.delete(id);
  }

  async describeSubnets(query: Query): Promise<Subnet[]> {
    return select(
      this.subnets.values(),
      (s) => s.id,
      query,
      (s, name) => ({ 'vpc-id': [s.vpcId], 'subnet-id': [s.id], 'availability-zone': [s.availabilityZone], 'cidr-block': [s.cidrBlock], state: ['available'] })[name],
      'DescribeSubnets',
      'InvalidSubnetID.NotFound',
    ).map((s) => structuredClone(s));
  }

  async createSubnet(request: { vpcId: string; cidrBlock: string; availabilityZone: string; tags: Tags }): Promise<Subnet> {
    this.vpc('CreateSubnet', request.vpcId);
    if (!this.zones.includes(request.availabilityZone)) throw ec2Error('CreateSubnet', 'InvalidParameterValue', `Value (${request.availabilityZone}) for parameter availabilityZone is invalid.`);
    if ([...this.subnets.values()].some((s) => s.vpcId === request.vpcId && s.cidrBlock === request.cidrBlock)) {
      throw ec2Error('CreateSubnet', 'InvalidSubnet.Conflict', `The CIDR '${request.cidrBlock}' conflicts with another subnet`);
    }
    const subnet: Subnet = { id: this.ids.next('subnet'), ...request, mapPublicIpOnLaunch: false, tags: { ...request.tags } };
    this.subnets.set(subnet.id, subnet);
    return structuredClone(subnet);
  }

  async setMapPublicIpOnLaunch(subnetId: string): Promise<void> {
    this.subnet('ModifySubnetAttribute', subnetId).mapPublicIpOnLaunch = true;
  }

  async deleteSubnet(subnetId: string): Promise<void> {
    this.subnet('DeleteSubnet', subnetId);
    if (this.subnetInUse(subnetId)) throw ec2Error('DeleteSubnet', 'DependencyViolation', `The subnet '${subnetId}' has dependencies and cannot be deleted.`);
    this.subnets.delete(subnetId);
  }

  /** Instances or NAT gateways still in the subnet (instances: see the subclass). */
  protected subnetInUse(subnetId: string): boolean {
    return [...this.natGateways.values()].some((n) => n.subnetId === subnetId && n.state !== 'deleted');
  }

  async describeInternetGateways(query: Query): Promise<InternetGateway[]> {
    return select(
      this.internetGateways.values(),
      (g) => g.id,
      query,
      (g, name) => (name === 'attachment.vpc-id' ? g.vpcIds : name === 'internet-gateway-id' ? [g.id] : undefined),
      'DescribeInternetGateways',
      'InvalidInternetGatewayID.NotFound',
    ).map((g) => structuredClone(g));
  }

  async createInternetGateway(request: { tags: Tags }): Promise<InternetGateway> {
    const gateway = { id: this.ids.next('igw'), vpcIds: [], tags: { ...request.tags } };
    this.internetGateways.set(gateway.id, gateway);
    return structuredClone(gateway);
  }

  async attachInternetGateway(gatewayId: string, vpcId: string): Promise<void> {
    const gateway = this.gateway('AttachInternetGateway', gatewayId);
    this.vpc('AttachInternetGateway', vpcId);
    if (gateway.vpcIds.length > 0) throw ec2Error('AttachInternetGateway', 'Resource.AlreadyAssociated', `resource ${gatewayId} is already attached to network ${gateway.vpcIds[0]}`);
    gateway.vpcIds.push(vpcId);
  }

  async detachInternetGateway(gatewayId: string, vpcId: string): Promise<void> {
    const gateway = this.gateway('DetachInternetGateway', gatewayId);
    if (!gateway.vpcIds.includes(vpcId)) throw ec2Error('DetachInternetGateway', 'Gateway.NotAttached', `resource ${gatewayId} is not attached to network ${vpcId}`);
    gateway.vpcIds = gateway.vpcIds.filter((v) => v !== vpcId);
  }

  async deleteInternetGateway(gatewayId: string): Promise<void> {
    const gateway = this.gateway('DeleteInternetGateway', gatewayId);
    if (gateway.vpcIds.length > 0) throw ec2Error('DeleteInternetGateway', 'DependencyViolation', `The internetGateway '${gatewayId}' has dependencies and cannot be deleted.`);
    this.internetGateways.delete(gatewayId);
  }

  async describeAddresses(query: Query): Promise<ElasticIp[]> {
    return select(this.addresses.values(), (a) => a.allocationId, query, (a, name) => (name === 'allocation-id' ? [a.allocationId] : undefined), 'DescribeAddresses', 'InvalidAllocationID.NotFound').map(
      (a) => structuredClone(a),
    );
  }

  async allocateAddress(request: { tags: Tags }): Promise<ElasticIp> {
    const n = this.addresses.size + 1;
    const address: ElasticIp = { allocationId: this.ids.next('eipalloc'), publicIp: `198.51.${(n >> 8) & 0xff}.${n & 0xff}`, tags: { ...request.tags } };
    this.addresses.set(address.allocationId, address);
    return structuredClone(address);
  }

  async releaseAddress(allocationId: string): Promise<void> {
    const address = this.addresses.get(allocationId);
    if (!address) throw ec2Error('ReleaseAddress', 'InvalidAllocationID.NotFound', `The allocation ID '${allocationId}' does not exist`);
    if ([...this.natGateways.values()].some((n) => n.state !== 'deleted' && n.allocationIds.includes(allocationId))) {
      throw ec2Error('ReleaseAddress', 'AuthFailure', `The address with allocation id [${allocationId}] is in use`);
    }
    this.addresses.delete(allocationId);
  }

  async describeNatGateways(query: Query): Promise<NatGateway[]> {
    return select(
      this.natGateways.values(),
      (n) => n.id,
      query,
      (n, name) => ({ 'subnet-id': [n.subnetId], 'vpc-id': [n.vpcId], state: [n.state], 'nat-gateway-id': [n.id] })[name],
      'DescribeNatGateways',
      'NatGatewayNotFound',
    ).map(({ clientToken: _token, ...n }) => structuredClone(n));
  }

  async createNatGateway(request: { subnetId: string; allocationId: string; clientToken: string; tags: Tags }): Promise<NatGateway> {
    const existing = [...this.natGateways.values()].find((n) => n.clientToken === request.clientToken);
    const subnet = this.subnet('CreateNatGateway', request.subnetId);
    const address = this.addresses.get(request.allocationId);
    if (!address) throw ec2Error('CreateNatGateway', 'InvalidAllocationID.NotFound', `The allocation ID '${request.allocationId}' does not exist`);
    const nat = existing ?? {
      id: this.ids.next('nat'),
      subnetId: subnet.id,
      vpcId: subnet.vpcId,
      state: 'available' as const,
      allocationIds: [address.allocationId],
      publicIps: [address.publicIp],
      tags: { ...request.tags },
      clientToken: request.clientToken,
    };
    this.natGateways.set(nat.id, nat);
    const { clientToken: _token, ...result } = nat;
    return structuredClone(result);
  }

  async deleteNatGateway(natGatewayId: string): Promise<void> {
    const nat = this.natGateways.get(natGatewayId);
    if (!nat) throw ec2Error('DeleteNatGateway', 'NatGatewayNotFound', `NAT gateway ${natGatewayId} was not found`);
    nat.state = 'deleted';
  }

  async describeRouteTables(query: Query): Promise<RouteTable[]> {
    return select(
      this.routeTables.values(),
      (t) => t.id,
      query,
      (t, name) =>
        ({
          'vpc-id': [t.vpcId],
          'route-table-id': [t.id],
          'association.subnet-id': t.associations.map((a) => a.subnetId),
          'association.main': t.associations.some((a) => a.main) ? ['true'] : ['false'],
        })[name],
      'DescribeRouteTables',
      'InvalidRouteTableID.NotFound',
    ).map((t) => structuredClone(t));
  }

  async createRouteTable(request: { vpcId: string; tags: Tags }): Promise<RouteTable> {
    const vpc = this.vpc('CreateRouteTable', request.vpcId);
    const table: RouteTable = { id: this.ids.next('rtb'), vpcId: vpc.id, routes: [{ destinationCidrBlock: vpc.cidrBlock, gatewayId: 'local' }], associations: [], tags: { ...request.tags } };
    this.routeTables.set(table.id, table);
    return structuredClone(table);
  }

  async createRoute(routeTableId: string, route: Route): Promise<void> {
    const table = this.table('CreateRoute', routeTableId);
    if (table.routes.some((r) => r.destinationCidrBlock === route.destinationCidrBlock)) {
      throw ec2Error('CreateRoute', 'RouteAlreadyExists', `The route identified by ${route.destinationCidrBlock} already exists.`);
    }
    if (route.gatewayId && !this.internetGateways.has(route.gatewayId)) throw ec2Error('CreateRoute', 'InvalidInternetGatewayID.NotFound', `The internet gateway ID '${route.gatewayId}' does not exist`);
    if (route.natGatewayId && !this.natGateways.has(route.natGatewayId)) throw ec2Error('CreateRoute', 'InvalidNatGatewayID.NotFound', `The nat gateway ID '${route.natGatewayId}' does not exist`);
    table.routes.push({ ...route });
  }

  async associateRouteTable(routeTableId: string, subnetId: string): Promise<string> {
    const table = this.table('AssociateRouteTable', routeTableId);
    this.subnet('AssociateRouteTable', subnetId);
    for (const other of this.routeTables.values()) {
      if (other.associations.some((a) => a.subnetId === subnetId)) throw ec2Error('AssociateRouteTable', 'Resource.AlreadyAssociated', `the specified association for route table ${other.id} conflicts with an existing association`);
    }
    const id = this.ids.next('rtbassoc');
    table.associations.push({ id, subnetId, main: false });
    return id;
  }

  async disassociateRouteTable(associationId: string): Promise<void> {
    const table = [...this.routeTables.values()].find((t) => t.associations.some((a) => a.id === associationId));
    if (!table) throw ec2Error('DisassociateRouteTable', 'InvalidAssociationID.NotFound', `The association ID '${associationId}' does not exist`);
    table.associations = table.associations.filter((a) => a.id !== associationId);
  }

  async deleteRouteTable(routeTableId: string): Promise<void> {
    const table = this.table('DeleteRouteTable', routeTableId);
    if (table.associations.length > 0) throw ec2Error('DeleteRouteTable', 'DependencyViolation', `The routeTable '${routeTableId}' has dependencies and cannot be deleted.`);
    this.routeTables.delete(routeTableId);
  }

  protected vpc(operation: string, id: string): Vpc & { dns: boolean } {
    const vpc = this.vpcs.get(id);
    if (!vpc) throw ec2Error(operation, 'InvalidVpcID.NotFound', `The vpc ID '${id}' does not exist`);
    return vpc;
  }

  protected subnet(operation: string, id: string): Subnet {
    const subnet = this.subnets.get(id);
    if (!subnet) throw ec2Error(operation, 'InvalidSubnetID.NotFound', `The subnet ID '${id}' does not exist`);
    return subnet;
  }

  private gateway(operation: string, id: string): InternetGateway {
    const gateway = this.internetGateways.get(id);
    if (!gateway) throw ec2Error(operation, 'InvalidInternetGatewayID.NotFound', `The internetGateway ID '${id}' does not exist`);
    return gateway;
  }

  private table(operation: string, id: string): RouteTable {
    const table = this.routeTables.get(id);
    if (!table) throw ec2Error(operation, 'InvalidRouteTableID.NotFound', `The routeTable ID '${id}' does not exist`);
    return table;
  }
}
