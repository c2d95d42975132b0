/**
 * Which MachineSet carries a MachineDeployment's intent (Cluster API's FindNewAndOldMachineSets),
 * with `spec.rollout.after`: once that time has passed, only a MachineSet of the current template
 * created at or after it will do, so every Machine made before it is replaced (`clusterctl alpha
 * rollout restart` sets it to now). Before it, or without it, any MachineSet of the current
 * template will (the one with the most replicas).
 *
 * A MachineSet's `machine-template-hash` label is the template's hash, or, for one made because
 * `rollout.after` passed, the template's hash and a hash of that time (`<template>-<after>`): a
 * new label, so its selector is its own, and still recognisably of the same template, so setting
 * a later `rollout.after` does not replace it before that time comes.
 */

import { numberAt } from '../../../../shared/contracts/json.js';
import { isDeleting, type StoredObject } from '../../../../shared/contracts/object.js';
import { shortHash } from '../../engine/hashing/stable-hash.js';
import { LABEL_TEMPLATE_HASH } from './machineset-factory.js';

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

function ofTemplate(ms: StoredObject, templateHash: string): boolean {
  const label = ms.metadata.labels?.[LABEL_TEMPLATE_HASH] ?? '';
  return label === templateHash || label.startsWith(`${templateHash}-`);
}

function mostReplicasFirst(a: StoredObject, b: StoredObject): number {
  return (numberAt(b, 'spec', 'replicas') ?? 0) - (numberAt(a, 'spec', 'replicas') ?? 0) || a.metadata.name.localeCompare(b.metadata.name);
}

export function intendedMachineSet(templateHash: string, after: string | undefined, machineSets: readonly StoredObject[], now: Date): IntendedMachineSet {
  const candidates = machineSets.filter((ms) => !isDeleting(ms) && ofTemplate(ms, templateHash)).sort(mostReplicasFirst);
  const afterTime = after === undefined ? Number.NaN : Date.parse(after);
  if (Number.isNaN(afterTime) || after === undefined) return { hash: labelOf(candidates[0]) ?? templateHash };
  if (now.getTime() < afterTime) {
    return { hash: labelOf(candidates[0]) ?? templateHash, requeueAfterSeconds: Math.max(1, Math.ceil((afterTime - now.getTime()) / 1000)) };
  }
  const fresh = candidates.find((ms) => Date.parse(ms.metadata.creationTimestamp) >= afterTime);
  return { hash: labelOf(fresh) ?? rolloutHash(templateHash, after) };
}

function labelOf(ms: StoredObject | undefined): string | undefined {
  return ms?.metadata.labels?.[LABEL_TEMPLATE_HASH];
}
