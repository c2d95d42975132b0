/**
 * What a MachineSet changes on its Machines in place (Cluster API's syncMachines): the template's
 * labels and annotations, on Machines not being deleted, and the in-place fields of the Machine
 * spec on all of them (a deleting Machine's drain and deletion timeouts still matter). Labels and
 * annotations the template does not name are left as they are.
 */

import { deepEqual, recordAt } from '../../../../shared/contracts/json.js';
import { isDeleting, type StoredObject } from '../../../../shared/contracts/object.js';
import { withEntries, withInPlaceFields } from '../machine-template-fields.js';
import { machineAnnotations, machineLabels } from './machine-factory.js';

/** The Machine with the MachineSet's in-place fields, or undefined when it has them already. */
export function machineInPlace(machine: StoredObject, ms: StoredObject): StoredObject | undefined {
  const template = recordAt(ms, 'spec', 'template');
  const spec = withInPlaceFields(machine.spec ?? {}, recordAt(template, 'spec'));
  const metadata = isDeleting(machine)
    ? machine.metadata
    : {
        ...machine.metadata,
        labels: withEntries(machine.metadata.labels, machineLabels(ms)),
        annotations: withEntries(machine.metadata.annotations, machineAnnotations(ms)),
      };
  const next: StoredObject = { ...machine, metadata, spec };
  return deepEqual(next, machine) ? undefined : next;
}
