/** Pure Machine status: phase, summary conditions and the status fields. */

import type { ConditionInput } from '../../../shared/contracts/conditions.js';
import { stringAt } from '../../../shared/contracts/json.js';
import { isDeleting } from '../../../shared/contracts/object.js';
import type { StatusUpdate } from '../skeleton/types.js';
import type { MachineScope } from './scope.js';

export type MachinePhase = 'Pending' | 'Provisioning' | 'Provisioned' | 'Running' | 'Deleting';

export interface MachinePhaseFacts {
  deleting: boolean;
  bootstrapDataSecretCreated: boolean;
  infrastructureProvisioned: boolean;
  providerID: boolean;
  nodeRef: boolean;
}

/** capi-contract.md §3.2 phase rules. */
export function machinePhase(f: MachinePhaseFacts): MachinePhase {
  if (f.deleting) return 'Deleting';
  if (f.nodeRef && f.infrastructureProvisioned) return 'Running';
  if (f.providerID) return 'Provisioned';
  if (f.bootstrapDataSecretCreated) return 'Provisioning';
  return 'Pending';
}

export const MACHINE_READY_INPUTS = ['BootstrapConfigReady', 'InfrastructureReady', 'NodeHealthy'] as const;

/** Ready = every input True (first failing one named); Available = Ready; UpToDate always True here. */
export function machineSummaryConditions(conditions: readonly ConditionInput[]): ConditionInput[] {
  const notTrue = MACHINE_READY_INPUTS.flatMap((type) => {
    const found = conditions.find((c) => c.type === type);
    return found?.status === 'True' ? [] : [{ type, reason: found?.reason ?? 'Unknown' }];
  });
  const ready: ConditionInput =
    notTrue.length === 0
      ? { type: 'Ready', status: 'True', reason: 'Ready' }
      : {
          type: 'Ready',
          status: 'False',
          reason: 'NotReady',
          message: notTrue.map((c) => `${c.type}: ${c.reason}`).join('; '),
        };
  const available: ConditionInput =
    ready.status === 'True'
      ? { type: 'Available', status: 'True', reason: 'Available' }
      : { type: 'Available', status: 'False', reason: 'NotReady' };
  return [ready, available, { type: 'UpToDate', status: 'True', reason: 'UpToDate' }];
}

export function computeMachineStatus(s: MachineScope): StatusUpdate {
  const providerID = stringAt(s.desired, 'spec', 'providerID');
  const phase = machinePhase({
    deleting: isDeleting(s.object),
    bootstrapDataSecretCreated: s.bootstrapDataSecretCreated,
    infrastructureProvisioned: s.infrastructureProvisioned,
    providerID: Boolean(providerID),
    nodeRef: s.node !== undefined,
  });
  return {
    fields: {
      initialization: {
        bootstrapDataSecretCreated: s.bootstrapDataSecretCreated,
        infrastructureProvisioned: s.infrastructureProvisioned,
      },
      phase,
      ...(s.addresses.length > 0 ? { addresses: s.addresses } : {}),
      ...(s.failureDomain ? { failureDomain: s.failureDomain } : {}),
      ...(s.node ? { nodeRef: { name: s.node.name } } : {}),
      ...(s.node?.info ? { nodeInfo: s.node.info } : {}),
    },
  };
}
