/**
 * What an AWSCluster's status says about its network, read defensively: CAPA's
 * `status.networkStatus` (security groups by role, the API server load balancer) plus capless's
 * `status.network` (the VPC and subnets it found or created, since capless does not write them
 * back into spec as CAPA does). The AWSCluster reconciler writes it, the AWSMachine reconciler reads it.
 */

import { isRecord, recordAt, stringAt, valueAt } from '../../../../../shared/contracts/json.js';
import type { KubeObject } from '../../../../../shared/contracts/object.js';

export type SecurityGroupRole = 'apiserver-lb' | 'lb' | 'controlplane' | 'node';

export interface SubnetStatus {
  id: string;
  availabilityZone: string;
  cidrBlock: string;
  isPublic: boolean;
}

export interface ClusterNetwork {
  vpcId: string;
  /** capless created the VPC (managed) or the user brought it (unmanaged: nothing is changed). */
  managed: boolean;
  subnets: SubnetStatus[];
  securityGroups: Partial<Record<SecurityGroupRole, string>>;
  apiServerLoadBalancer?: { name: string; arn: string; dnsName: string; targetGroupArn?: string };
}

export function readClusterNetwork(awsCluster: KubeObject | undefined): ClusterNetwork | undefined {
  const network = recordAt(awsCluster, 'status', 'network');
  const vpcId = stringAt(network, 'vpcId');
  if (!network || !vpcId) return undefined;
  const subnets = Array.isArray(network.subnets)
    ? network.subnets.flatMap((s): SubnetStatus[] =>
        isRecord(s) && typeof s.id === 'string' && typeof s.availabilityZone === 'string'
          ? [{ id: s.id, availabilityZone: s.availabilityZone, cidrBlock: typeof s.cidrBlock === 'string' ? s.cidrBlock : '', isPublic: s.isPublic === true }]
          : [],
      )
    : [];
  const groups = recordAt(awsCluster, 'status', 'networkStatus', 'securityGroups') ?? {};
  const securityGroups: Partial<Record<SecurityGroupRole, string>> = {};
  for (const role of ['apiserver-lb', 'lb', 'controlplane', 'node'] as const) {
    const id = stringAt(groups, role, 'id');
    if (id) securityGroups[role] = id;
  }
  const elb = recordAt(awsCluster, 'status', 'networkStatus', 'apiServerElb');
  const name = stringAt(elb, 'name');
  const arn = stringAt(elb, 'arn');
  const dnsName = stringAt(elb, 'dnsName');
  const targetGroupArn = stringAt(elb, 'targetGroupArn');
  return {
    vpcId,
    managed: valueAt(network, 'managed') === true,
    subnets,
    securityGroups,
    ...(name && arn && dnsName ? { apiServerLoadBalancer: { name, arn, dnsName, ...(targetGroupArn ? { targetGroupArn } : {}) } } : {}),
  };
}

/** `aws:///<zone>/<instance-id>` (CAPA pkg/cloud/scope/providerid.go). */
export function awsProviderID(availabilityZone: string, instanceId: string): string {
  return `aws:///${availabilityZone}/${instanceId}`;
}

export function parseAwsProviderID(providerID: string | undefined): { availabilityZone: string; instanceId: string } | undefined {
  const match = providerID ? /^aws:\/\/\/([^/]+)\/(i-[0-9a-zA-Z]+)$/.exec(providerID) : null;
  return match?.[1] && match[2] ? { availabilityZone: match[1], instanceId: match[2] } : undefined;
}

/** The region of a zone (`us-east-1a` → `us-east-1`; local zones `us-east-1-bos-1a` → `us-east-1`). */
export function regionOfZone(zone: string): string {
  const match = /^([a-z]{2}(?:-gov)?-[a-z]+-\d+)/.exec(zone);
  return match?.[1] ?? zone.replace(/[a-z]$/, '');
}
