/** ELBv2's wire shapes to the LoadBalancers port's and back (tags as a list, states as the port's three). */

import type { LoadBalancer as SdkLoadBalancer, Tag, TagDescription, TargetHealthStateEnum } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { Tags } from '../../../contracts/providers/aws/aws-tags.js';
import type { LoadBalancer } from '../../../ports/load-balancers.js';

export function tagList(tags: Tags): Tag[] {
  return Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
}

export function tagsOf(tags: readonly Tag[] | undefined): Tags {
  return Object.fromEntries((tags ?? []).flatMap((t) => (t.Key === undefined ? [] : [[t.Key, t.Value ?? '']])));
}

/** The tags DescribeTags answered for one ARN (none when it did not list the ARN). */
export function tagsFor(descriptions: readonly TagDescription[] | undefined, arn: string): Tags {
  return tagsOf(descriptions?.find((d) => d.ResourceArn === arn)?.Tags);
}

/**
 * `active_impaired` still serves traffic (it cannot scale), so it is `active` here; an unknown or
 * missing state is `provisioning`, which makes the reconciler look again rather than trust it.
 */
export function stateOf(code: string | undefined): LoadBalancer['state'] {
  if (code === 'active' || code === 'active_impaired') return 'active';
  if (code === 'failed') return 'failed';
  return 'provisioning';
}

export function loadBalancerOf(lb: SdkLoadBalancer, tags: Tags): LoadBalancer {
  return {
    arn: lb.LoadBalancerArn ?? '',
    name: lb.LoadBalancerName ?? '',
    dnsName: lb.DNSName ?? '',
    scheme: lb.Scheme === 'internal' ? 'internal' : 'internet-facing',
    state: stateOf(lb.State?.Code),
    availabilityZones: (lb.AvailabilityZones ?? []).flatMap((z) => (z.ZoneName ? [z.ZoneName] : [])),
    tags,
  };
}

/**
 * Targets that are registered: a deregistered target stays listed as `draining` for the
 * deregistration delay, but it is on its way out (and DeregisterTargets need not be called again).
 */
export function isRegistered(state: TargetHealthStateEnum | string | undefined): boolean {
  return state !== 'draining';
}
