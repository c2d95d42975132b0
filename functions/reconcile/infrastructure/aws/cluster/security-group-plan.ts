/**
 * CAPA's security groups per role (pkg/cloud/services/securitygroup) and their ingress rules,
 * which refer to one another, so the rules are planned once every group has an id.
 */

import type { IngressRule } from '../../../../../shared/ports/ec2.js';
import type { SecurityGroupRole } from '../common/cluster-network.js';

export const SECURITY_GROUP_ROLES: readonly SecurityGroupRole[] = ['apiserver-lb', 'lb', 'controlplane', 'node'];
export const API_SERVER_PORT = 6443;

export interface CniIngressRule {
  description?: string;
  protocol: string;
  fromPort: number;
  toPort: number;
}

/** Calico's BGP and IP-in-IP, CAPA's default CNI rules. */
export const DEFAULT_CNI_RULES: readonly CniIngressRule[] = [
  { description: 'bgp (calico)', protocol: 'tcp', fromPort: 179, toPort: 179 },
  { description: 'IP-in-IP (calico)', protocol: '4', fromPort: -1, toPort: 65535 },
];

export function securityGroupName(cluster: string, role: SecurityGroupRole): string {
  return `${cluster}-${role}`;
}

export function ingressRules(
  role: SecurityGroupRole,
  ids: Readonly<Record<SecurityGroupRole, string>>,
  vpcCidr: string,
  cniRules: readonly CniIngressRule[] = DEFAULT_CNI_RULES,
): IngressRule[] {
  const cni = (sources: string[]) => cniRules.map((r) => ({ ...r, sourceSecurityGroupIds: sources }));
  switch (role) {
    case 'controlplane':
      return [
        { description: 'Kubernetes API', protocol: 'tcp', fromPort: API_SERVER_PORT, toPort: API_SERVER_PORT, sourceSecurityGroupIds: [ids['apiserver-lb'], ids.controlplane, ids.node] },
        { description: 'etcd', protocol: 'tcp', fromPort: 2379, toPort: 2379, sourceSecurityGroupIds: [ids.controlplane] },
        { description: 'etcd peer', protocol: 'tcp', fromPort: 2380, toPort: 2380, sourceSecurityGroupIds: [ids.controlplane] },
        ...cni([ids.controlplane, ids.node]),
      ];
    case 'node':
      return [
        { description: 'Node Port Services', protocol: 'tcp', fromPort: 30000, toPort: 32767, cidrBlocks: ['0.0.0.0/0'] },
        { description: 'Kubelet API', protocol: 'tcp', fromPort: 10250, toPort: 10250, sourceSecurityGroupIds: [ids.controlplane, ids.node] },
        ...cni([ids.controlplane, ids.node]),
      ];
    case 'apiserver-lb':
      return [{ description: 'Kubernetes API', protocol: 'tcp', fromPort: API_SERVER_PORT, toPort: API_SERVER_PORT, cidrBlocks: ['0.0.0.0/0'] }];
    case 'lb':
      return [{ description: 'Kubernetes API from the VPC', protocol: 'tcp', fromPort: API_SERVER_PORT, toPort: API_SERVER_PORT, cidrBlocks: [vpcCidr] }];
  }
}

/** A rule as a comparable key (description aside), for diffing against what EC2 reports. */
export function ruleKey(rule: IngressRule): string {
  // EC2 ignores ports for protocols other than TCP, UDP and ICMP and may report them unset.
  const ported = ['tcp', 'udp', 'icmp', '6', '17', '1'].includes(rule.protocol);
  return JSON.stringify([rule.protocol, ported ? rule.fromPort : -1, ported ? rule.toPort : -1, [...(rule.cidrBlocks ?? [])].sort(), [...(rule.sourceSecurityGroupIds ?? [])].sort()]);
}

/** EC2 reports one permission per (protocol, ports) with all its sources: split to one rule per source. */
export function perSource(rule: IngressRule): IngressRule[] {
  return [
    ...(rule.cidrBlocks ?? []).map((cidr) => ({ protocol: rule.protocol, fromPort: rule.fromPort, toPort: rule.toPort, cidrBlocks: [cidr] })),
    ...(rule.sourceSecurityGroupIds ?? []).map((id) => ({ protocol: rule.protocol, fromPort: rule.fromPort, toPort: rule.toPort, sourceSecurityGroupIds: [id] })),
  ];
}

/** Rules of `wanted` not yet in `existing`, one per source. */
export function missingRules(wanted: readonly IngressRule[], existing: readonly IngressRule[]): IngressRule[] {
  const have = new Set(existing.flatMap(perSource).map(ruleKey));
  const seen = new Set<string>();
  return wanted.flatMap(perSource).filter((rule) => {
    const key = ruleKey(rule);
    if (have.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
