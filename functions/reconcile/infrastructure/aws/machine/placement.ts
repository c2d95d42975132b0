/** Where an instance goes: its subnet (CAPA's findSubnet) and its core security groups. */

import { stringAt, valueAt } from '../../../../../shared/contracts/json.js';
import { CloudApiError } from '../../../../../shared/errors/index.js';
import type { ClusterNetwork } from '../common/cluster-network.js';
import type { AwsMachineScope } from './scope.js';

/**
 * `spec.subnet.id`; else a private subnet in the Machine's failure domain (public with
 * `publicIP`); else the first private (or public) subnet.
 */
export function chosenSubnet(s: AwsMachineScope, network: ClusterNetwork): string {
  const explicit = stringAt(s.object, 'spec', 'subnet', 'id');
  if (explicit) return explicit;
  if (valueAt(s.object, 'spec', 'subnet', 'filters') !== undefined) {
    throw new CloudApiError('DescribeSubnets', 'SubnetFiltersNotSupported', 'spec.subnet.filters is not supported by capless yet: name the subnet by id');
  }
  const wantPublic = valueAt(s.object, 'spec', 'publicIP') === true;
  const zone = stringAt(s.machine, 'spec', 'failureDomain');
  const candidates = network.subnets.filter((subnet) => subnet.isPublic === wantPublic);
  const inZone = zone ? candidates.filter((subnet) => subnet.availabilityZone === zone) : candidates;
  const [subnet] = [...inZone].sort((a, b) => a.availabilityZone.localeCompare(b.availabilityZone));
  if (!subnet) {
    throw new CloudApiError('DescribeSubnets', 'SubnetNotFound', `no ${wantPublic ? 'public' : 'private'} subnet${zone ? ` in ${zone}` : ''} in the cluster's network`);
  }
  return subnet.id;
}

/** CAPA's core security groups: `node` and `lb`, plus `controlplane` for control-plane machines. */
export function roleSecurityGroups(s: AwsMachineScope, network: ClusterNetwork): string[] {
  const roles = s.controlPlane ? (['controlplane', 'node', 'lb'] as const) : (['node', 'lb'] as const);
  return roles.flatMap((role) => (network.securityGroups[role] ? [network.securityGroups[role]] : []));
}

/** The ids of `spec.additionalSecurityGroups` (filters are refused before a launch). */
export function additionalSecurityGroupIds(s: AwsMachineScope): string[] {
  const extra = valueAt(s.object, 'spec', 'additionalSecurityGroups');
  return Array.isArray(extra) ? extra.flatMap((g) => (typeof valueAt(g, 'id') === 'string' ? [String(valueAt(g, 'id'))] : [])) : [];
}

/** What an instance is launched with: the core groups and the additional ones. */
export function coreSecurityGroups(s: AwsMachineScope, network: ClusterNetwork): string[] {
  return [...new Set([...roleSecurityGroups(s, network), ...additionalSecurityGroupIds(s)])];
}
