/**
 * What a KubeadmControlPlane changes on its Machines in place (Cluster API's KCP syncMachines):
 * `machineTemplate.metadata` labels and annotations with the control-plane labels, on Machines
 * not being deleted, and the in-place fields of `machineTemplate.spec` (readinessGates, taints,
 * the deletion timeouts) on all of them. None of them is a rollout (machine-facts.ts does not
 * compare them); labels and annotations the template no longer names are left as they are. A
 * Machine not being deleted carries the control plane's pre-terminate hook (pre-terminate-hook.ts).
 */

import { deepEqual } from '../../../../shared/contracts/json.js';
import { isDeleting, type StoredObject } from '../../../../shared/contracts/object.js';
import { withEntries, withInPlaceFields } from '../../core/machine-template-fields.js';
import type { KcpSpec } from './kcp-spec.js';
import { controlPlaneLabels } from './machine-factory.js';
import { KCP_PRE_TERMINATE_HOOK } from './pre-terminate-hook.js';

/** The control-plane Machine with the KubeadmControlPlane's in-place fields, or undefined when it has them already. */
export function controlPlaneMachineInPlace(machine: StoredObject, spec: KcpSpec, clusterName: string, kcpName: string): StoredObject | undefined {
  const metadata = isDeleting(machine)
    ? machine.metadata
    : {
        ...machine.metadata,
        labels: withEntries(machine.metadata.labels, { ...spec.machineLabels, ...controlPlaneLabels(clusterName, kcpName) }),
        annotations: withEntries(machine.metadata.annotations, { ...spec.machineAnnotations, [KCP_PRE_TERMINATE_HOOK]: '' }),
      };
  const next: StoredObject = { ...machine, metadata, spec: withInPlaceFields(machine.spec ?? {}, spec.machineSpecExtras) };
  return deepEqual(next, machine) ? undefined : next;
}
