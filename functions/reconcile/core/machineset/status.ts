/** Pure MachineSet status: counters over its live Machines, selector and scaling conditions. */

import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import { numberAt } from '../../../../shared/contracts/json.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { countMachines } from '../cluster/counters.js';
import type { StatusUpdate } from '../../engine/skeleton/types.js';
import { selectorString } from './machine-factory.js';
import type { MachineSetScope } from './scope.js';

/** Cluster API's ScalingUp and ScalingDown; a scale-up held by preflight checks says which (setScalingUpCondition). */
export function scalingConditions(desired: number, current: number, blockedBy: readonly string[] = []): ConditionInput[] {
  const blocked = blockedBy.length > 0 ? ` is blocked because:\n${blockedBy.map((m) => `* ${m}`).join('\n')}` : '';
  return [
    current < desired
      ? { type: 'ScalingUp', status: 'True', reason: 'ScalingUp', message: `Scaling up from ${current} to ${desired} replicas${blocked}` }
      : { type: 'ScalingUp', status: 'False', reason: 'NotScalingUp' },
    current > desired
      ? { type: 'ScalingDown', status: 'True', reason: 'ScalingDown', message: `Scaling down from ${current} to ${desired} replicas` }
      : { type: 'ScalingDown', status: 'False', reason: 'NotScalingDown' },
  ];
}

export function machineSetCounters(object: StoredObject, machines: readonly StoredObject[]) {
  return countMachines(machines, numberAt(object, 'spec', 'replicas') ?? 1);
}

export function computeMachineSetStatus(s: MachineSetScope): StatusUpdate {
  const c = machineSetCounters(s.object, s.machines);
  return {
    fields: {
      selector: selectorString(s.object),
      replicas: c.replicas,
      readyReplicas: c.readyReplicas,
      availableReplicas: c.availableReplicas,
      upToDateReplicas: c.upToDateReplicas,
    },
  };
}

export function machineSetConditionsPhase(s: MachineSetScope) {
  const c = machineSetCounters(s.object, s.machines);
  s.conditions.push(...scalingConditions(c.desiredReplicas, c.replicas, s.scaleUpBlockedBy));
  s.conditions.push(
    c.readyReplicas === c.replicas
      ? { type: 'MachinesReady', status: 'True', reason: 'Ready' }
      : { type: 'MachinesReady', status: 'False', reason: 'NotReady', message: `${c.readyReplicas} of ${c.replicas} Machines ready` },
  );
  return {};
}
