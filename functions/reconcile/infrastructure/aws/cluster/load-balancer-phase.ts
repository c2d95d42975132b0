/**
 * The control plane's network load balancer (CAPA's elbv2 path): named `<ns>-<cluster>-apiserver`
 * (a hash past 32 characters), in one subnet per zone (public for internet-facing), a TCP 6443
 * target group and listener; its DNS name becomes `spec.controlPlaneEndpoint` (written once, it is
 * immutable). `loadBalancerType: disabled` waits for an endpoint set by someone else.
 */

import { createHash } from 'node:crypto';
import { stringAt, valueAt } from '../../../../../shared/contracts/json.js';
import { ownedResourceTags } from '../../../../../shared/contracts/providers/aws/aws-tags.js';
import { readEndpoint } from '../../../../../shared/contracts/providers/fields.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { updateFresh } from '../../../engine/references/update-fresh.js';
import { cloudFailure } from '../common/cloud-error.js';
import { additionalTagsOf } from './plan-input.js';
import { type AwsClusterScope, CONDITIONS } from './scope.js';
import { API_SERVER_PORT } from './security-group-plan.js';

export const WAIT_FOR_DNS_SECONDS = 15;

/**
 * CAPA's attributes of an NLB's API-server target group (pkg/cloud/services/elb/loadbalancer.go):
 * without `preserve_client_ip.enabled=false` a control-plane instance cannot reach the API server
 * through the load balancer when the load balancer picks that instance itself (hairpin), which
 * breaks kubeadm's joins.
 */
export const API_SERVER_TARGET_GROUP_ATTRIBUTES: Readonly<Record<string, string>> = {
  'deregistration_delay.connection_termination.enabled': 'false',
  'deregistration_delay.timeout_seconds': '300',
  'preserve_client_ip.enabled': 'false',
};
const MAX_NAME = 32;

function base36Hash(text: string, length: number): string {
  return BigInt(`0x${createHash('sha256').update(text).digest('hex')}`).toString(36).slice(0, length);
}

/** CAPA's ELB name: `<base>-apiserver`, dots to dashes; past 32 characters a 28-char hash + `-k8s`. */
export function loadBalancerName(namespace: string, cluster: string): string {
  const name = `${namespace}-${cluster}-apiserver`.replaceAll('.', '-');
  return name.length <= MAX_NAME ? name : `${base36Hash(name, 28)}-k8s`;
}

/** CAPA names it `apiserver-target-<random>`; capless derives the suffix from the AWSCluster uid (same on every run). */
export function targetGroupName(uid: string): string {
  return `apiserver-target-${base36Hash(uid, 5)}`;
}

export async function loadBalancerPhase(s: AwsClusterScope): Promise<PhaseResult> {
  if (!s.cloud || !s.vpc) return { stop: true };
  const type = stringAt(s.object, 'spec', 'controlPlaneLoadBalancer', 'loadBalancerType') ?? 'classic';
  if (type === 'disabled') {
    if (readEndpoint(valueAt(s.object, 'spec', 'controlPlaneEndpoint'))) return {};
    s.conditions.push({ type: CONDITIONS.loadBalancer, status: 'False', reason: 'WaitForExternalControlPlaneEndpoint' });
    return { stop: true, requeueAfterSeconds: WAIT_FOR_DNS_SECONDS };
  }
  const scheme = stringAt(s.object, 'spec', 'controlPlaneLoadBalancer', 'scheme') === 'internal' ? 'internal' : 'internet-facing';
  const name = loadBalancerName(s.object.metadata.namespace, s.clusterName);
  try {
    const loadBalancers = s.cloud.loadBalancers;
    const tags = ownedResourceTags(s.clusterName, name, 'apiserver', additionalTagsOf(s));
    const subnets = [...new Map(s.subnets.filter((sn) => sn.isPublic === (scheme === 'internet-facing')).map((sn) => [sn.availabilityZone, sn.id])).values()];
    const groups = [s.securityGroups['apiserver-lb']?.id, s.securityGroups.lb?.id].flatMap((id) => (id ? [id] : []));
    const lb = (await loadBalancers.findLoadBalancer(name)) ?? (await loadBalancers.createLoadBalancer({ name, scheme, subnetIds: subnets, securityGroupIds: groups, tags }));
    const tgName = targetGroupName(s.object.metadata.uid);
    const tg = (await loadBalancers.findTargetGroup(tgName)) ?? (await loadBalancers.createTargetGroup({ name: tgName, vpcId: s.vpc.id, port: API_SERVER_PORT, tags: { ...tags, Name: tgName } }));
    await loadBalancers.ensureTargetGroupAttributes(tg.arn, API_SERVER_TARGET_GROUP_ATTRIBUTES);
    await loadBalancers.ensureListener(lb.arn, API_SERVER_PORT, tg.arn);
    s.loadBalancer = { name, arn: lb.arn, dnsName: lb.dnsName, targetGroupArn: tg.arn, availabilityZones: lb.availabilityZones };
    if (!lb.dnsName || lb.state !== 'active') {
      s.conditions.push({ type: CONDITIONS.loadBalancer, status: 'False', reason: 'WaitForDNSName', message: `load balancer ${name} is ${lb.state}` });
      return { stop: true, requeueAfterSeconds: WAIT_FOR_DNS_SECONDS };
    }
  } catch (error) {
    return cloudFailure(s, CONDITIONS.loadBalancer, 'LoadBalancerFailed', error);
  }
  const host = s.loadBalancer.dnsName;
  const written = await updateFresh(s.ctx.store, s.object, (current) =>
    readEndpoint(valueAt(current, 'spec', 'controlPlaneEndpoint')) ? undefined : { ...current, spec: { ...current.spec, controlPlaneEndpoint: { host, port: API_SERVER_PORT } } },
  );
  if (written) s.object = written;
  s.conditions.push({ type: CONDITIONS.loadBalancer, status: 'True', reason: 'LoadBalancerReady' });
  return {};
}
