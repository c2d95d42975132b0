/**
 * Owner references and the cluster-name label on objects the core references (InfraCluster,
 * ControlPlane, InfraMachine, BootstrapConfig): pure "what should it look like" plus one write.
 */

import {
  LABEL_CLUSTER_NAME,
  type OwnerReference,
  type StoredObject,
  ownerReferenceTo,
} from '../../../../shared/contracts/object.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import { updateFresh } from './update-fresh.js';

export interface OwnershipIntent {
  owner: StoredObject;
  /** Make the owner the controller (dropping other controller refs, e.g. the MachineSet that created it). */
  controller: boolean;
  clusterName?: string;
}

function sameOwner(ref: OwnerReference, owner: StoredObject): boolean {
  return ref.uid === owner.metadata.uid;
}

/** The target with the owner reference and label in place, or undefined when it already has them. */
export function withOwnership(target: StoredObject, intent: OwnershipIntent): StoredObject | undefined {
  const refs = target.metadata.ownerReferences ?? [];
  const existing = refs.find((ref) => sameOwner(ref, intent.owner));
  const wantRef = ownerReferenceTo(intent.owner, intent.controller);
  const otherControllers = intent.controller && refs.some((ref) => ref.controller === true && !sameOwner(ref, intent.owner));
  const refOk = existing !== undefined && (existing.controller === true) === intent.controller && !otherControllers;
  const labels = target.metadata.labels ?? {};
  const labelOk = intent.clusterName === undefined || labels[LABEL_CLUSTER_NAME] === intent.clusterName;
  if (refOk && labelOk) return undefined;
  const keptRefs = refs.filter((ref) => !sameOwner(ref, intent.owner) && !(intent.controller && ref.controller === true));
  return {
    ...target,
    metadata: {
      ...target.metadata,
      ownerReferences: [...keptRefs, wantRef],
      ...(intent.clusterName === undefined ? {} : { labels: { ...labels, [LABEL_CLUSTER_NAME]: intent.clusterName } }),
    },
  };
}

/** Writes the ownership if missing (recomputed on a conflict); returns the object as stored. */
export async function ensureOwnership(store: ObjectStore, target: StoredObject, intent: OwnershipIntent): Promise<StoredObject> {
  return (await updateFresh(store, target, (current) => withOwnership(current, intent))) ?? target;
}
