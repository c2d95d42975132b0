/** Where an instance goes: its subnet (CAPA's findSubnet) and its core security groups. */

import { stringAt, valueAt } from '../../../../../shared/contracts/json.js';
import { CloudApiError } from '../../../../../shared/errors/index.js';
import type { Ec2Network, Ec2SecurityGroups, Filter } from '../../../../../shared/ports/ec2.js';
import type { ClusterNetwork } from '../common/cluster-network.js';
import type { AwsMachineScope } from './scope.js';

/** CAPA's tag on the subnets of a VPC's secondary CIDR block, which instances are not launched into. */
const SUBNET_ASSOCIATION_TAG = 'sigs.k8s.io/cluster-api-provider-aws/association';
const SECONDARY_ASSOCIATION = 'secondary';

/** CAPA's AWSResourceReference filters (`[{ name, values }]`) as EC2 filters. */
function awsFilters(filters: unknown): Filter[] {
  if (!Array.isArray(filters)) return [];
  return filters.flatMap((f) => {
    const name = stringAt(f, 'name');
    const values = valueAt(f, 'values');
    return name && Array.isArray(values) ? [{ name, values: values.filter((v): v is string => typeof v === 'string') }] : [];
  });
}

function describeCriteria(criteria: readonly Filter[]): string {
  return criteria.map((f) => `${f.name}=${f.values.join(',')}`).join(' ');
}

/**
 * `spec.subnet.id` or `spec.subnet.filters`: asked of EC2 (subnets pending or available, matching
 * them), then kept when in the Machine's failure domain, public when `publicIP` asks for it (among
 * the cluster's), and not of a secondary CIDR block; the cluster's VPC first (CAPA's findSubnet).
 */
async function subnetFromEc2(s: AwsMachineScope, network: ClusterNetwork, ec2: Pick<Ec2Network, 'describeSubnets'>, zone: string | undefined, wantPublic: boolean): Promise<string> {
  const id = stringAt(s.object, 'spec', 'subnet', 'id');
  const criteria: Filter[] = [{ name: 'state', values: ['pending', 'available'] }, ...(id ? [{ name: 'subnet-id', values: [id] }] : []), ...awsFilters(valueAt(s.object, 'spec', 'subnet', 'filters'))];
  const found = await ec2.describeSubnets({ filters: criteria });
  const name = s.object.metadata.name;
  if (found.length === 0) throw new CloudApiError('DescribeSubnets', 'SubnetNotFound', `failed to run machine "${name}", no subnets available matching criteria ${describeCriteria(criteria)}`);
  const reasons: string[] = [];
  const kept = found.filter((subnet) => {
    if (zone && subnet.availabilityZone !== zone) reasons.push(` subnet "${subnet.id}" availability zone "${subnet.availabilityZone}" does not match failure domain "${zone}".`);
    else if (wantPublic && !network.subnets.some((known) => known.id === subnet.id)) reasons.push(` unable to find subnet "${subnet.id}" among the AWSCluster subnets.`);
    else if (wantPublic && !network.subnets.some((known) => known.id === subnet.id && known.isPublic)) reasons.push(` subnet "${subnet.id}" is a private subnet.`);
    else if (subnet.tags[SUBNET_ASSOCIATION_TAG] === SECONDARY_ASSOCIATION) reasons.push(` subnet "${subnet.id}" belongs to a secondary CIDR block which won't be used to create instances.`);
    else return true;
    return false;
  });
  const [chosen] = [...kept].sort((a, b) => Number(b.vpcId === network.vpcId) - Number(a.vpcId === network.vpcId));
  if (!chosen) throw new CloudApiError('DescribeSubnets', 'SubnetNotFound', `failed to run machine "${name}", found ${found.length} subnets matching criteria but post-filtering failed.${reasons.join('')}`);
  return chosen.id;
}

/**
 * `spec.subnet.id` or `spec.subnet.filters` (asked of EC2); else a private subnet in the Machine's
 * failure domain (public with `publicIP`); else the first private (or public) subnet.
 */
export async function chosenSubnet(s: AwsMachineScope, network: ClusterNetwork, ec2: Pick<Ec2Network, 'describeSubnets'>): Promise<string> {
  const wantPublic = valueAt(s.object, 'spec', 'publicIP') === true;
  const zone = stringAt(s.machine, 'spec', 'failureDomain');
  if (stringAt(s.object, 'spec', 'subnet', 'id') || valueAt(s.object, 'spec', 'subnet', 'filters') !== undefined) return subnetFromEc2(s, network, ec2, zone, wantPublic);
  const candidates = network.subnets.filter((subnet) => subnet.isPublic === wantPublic);
  const inZone = zone ? candidates.filter((subnet) => subnet.availabilityZone === zone) : candidates;
  const [subnet] = [...inZone].sort((a, b) => a.availabilityZone.localeCompare(b.availabilityZone));
  if (!subnet) {
    throw new CloudApiError('DescribeSubnets', 'SubnetNotFound', `no ${wantPublic ? 'public' : 'private'} subnet${zone ? ` in ${zone}` : ''} in the cluster's network`);
  }
  return subnet.id;
}

/** CAPA's core security groups: `node` and `lb`, plus `controlplane` for control-plane machines, each overridable. */
export function roleSecurityGroups(s: AwsMachineScope, network: ClusterNetwork): string[] {
  const roles = s.controlPlane ? (['controlplane', 'node', 'lb'] as const) : (['node', 'lb'] as const);
  return roles.flatMap((role) => {
    // CAPA's GetCoreSecurityGroups: the AWSMachine's `securityGroupOverrides[role]` stands for the cluster's group.
    const group = stringAt(s.object, 'spec', 'securityGroupOverrides', role) ?? network.securityGroups[role];
    return group ? [group] : [];
  });
}

/**
 * The ids of `spec.additionalSecurityGroups`: an entry's `id`, or every group EC2 finds for its
 * `filters` (CAPA's GetAdditionalSecurityGroupsIDs); EC2 is asked only when an entry has filters.
 */
export async function additionalSecurityGroupIds(s: AwsMachineScope, ec2: Pick<Ec2SecurityGroups, 'describeSecurityGroups'>): Promise<string[]> {
  const extra = valueAt(s.object, 'spec', 'additionalSecurityGroups');
  if (!Array.isArray(extra)) return [];
  const ids: string[] = [];
  for (const group of extra) {
    const id = stringAt(group, 'id');
    const filters = awsFilters(valueAt(group, 'filters'));
    if (id) ids.push(id);
    else if (filters.length > 0) ids.push(...(await ec2.describeSecurityGroups({ filters })).map((found) => found.id));
  }
  return [...new Set(ids)];
}

/** What an instance is launched with: the core groups and the additional ones. */
export async function coreSecurityGroups(s: AwsMachineScope, network: ClusterNetwork, ec2: Pick<Ec2SecurityGroups, 'describeSecurityGroups'>): Promise<string[]> {
  return [...new Set([...roleSecurityGroups(s, network), ...(await additionalSecurityGroupIds(s, ec2))])];
}
