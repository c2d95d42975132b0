/**
 * Cluster API's shouldNodeHaveOutdatedTaint: a Machine of a MachineSet whose revision is behind
 * its MachineDeployment's (machinedeployment/machineset-annotations.ts) is being rolled out, and
 * its Node gets `node.cluster.x-k8s.io/outdated-revision:PreferNoSchedule`, so that the Pods
 * drained from the first old Node are not scheduled onto the next one to go. A Machine of no
 * MachineSet, or of one no MachineDeployment owns, is never outdated. Two reads at most (the
 * MachineSet and the MachineDeployment), through the reconcile's read cache.
 */

import { groupOf, type ObjectKey, type StoredObject } from '../../../../shared/contracts/object.js';
import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import { revisionOf } from '../machinedeployment/machineset-annotations.js';

/** getOwnerMachineSet / getOwnerMachineDeployment: the first owner reference of that core kind. */
function ownerKey(object: StoredObject, kind: 'MachineSet' | 'MachineDeployment'): ObjectKey | undefined {
  const ref = (object.metadata.ownerReferences ?? []).find((r) => r.kind === kind && groupOf(r.apiVersion) === CORE_GROUP);
  return ref ? { group: CORE_GROUP, kind, namespace: object.metadata.namespace, name: ref.name } : undefined;
}

export async function isOfOutdatedRevision(store: Pick<ObjectStore, 'get'>, machine: StoredObject): Promise<boolean> {
  const setKey = ownerKey(machine, 'MachineSet');
  const machineSet = setKey ? await store.get(setKey) : undefined;
  const deploymentKey = machineSet ? ownerKey(machineSet, 'MachineDeployment') : undefined;
  const deployment = deploymentKey ? await store.get(deploymentKey) : undefined;
  if (!machineSet || !deployment) return false;
  const setRevision = revisionOf(machineSet);
  const deploymentRevision = revisionOf(deployment);
  return setRevision !== undefined && deploymentRevision !== undefined && setRevision < deploymentRevision;
}
