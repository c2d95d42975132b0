import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import type { ReferrerField, Watch } from '../skeleton/types.js';

/**
 * How an infrastructure machine or a bootstrap config watches the Machine that names it in
 * `field` (Cluster API's MachineToInfrastructureMapFunc and MachineToBootstrapMapFunc), narrowed to
 * the Machine fields it reads. Not the Machine's creation: such an object does nothing until the
 * Machine controller adopts it (its controller reference, set after the Machine exists), and that
 * write is its own change, which wakes it anyway; the creation would only wake it to wait. Nor its
 * removal: a deleting Machine deletes this object and waits for it to be gone before it goes
 * itself, and one left behind by a Machine whose finalizer was stripped finds no Machine to act
 * for (ADR 0141).
 */
export function adoptingMachineWatch(field: ReferrerField, changes: readonly string[]): Watch {
  return { kind: { group: CORE_GROUP, kind: 'Machine' }, by: 'reference', field, on: ['MODIFY'], changes };
}
