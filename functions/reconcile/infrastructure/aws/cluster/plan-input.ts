/** The network plan of an AWSCluster from its spec (CAPA's defaults where unset). */

import { numberAt, recordAt, stringAt } from '../../../../../shared/contracts/json.js';
import type { Tags } from '../../../../../shared/contracts/providers/aws/aws-tags.js';
import { DEFAULT_AZ_LIMIT, DEFAULT_VPC_CIDR, type NetworkPlan, planNetwork } from './network-plan.js';
import type { AwsClusterScope } from './scope.js';

export function additionalTagsOf(s: AwsClusterScope): Tags {
  const tags = recordAt(s.object, 'spec', 'additionalTags') ?? {};
  return Object.fromEntries(Object.entries(tags).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export function networkPlanOf(s: AwsClusterScope, zones: readonly string[]): NetworkPlan {
  return planNetwork({
    cluster: s.clusterName,
    vpcCidr: stringAt(s.object, 'spec', 'network', 'vpc', 'cidrBlock') ?? DEFAULT_VPC_CIDR,
    zones,
    azLimit: numberAt(s.object, 'spec', 'network', 'vpc', 'availabilityZoneUsageLimit') ?? DEFAULT_AZ_LIMIT,
    additionalTags: additionalTagsOf(s),
  });
}
