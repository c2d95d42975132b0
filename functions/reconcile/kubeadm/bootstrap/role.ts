/** Which kubeadm document a KubeadmConfig gets (capi-contract.md §3.3): pure decisions. */

import { booleanAt, isRecord, recordAt } from '../../../../shared/contracts/json.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { LABEL_CONTROL_PLANE } from '../common/well-known.js';

export type BootstrapRole = 'init' | 'controlPlaneJoin' | 'worker';

export interface RoleInputs {
  controlPlaneMachine: boolean;
  controlPlaneInitialized: boolean;
  /** The config carries only a joinConfiguration (a KCP join machine): it never contends for init. */
  joinOnly: boolean;
}

export type RoleDecision =
  | { kind: 'render'; role: BootstrapRole }
  | { kind: 'contendForInit' }
  | { kind: 'wait'; reason: 'WaitingForControlPlaneInitialization'; message: string };

export function decideRole(inputs: RoleInputs): RoleDecision {
  if (inputs.controlPlaneInitialized) {
    return { kind: 'render', role: inputs.controlPlaneMachine ? 'controlPlaneJoin' : 'worker' };
  }
  if (inputs.controlPlaneMachine && !inputs.joinOnly) return { kind: 'contendForInit' };
  return {
    kind: 'wait',
    reason: 'WaitingForControlPlaneInitialization',
    message: inputs.controlPlaneMachine
      ? 'joining control plane machine waits for the control plane to be initialized'
      : 'worker machine waits for the control plane to be initialized',
  };
}

export function isControlPlaneMachine(machine: KubeObject): boolean {
  return machine.metadata.labels?.[LABEL_CONTROL_PLANE] !== undefined;
}

function nonEmptyRecord(value: unknown): boolean {
  return isRecord(value) && Object.keys(value).length > 0;
}

/**
 * joinConfiguration set, initConfiguration empty, and either clusterConfiguration empty or
 * joinConfiguration.controlPlane set: a KubeadmControlPlane's joining Machine keeps its cluster
 * configuration (to tell an external etcd) and is still never the one to init.
 */
export function isJoinOnly(config: KubeObject): boolean {
  const has = (field: string) => nonEmptyRecord(recordAt(config, 'spec', field));
  const controlPlaneJoin = isRecord(recordAt(config, 'spec', 'joinConfiguration')?.controlPlane);
  return has('joinConfiguration') && !has('initConfiguration') && (!has('clusterConfiguration') || controlPlaneJoin);
}

export function controlPlaneInitialized(cluster: KubeObject): boolean {
  return booleanAt(cluster, 'status', 'initialization', 'controlPlaneInitialized') === true;
}
