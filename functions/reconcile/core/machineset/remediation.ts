/**
 * MachineSet remediation (C14 `machineset_controller.go` reconcileUnhealthyMachines): a Machine a
 * MachineHealthCheck marked (`OwnerRemediated=False`) is deleted; the scale phase that follows
 * creates its replacement.
 */

import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { isDeleting, keyOf, type StoredObject } from '../../../../shared/contracts/object.js';
import { isNotFound } from '../../../../shared/errors/index.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { CONDITION_OWNER_REMEDIATED } from '../machinehealthcheck/well-known.js';
import type { MachineSetScope } from './scope.js';

export function markedForRemediation(machine: StoredObject): boolean {
  return !isDeleting(machine) && findCondition(conditionsOf(machine.status), CONDITION_OWNER_REMEDIATED)?.status === 'False';
}

export async function remediateUnhealthyPhase(s: MachineSetScope): Promise<PhaseResult> {
  const marked = s.machines.filter(markedForRemediation);
  for (const machine of marked) {
    try {
      const { object, removed } = await s.ctx.store.delete(keyOf(machine));
      s.machines = s.machines.filter((m) => m.metadata.uid !== machine.metadata.uid);
      if (!removed) s.machines.push(object);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      s.machines = s.machines.filter((m) => m.metadata.uid !== machine.metadata.uid);
    }
  }
  if (marked.length > 0) {
    s.conditions.push({ type: 'Remediating', status: 'True', reason: 'MachineDeleting', message: `deleting unhealthy Machines ${marked.map((m) => m.metadata.name).join(', ')}` });
  }
  return {};
}
