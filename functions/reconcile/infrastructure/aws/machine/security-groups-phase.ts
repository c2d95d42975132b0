/**
 * A running AWSMachine's network interfaces carry the security groups it asks for (CAPA's
 * ensureSecurityGroups): the core groups of its role and `spec.additionalSecurityGroups`, which
 * users may change after launch. Groups added since the last apply are attached; groups dropped
 * since (kept in CAPA's `sigs.k8s.io/cluster-api-provider-aws-last-applied-security-groups`
 * annotation) are detached; the core groups are always put back. When an interface's groups
 * already are those, nothing is called and nothing written. EC2 first, then the annotation: a
 * crash between the two repeats the same replacement.
 */
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { readClusterNetwork } from '../common/cluster-network.js';
import { isCloudApiError } from '../../../../../shared/errors/index.js';
import { lastApplied, recordLastApplied } from './last-applied.js';
import { additionalSecurityGroupIds, roleSecurityGroups } from './placement.js';
import type { AwsMachineScope } from './scope.js';

export const SECURITY_GROUPS_LAST_APPLIED_ANNOTATION = 'sigs.k8s.io/cluster-api-provider-aws-last-applied-security-groups';
const RETRY_SECONDS = 30;
/** CAPA's AWSMachine condition. */
export const SECURITY_GROUPS_READY = 'SecurityGroupsReady';

/** CAPA's securityGroupsChanged: the groups wanted, and whether some interface has others. */
export function securityGroupsChanged(lastAppliedIds: readonly string[], core: readonly string[], additional: readonly string[], existing: readonly (readonly string[])[]): { changed: boolean; ids: string[] } {
  const state = new Map<string, boolean>(additional.map((id) => [id, true]));
  for (const id of lastAppliedIds) if (!state.has(id)) state.set(id, false);
  for (const id of core) state.set(id, true);
  const ids = [...state].filter(([, keep]) => keep).map(([id]) => id).sort();
  const changed = existing.some((groups) => groups.length !== ids.length || [...groups].sort().some((id, i) => id !== ids[i]));
  return { changed, ids };
}

export async function securityGroupsPhase(s: AwsMachineScope): Promise<PhaseResult> {
  const instance = s.instance;
  const network = readClusterNetwork(s.awsCluster);
  if (!instance || !s.cloud || !network || (instance.state !== 'running' && instance.state !== 'pending')) return {};
  let additional: string[] = [];
  try {
    additional = await additionalSecurityGroupIds(s, s.cloud.ec2);
    const interfaces = await s.cloud.ec2.describeInstanceNetworkInterfaces(instance.id);
    const previous = Object.keys(lastApplied(s.object.metadata.annotations, SECURITY_GROUPS_LAST_APPLIED_ANNOTATION));
    const { changed, ids } = securityGroupsChanged(previous, roleSecurityGroups(s, network), additional, interfaces.map((eni) => eni.securityGroupIds));
    s.conditions.push({ type: SECURITY_GROUPS_READY, status: 'True', reason: 'SecurityGroupsReady' });
    if (!changed) return {};
    for (const eni of interfaces) await s.cloud.ec2.setNetworkInterfaceSecurityGroups(eni.id, ids);
  } catch (error) {
    // CAPA marks SecurityGroupsReady False and retries; the instance runs on with the groups it had.
    if (!isCloudApiError(error)) throw error;
    s.conditions.push({ type: SECURITY_GROUPS_READY, status: 'False', reason: 'SecurityGroupsFailed', message: error.message });
    return { requeueAfterSeconds: RETRY_SECONDS };
  }
  await recordLastApplied(s, { [SECURITY_GROUPS_LAST_APPLIED_ANNOTATION]: Object.fromEntries(additional.map((id) => [id, {}])) });
  return {};
}
