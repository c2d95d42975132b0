import type { StoredObject } from '../../../../../shared/contracts/object.js';
import type { AwsCloud } from '../../../../../shared/ports/aws-cloud.js';
import type { Subnet } from '../../../../../shared/ports/ec2.js';
import type { ReconcileContext, Scope } from '../../../engine/skeleton/types.js';
import type { SecurityGroupRole } from '../common/cluster-network.js';

export const AWS_CLUSTER_FINALIZER = 'awscluster.infrastructure.cluster.x-k8s.io';

export interface FoundSubnet extends Subnet {
  isPublic: boolean;
}

export interface AwsClusterScope extends Scope {
  cluster?: StoredObject;
  clusterName: string;
  region?: string;
  cloud?: AwsCloud;
  vpc?: { id: string; cidrBlock: string; managed: boolean };
  subnets: FoundSubnet[];
  internetGatewayId?: string;
  natGatewayIps: string[];
  securityGroups: Partial<Record<SecurityGroupRole, { id: string; name: string }>>;
  loadBalancer?: { name: string; arn: string; dnsName: string; targetGroupArn: string; availabilityZones: string[] };
  ready: boolean;
}

export function createAwsClusterScope(ctx: ReconcileContext, object: StoredObject): AwsClusterScope {
  return { ctx, object, conditions: [], clusterName: object.metadata.name, subnets: [], natGatewayIps: [], securityGroups: {}, ready: false };
}

/** CAPA's condition types. */
export const CONDITIONS = {
  vpc: 'VpcReady',
  subnets: 'SubnetsReady',
  internetGateway: 'InternetGatewayReady',
  natGateways: 'NatGatewaysReady',
  routeTables: 'RouteTablesReady',
  securityGroups: 'ClusterSecurityGroupsReady',
  loadBalancer: 'LoadBalancerReady',
} as const;
