/**
 * What KCP does next, one step at a time (capi-contract.md §3.4): pure over the machine facts.
 * Rolling update: while machines < replicas + maxSurge add one, else remove one (outdated first).
 */

import { pickFailureDomainForScaleUp, pickMachineToDelete } from './failure-domains.js';
import type { MachineFacts } from './machine-facts.js';

export interface PlanInputs {
  replicas: number;
  maxSurge: 0 | 1;
  initialized: boolean;
  machines: readonly MachineFacts[];
  failureDomains: readonly string[];
  /** Name of the machine being remediated when the remediation-in-progress annotation is set. */
  remediatingMachine?: string;
}

export type WaitReason =
  | 'RemediationInProgress'
  | 'WaitingForInitialization'
  | 'WaitingForMachineDeletion'
  | 'WaitingForMachinesReady';

export type ControlPlanePlan =
  | { type: 'none' }
  | { type: 'wait'; reason: WaitReason; message: string }
  | { type: 'scaleUp'; init: boolean; failureDomain?: string; rollout: boolean }
  | { type: 'scaleDown'; machine: string; rollout: boolean };

function wait(reason: WaitReason, message: string): ControlPlanePlan {
  return { type: 'wait', reason, message };
}

/** Preflight before any scale step: nothing deleting, nothing still provisioning. */
function preflight(machines: readonly MachineFacts[]): ControlPlanePlan | undefined {
  const deleting = machines.filter((m) => m.deleting).map((m) => m.name);
  if (deleting.length > 0) return wait('WaitingForMachineDeletion', `waiting for machines to be deleted: ${deleting.join(', ')}`);
  const provisioning = machines.filter((m) => !m.ready).map((m) => m.name);
  if (provisioning.length > 0) return wait('WaitingForMachinesReady', `waiting for machines to be ready: ${provisioning.join(', ')}`);
  return undefined;
}

export function planControlPlane(inputs: PlanInputs): ControlPlanePlan {
  const { machines, replicas } = inputs;
  if (inputs.remediatingMachine !== undefined) {
    return wait('RemediationInProgress', `remediation of machine ${inputs.remediatingMachine} is in progress`);
  }
  if (machines.length === 0) {
    return {
      type: 'scaleUp',
      init: !inputs.initialized,
      rollout: false,
      ...optionalDomain(pickFailureDomainForScaleUp(inputs.failureDomains, machines)),
    };
  }
  if (!inputs.initialized) return wait('WaitingForInitialization', 'waiting for the first control plane machine to initialize');
  const outdated = machines.filter((m) => !m.upToDate && !m.deleting).length;
  const rollout = outdated > 0;
  const target = rollout ? replicas + inputs.maxSurge : replicas;
  const live = machines.filter((m) => !m.deleting).length;
  const step: 'up' | 'down' | 'none' = rollout ? (live < target ? 'up' : 'down') : live < replicas ? 'up' : live > replicas ? 'down' : 'none';
  if (step === 'none') {
    return machines.some((m) => m.deleting) ? wait('WaitingForMachineDeletion', 'waiting for machines to be deleted') : { type: 'none' };
  }
  const blocked = preflight(machines);
  if (blocked) return blocked;
  if (step === 'up') {
    return { type: 'scaleUp', init: false, rollout, ...optionalDomain(pickFailureDomainForScaleUp(inputs.failureDomains, machines)) };
  }
  const victim = pickMachineToDelete(machines);
  return victim ? { type: 'scaleDown', machine: victim.name, rollout } : { type: 'none' };
}

function optionalDomain(failureDomain: string | undefined): { failureDomain?: string } {
  return failureDomain ? { failureDomain } : {};
}
