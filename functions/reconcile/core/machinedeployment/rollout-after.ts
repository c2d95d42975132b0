/**
 * Which MachineSet carries a MachineDeployment's intent (Cluster API's FindNewAndOldMachineSets).
 * A MachineSet is of the current template when its Machine spec differs from the
 * MachineDeployment's in in-place fields at most (machine-template-fields.ts). With
 * `spec.rollout.after`: once that time has passed, only a MachineSet of the current template
 * created at or after it will do, so every Machine made before it is replaced (`clusterctl alpha
 * rollout restart` sets it to now). Before it, or without it, any MachineSet of the current
 * template will (the one with the most replicas).
 *
 * A new MachineSet's `machine-template-hash` label (its selector's own label) is the template's
 * hash, or, for one made because `rollout.after` passed, the template's hash and a hash of that
 * time (`<template>-<after>`).
 */

import { numberAt, stringAt, valueAt } from '../../../../shared/contracts/json.js';
import { isDeleting, type StoredObject } from '../../../../shared/contracts/object.js';
import { shortHash } from '../../engine/hashing/stable-hash.js';
import { sameRolloutFields } from '../machine-template-fields.js';
import { LABEL_TEMPLATE_HASH, templateHash } from './machineset-factory.js';

export interface IntendedMachineSet {
  /** The `machine-template-hash` label of the MachineSet that carries the intent: an existing one's, or the one to create. */
  hash: string;
  /** `rollout.after` is still ahead: run again when it comes. */
  requeueAfterSeconds?: number;
}

/** The label of a MachineSet made for this template once `after` passed. */
export function rolloutHash(templateHash: string, after: string): string {
  return `${templateHash}-${shortHash(after).slice(0, 5)}`;
}

function mostReplicasFirst(a: StoredObject, b: StoredObject): number {
  return (numberAt(b, 'spec', 'replicas') ?? 0) - (numberAt(a, 'spec', 'replicas') ?? 0) || a.metadata.name.localeCompare(b.metadata.name);
}

export function intendedMachineSet(md: StoredObject, machineSets: readonly StoredObject[], now: Date): IntendedMachineSet {
  const wanted = valueAt(md, 'spec', 'template', 'spec');
  const candidates = machineSets.filter((ms) => !isDeleting(ms) && sameRolloutFields(valueAt(ms, 'spec', 'template', 'spec'), wanted)).sort(mostReplicasFirst);
  const hash = templateHash(md);
  const after = stringAt(md, 'spec', 'rollout', 'after');
  const afterTime = after === undefined ? Number.NaN : Date.parse(after);
  if (Number.isNaN(afterTime) || after === undefined) return { hash: labelOf(candidates[0]) ?? hash };
  if (now.getTime() < afterTime) {
    return { hash: labelOf(candidates[0]) ?? hash, requeueAfterSeconds: Math.max(1, Math.ceil((afterTime - now.getTime()) / 1000)) };
  }
  const fresh = candidates.find((ms) => Date.parse(ms.metadata.creationTimestamp) >= afterTime);
  return { hash: labelOf(fresh) ?? rolloutHash(hash, after) };
}

function labelOf(ms: StoredObject | undefined): string | undefined {
  return ms?.metadata.labels?.[LABEL_TEMPLATE_HASH];
}
