/** Pure: which Machines a MachineSet deletes first when it scales down (deletion.order). */

import { conditionsOf, isConditionTrue } from '../../../../shared/contracts/conditions.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { stableHash } from '../../engine/hashing/stable-hash.js';

export type DeletionOrder = 'Random' | 'Newest' | 'Oldest';
export const ANNOTATION_DELETE_MACHINE = 'cluster.x-k8s.io/delete-machine';

export function deletionOrderOf(value: unknown): DeletionOrder {
  return value === 'Newest' || value === 'Oldest' ? value : 'Random';
}

/** 0 = delete first: delete-machine annotation, then Machines that are not Ready. */
function priority(m: StoredObject): number {
  if (m.metadata.annotations?.[ANNOTATION_DELETE_MACHINE] !== undefined) return 0;
  return isConditionTrue(conditionsOf(m.status), 'Ready') ? 2 : 1;
}

function created(m: StoredObject): number {
  return new Date(m.metadata.creationTimestamp).getTime();
}

function byOrder(order: DeletionOrder): (a: StoredObject, b: StoredObject) => number {
  switch (order) {
    case 'Newest':
      return (a, b) => created(b) - created(a) || b.metadata.name.localeCompare(a.metadata.name);
    case 'Oldest':
      return (a, b) => created(a) - created(b) || a.metadata.name.localeCompare(b.metadata.name);
    case 'Random':
      // Stable per Machine (by uid), so a re-run picks the same victims.
      return (a, b) => stableHash(a.metadata.uid) - stableHash(b.metadata.uid);
  }
}

export function machinesToDelete(machines: readonly StoredObject[], count: number, order: DeletionOrder): StoredObject[] {
  if (count <= 0) return [];
  const compare = byOrder(order);
  return [...machines].sort((a, b) => priority(a) - priority(b) || compare(a, b)).slice(0, count);
}
