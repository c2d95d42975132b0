/**
 * What ELBv2 holds for one cluster, read straight from the service (moto in test:aws): the load
 * balancers and target groups carrying CAPA's ownership tag for the cluster, with each target
 * group's registered targets. The scenarios assert on it instead of trusting the adapter under test.
 */

import {
  DescribeLoadBalancersCommand,
  DescribeTagsCommand,
  DescribeTargetGroupsCommand,
  DescribeTargetHealthCommand,
  type ElasticLoadBalancingV2Client,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { capaClusterTagKey, OWNED } from '../../shared/contracts/providers/aws/aws-tags.js';

export interface ClusterLoadBalancing {
  loadBalancers: { arn: string; name: string; dnsName: string }[];
  targetGroups: { arn: string; name: string; targets: string[] }[];
}

const TAGS_PER_CALL = 20;

async function ownedArns(client: ElasticLoadBalancingV2Client, arns: string[], cluster: string): Promise<Set<string>> {
  const owned = new Set<string>();
  for (let i = 0; i < arns.length; i += TAGS_PER_CALL) {
    const { TagDescriptions } = await client.send(new DescribeTagsCommand({ ResourceArns: arns.slice(i, i + TAGS_PER_CALL) }));
    for (const d of TagDescriptions ?? []) {
      if (d.ResourceArn && d.Tags?.some((t) => t.Key === capaClusterTagKey(cluster) && t.Value === OWNED)) owned.add(d.ResourceArn);
    }
  }
  return owned;
}

export async function clusterLoadBalancing(client: ElasticLoadBalancingV2Client, cluster: string): Promise<ClusterLoadBalancing> {
  const loadBalancers = [];
  let marker: string | undefined;
  do {
    const page = await client.send(new DescribeLoadBalancersCommand(marker ? { Marker: marker } : {}));
    loadBalancers.push(...(page.LoadBalancers ?? []));
    marker = page.NextMarker;
  } while (marker);
  const groups = [];
  do {
    const page = await client.send(new DescribeTargetGroupsCommand(marker ? { Marker: marker } : {}));
    groups.push(...(page.TargetGroups ?? []));
    marker = page.NextMarker;
  } while (marker);

  const ownedLbs = await ownedArns(client, loadBalancers.flatMap((lb) => (lb.LoadBalancerArn ? [lb.LoadBalancerArn] : [])), cluster);
  const ownedTgs = await ownedArns(client, groups.flatMap((tg) => (tg.TargetGroupArn ? [tg.TargetGroupArn] : [])), cluster);
  const targetGroups = [];
  for (const tg of groups) {
    if (!tg.TargetGroupArn || !ownedTgs.has(tg.TargetGroupArn)) continue;
    const health = await client.send(new DescribeTargetHealthCommand({ TargetGroupArn: tg.TargetGroupArn }));
    const targets = (health.TargetHealthDescriptions ?? []).filter((d) => d.TargetHealth?.State !== 'draining').flatMap((d) => (d.Target?.Id ? [d.Target.Id] : []));
    targetGroups.push({ arn: tg.TargetGroupArn, name: tg.TargetGroupName ?? '', targets: targets.sort() });
  }
  return {
    loadBalancers: loadBalancers
      .filter((lb) => lb.LoadBalancerArn && ownedLbs.has(lb.LoadBalancerArn))
      .map((lb) => ({ arn: lb.LoadBalancerArn ?? '', name: lb.LoadBalancerName ?? '', dnsName: lb.DNSName ?? '' })),
    targetGroups,
  };
}
