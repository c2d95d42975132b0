/** Pure MachineDeployment status: counters over its MachineSets' live Machines, phase and conditions. */

import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import { numberAt } from '../../../../shared/contracts/json.js';
import { type StoredObject, isDeleting } from '../../../../shared/contracts/object.js';
import { countMachines } from '../cluster/counters.js';
import { selectorString } from '../machineset/machine-factory.js';
import { scalingConditions } from '../machineset/status.js';
import type { StatusUpdate } from '../../engine/skeleton/types.js';
import { LABEL_TEMPLATE_HASH, rolloutStrategyOf } from './machineset-factory.js';
import type { MachineDeploymentScope } from './scope.js';

export type MachineDeploymentPhase = 'ScalingUp' | 'ScalingDown' | 'Running';

export function machineDeploymentPhase(desired: number, current: number): MachineDeploymentPhase {
  if (current < desired) return 'ScalingUp';
  if (current > desired) return 'ScalingDown';
  return 'Running';
}

export function machineDeploymentCounters(s: MachineDeploymentScope) {
  const desired = numberAt(s.object, 'spec', 'replicas') ?? 1;
  const counters = countMachines(s.machines, desired);
  const upToDate = s.machines.filter((m) => !isDeleting(m) && m.metadata.labels?.[LABEL_TEMPLATE_HASH] === s.hash).length;
  return { ...counters, upToDateReplicas: upToDate };
}

export function machineDeploymentConditions(s: MachineDeploymentScope): ConditionInput[] {
  const c = machineDeploymentCounters(s);
  const { maxUnavailable } = rolloutStrategyOf(s.object, c.desiredReplicas);
  const oldSets = s.machineSets.filter((ms: StoredObject) => ms.metadata.labels?.[LABEL_TEMPLATE_HASH] !== s.hash);
  return [
    c.availableReplicas >= c.desiredReplicas - maxUnavailable
      ? { type: 'Available', status: 'True', reason: 'Available' }
      : {
          type: 'Available',
          status: 'False',
          reason: 'NotAvailable',
          message: `${c.availableReplicas} available, at least ${c.desiredReplicas - maxUnavailable} required`,
        },
    oldSets.length > 0 || c.upToDateReplicas < c.desiredReplicas
      ? { type: 'RollingOut', status: 'True', reason: 'RollingOut', message: `${c.upToDateReplicas} of ${c.desiredReplicas} Machines up to date` }
      : { type: 'RollingOut', status: 'False', reason: 'NotRollingOut' },
    ...scalingConditions(c.desiredReplicas, c.replicas),
  ];
}

export function machineDeploymentConditionsPhase(s: MachineDeploymentScope) {
  s.conditions.push(...machineDeploymentConditions(s));
  return {};
}

export function computeMachineDeploymentStatus(s: MachineDeploymentScope): StatusUpdate {
  const c = machineDeploymentCounters(s);
  return {
    fields: {
      selector: selectorString(s.object),
      replicas: c.replicas,
      readyReplicas: c.readyReplicas,
      availableReplicas: c.availableReplicas,
      upToDateReplicas: c.upToDateReplicas,
      phase: machineDeploymentPhase(c.desiredReplicas, c.replicas),
    },
  };
}
