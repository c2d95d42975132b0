import type { StatusUpdate } from '../../../engine/skeleton/types.js';
import type { AwsClusterScope } from './scope.js';

/** v1beta1 failure domains: every zone with a private subnet, eligible for the control plane. */
export function failureDomainsOf(s: AwsClusterScope): Record<string, { controlPlane: boolean }> {
  const zones = [...new Set(s.subnets.filter((sn) => !sn.isPublic).map((sn) => sn.availabilityZone))].sort();
  return Object.fromEntries(zones.map((zone) => [zone, { controlPlane: true }]));
}

/**
 * The v1beta1 InfraCluster contract (`ready`, `failureDomains`) and CAPA's `networkStatus`, plus
 * capless's `network` (VPC and subnets). What this run did not learn keeps its previous value.
 */
export function computeAwsClusterStatus(s: AwsClusterScope): StatusUpdate {
  const { conditions: _c, observedGeneration: _g, ...previous } = s.object.status ?? {};
  const learned: Record<string, unknown> = {};
  if (s.vpc && s.subnets.length > 0) {
    learned.network = {
      vpcId: s.vpc.id,
      cidrBlock: s.vpc.cidrBlock,
      managed: s.vpc.managed,
      subnets: s.subnets.map((sn) => ({ id: sn.id, availabilityZone: sn.availabilityZone, cidrBlock: sn.cidrBlock, isPublic: sn.isPublic })),
      ...(s.internetGatewayId ? { internetGatewayId: s.internetGatewayId } : {}),
    };
    learned.failureDomains = failureDomainsOf(s);
  }
  if (Object.keys(s.securityGroups).length > 0 || s.loadBalancer) {
    learned.networkStatus = {
      ...(Object.keys(s.securityGroups).length > 0 ? { securityGroups: s.securityGroups } : {}),
      ...(s.loadBalancer
        ? {
            apiServerElb: {
              name: s.loadBalancer.name,
              arn: s.loadBalancer.arn,
              dnsName: s.loadBalancer.dnsName,
              targetGroupArn: s.loadBalancer.targetGroupArn,
              availabilityZones: s.loadBalancer.availabilityZones,
              loadBalancerType: 'nlb',
            },
          }
        : {}),
      ...(s.natGatewayIps.length > 0 ? { natGatewaysIPs: s.natGatewayIps } : {}),
    };
  }
  // Once ready, an AWSCluster stays ready through transient cloud errors (CAPA sets it only on success).
  return { fields: { ...previous, ...learned, ready: s.ready || previous.ready === true } };
}
