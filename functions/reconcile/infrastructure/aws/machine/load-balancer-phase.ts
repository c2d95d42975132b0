/** Control-plane instances join the API server load balancer's target group once running (CAPA's ELBAttached). */

import { CloudApiError } from '../../../../../shared/errors/index.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { cloudFailure } from '../common/cloud-error.js';
import { readClusterNetwork } from '../common/cluster-network.js';
import { type AwsMachineScope, ELB_ATTACHED } from './scope.js';

export const API_SERVER_PORT = 6443;

export async function loadBalancerAttachPhase(s: AwsMachineScope): Promise<PhaseResult> {
  if (!s.controlPlane || s.instance?.state !== 'running') return {};
  const targetGroupArn = readClusterNetwork(s.awsCluster)?.apiServerLoadBalancer?.targetGroupArn;
  if (!targetGroupArn) return {};
  try {
    const loadBalancers = s.cloud?.loadBalancers;
    if (!loadBalancers) throw new CloudApiError('RegisterTargets', 'LoadBalancerProviderMissing', 'no ELBv2 implementation is wired into this control plane');
    const targets = await loadBalancers.describeTargets(targetGroupArn);
    if (!targets.includes(s.instance.id)) await loadBalancers.registerTarget(targetGroupArn, s.instance.id, API_SERVER_PORT);
  } catch (error) {
    return { ...cloudFailure(s, ELB_ATTACHED, 'ELBAttachFailed', error), stop: false };
  }
  s.conditions.push({ type: ELB_ATTACHED, status: 'True', reason: 'ELBAttached' });
  return {};
}
