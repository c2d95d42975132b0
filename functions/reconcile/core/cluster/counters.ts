/** Pure replica counters over Machines and the objects that want them (Cluster status.controlPlane/workers). */

import { isConditionTrue, conditionsOf } from '../../../../shared/contracts/conditions.js';
import { numberAt } from '../../../../shared/contracts/json.js';
import { type StoredObject, isDeleting, LABEL_CONTROL_PLANE } from '../../../../shared/contracts/object.js';

export { LABEL_CONTROL_PLANE };

export interface ReplicaCounters {
  desiredReplicas: number;
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  upToDateReplicas: number;
}

export function isControlPlaneMachine(machine: StoredObject): boolean {
  return machine.metadata.labels?.[LABEL_CONTROL_PLANE] !== undefined;
}

function ownedByKind(obj: StoredObject, kind: string): boolean {
  return (obj.metadata.ownerReferences ?? []).some((ref) => ref.kind === kind);
}

/** The Machine conditions the replica counters read. */
export const COUNTED_CONDITIONS = { ready: 'Ready', available: 'Available', upToDate: 'UpToDate' } as const;

/** Counters of `machines` (deleting ones excluded) against `desired`. */
export function countMachines(machines: readonly StoredObject[], desired: number): ReplicaCounters {
  const live = machines.filter((m) => !isDeleting(m));
  const withCondition = (type: string) => live.filter((m) => isConditionTrue(conditionsOf(m.status), type)).length;
  return {
    desiredReplicas: desired,
    replicas: live.length,
    readyReplicas: withCondition(COUNTED_CONDITIONS.ready),
    availableReplicas: withCondition(COUNTED_CONDITIONS.available),
    upToDateReplicas: withCondition(COUNTED_CONDITIONS.upToDate),
  };
}

/** Workers: Machines without the control-plane label; desired from MDs, MDs-less MSs and standalone Machines. */
export function workerCounters(descendants: readonly StoredObject[]): ReplicaCounters {
  const machines = descendants.filter((o) => o.kind === 'Machine' && !isControlPlaneMachine(o));
  const replicasOf = (o: StoredObject) => numberAt(o, 'spec', 'replicas') ?? 1;
  const fromDeployments = descendants.filter((o) => o.kind === 'MachineDeployment').reduce((n, o) => n + replicasOf(o), 0);
  const fromSets = descendants
    .filter((o) => o.kind === 'MachineSet' && !ownedByKind(o, 'MachineDeployment'))
    .reduce((n, o) => n + replicasOf(o), 0);
  const standalone = machines.filter((m) => !ownedByKind(m, 'MachineSet') && !isDeleting(m)).length;
  return countMachines(machines, fromDeployments + fromSets + standalone);
}

/** Control-plane Machines counted directly (used when the Cluster has no controlPlaneRef). */
export function controlPlaneMachineCounters(descendants: readonly StoredObject[]): ReplicaCounters {
  const machines = descendants.filter((o) => o.kind === 'Machine' && isControlPlaneMachine(o));
  return countMachines(machines, machines.filter((m) => !isDeleting(m)).length);
}
