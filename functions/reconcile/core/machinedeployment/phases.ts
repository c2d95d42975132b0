/** MachineDeployment phases: label → list its MachineSets and Machines → ensure the current MachineSet → roll out (paused: scale only). */

import { listClusterMembers, MACHINE, MACHINE_SET } from '../../engine/references/cluster-members.js';
import { clusterNameOf, ensureClusterNameLabel } from '../../engine/references/cluster-name-label.js';
import { clusterOwnershipPhase } from '../../engine/references/cluster-owner.js';
import { readReference } from '../../engine/references/object-reference.js';
import { conditionsOf, isConditionTrue } from '../../../../shared/contracts/conditions.js';
import { numberAt } from '../../../../shared/contracts/json.js';
import {
  ANNOTATION_DESIRED_REPLICAS,
  ANNOTATION_MAX_REPLICAS,
  ANNOTATION_REVISION,
  type StoredObject,
  isControlledBy,
  isDeleting,
  keyOf,
} from '../../../../shared/contracts/object.js';
import { isNotFound } from '../../../../shared/errors/index.js';
import { deleteMembersThenWait } from '../../engine/references/delete-controlled.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { machineSetInPlace } from './in-place.js';
import { type MachineSetAnnotationsInput, machineSetAnnotations } from './machineset-annotations.js';
import { LABEL_TEMPLATE_HASH, newMachineSet, rolloutStrategyOf } from './machineset-factory.js';
import { type PausedScaleInput, planPausedScale } from './paused-scale.js';
import { intendedMachineSet } from './rollout-after.js';
import { type MachineSetView, type RolloutStrategy, planRollout } from './rollout-plan.js';
import type { MachineDeploymentScope } from './scope.js';

/** MachineSets and MachineDeployments carry their cluster's name label (the cluster index finds them by it). */
export const labelMachineDeploymentPhase = ensureClusterNameLabel;

/** Owned by its Cluster, and so are the templates its Machines are made from (Cluster API's MachineDeployment controller). */
export const ownMachineDeploymentPhase = clusterOwnershipPhase({
  ownsSelf: () => true,
  templates: (md) => [readReference(md, 'spec', 'template', 'spec', 'infrastructureRef'), readReference(md, 'spec', 'template', 'spec', 'bootstrap', 'configRef')],
});

/** The cluster's MachineSets and Machines, fresh. */
export async function findMachineSetsPhase(s: MachineDeploymentScope): Promise<PhaseResult> {
  const all = await listClusterMembers(s.ctx.store, s.object.metadata.namespace, clusterNameOf(s.object), [MACHINE_SET, MACHINE]);
  s.machineSets = all.filter((o) => o.kind === 'MachineSet' && isControlledBy(o, s.object.metadata.uid));
  const intended = intendedMachineSet(s.object, s.machineSets, s.ctx.clock.now());
  s.hash = intended.hash;
  if (intended.requeueAfterSeconds !== undefined) s.rolloutAfterSeconds = intended.requeueAfterSeconds;
  const setUids = new Set(s.machineSets.map((ms) => ms.metadata.uid));
  s.machines = all.filter((o) => o.kind === 'Machine' && (o.metadata.ownerReferences ?? []).some((r) => setUids.has(r.uid)));
  return {};
}

function annotationsInput(s: MachineDeploymentScope): MachineSetAnnotationsInput {
  const replicas = numberAt(s.object, 'spec', 'replicas') ?? 1;
  return { md: s.object, replicas, strategy: rolloutStrategyOf(s.object, replicas), machineSets: s.machineSets };
}

function isCurrent(s: MachineDeploymentScope, ms: StoredObject): boolean {
  return !isDeleting(ms) && ms.metadata.labels?.[LABEL_TEMPLATE_HASH] === s.hash;
}

/**
 * The MachineDeployment's in-place fields and annotations onto every MachineSet it has, old ones
 * too (Cluster API's computeDesiredMS, computeDesiredNewMS and computeDesiredOldMS): no rollout.
 */
export async function inPlacePhase(s: MachineDeploymentScope): Promise<PhaseResult> {
  const input = annotationsInput(s);
  const next: StoredObject[] = [];
  for (const ms of s.machineSets) {
    const changed = isDeleting(ms) ? undefined : machineSetInPlace(ms, s.object, machineSetAnnotations(input, ms, isCurrent(s, ms)));
    next.push(changed ? await s.ctx.store.update(changed) : ms);
  }
  s.machineSets = next;
  return {};
}

export function machineSetView(ms: StoredObject, hash: string, machines: readonly StoredObject[]): MachineSetView {
  const live = machines.filter(
    (m) => !isDeleting(m) && (m.metadata.ownerReferences ?? []).some((r) => r.uid === ms.metadata.uid),
  );
  return {
    name: ms.metadata.name,
    current: ms.metadata.labels?.[LABEL_TEMPLATE_HASH] === hash,
    replicas: numberAt(ms, 'spec', 'replicas') ?? 0,
    liveMachines: live.length,
    availableMachines: live.filter((m) => isConditionTrue(conditionsOf(m.status), 'Available')).length,
  };
}

/** A paused MachineDeployment's sets as Cluster API's `scale` sees them: those not being deleted, oldest first. */
function pausedScaleInput(s: MachineDeploymentScope, replicas: number, strategy: RolloutStrategy): PausedScaleInput {
  const sets = s.machineSets
    .filter((ms) => !isDeleting(ms))
    .map((ms) => ({
      ...machineSetView(ms, s.hash, s.machines),
      desiredReplicas: int32Annotation(ms, ANNOTATION_DESIRED_REPLICAS),
      maxReplicas: int32Annotation(ms, ANNOTATION_MAX_REPLICAS),
    }));
  return { replicas, strategy, statusReplicas: numberAt(s.object, 'status', 'replicas') ?? 0, sets };
}

/** An annotation holding a 32-bit decimal integer (Cluster API's strconv.ParseInt(v, 10, 32)); anything else is absent. */
function int32Annotation(object: StoredObject, key: string): number | undefined {
  const value = object.metadata.annotations?.[key];
  if (value === undefined || !/^[+-]?\d+$/.test(value)) return undefined;
  const parsed = Number(value);
  return parsed >= -(2 ** 31) && parsed < 2 ** 31 ? parsed : undefined;
}

function oldestFirst(a: StoredObject, b: StoredObject): number {
  return a.metadata.creationTimestamp.localeCompare(b.metadata.creationTimestamp) || a.metadata.name.localeCompare(b.metadata.name);
}

async function applyPlan(s: MachineDeploymentScope, replicas: Record<string, number>, remove: readonly string[]): Promise<void> {
  const next: StoredObject[] = [];
  for (const ms of s.machineSets) {
    // A MachineSet being deleted is left to its own finalizer: neither scaled nor deleted again.
    if (isDeleting(ms)) {
      next.push(ms);
      continue;
    }
    const want = replicas[ms.metadata.name];
    if (remove.includes(ms.metadata.name)) {
      try {
        await s.ctx.store.delete(keyOf(ms));
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
      continue;
    }
    if (want !== undefined && want !== numberAt(ms, 'spec', 'replicas')) {
      next.push(await s.ctx.store.update({ ...ms, spec: { ...ms.spec, replicas: want } }));
    } else next.push(ms);
  }
  s.machineSets = next;
}

export async function rolloutPhase(s: MachineDeploymentScope): Promise<PhaseResult> {
  const replicas = numberAt(s.object, 'spec', 'replicas') ?? 1;
  const strategy = rolloutStrategyOf(s.object, replicas);
  s.machineSets.sort(oldestFirst);
  if (s.object.spec?.paused === true) {
    await applyPlan(s, planPausedScale(pausedScaleInput(s, replicas, strategy)), []);
    return {};
  }
  const views = s.machineSets.map((ms) => machineSetView(ms, s.hash, s.machines));
  const hasCurrent = views.some((v) => v.current);
  const placeholder: MachineSetView = { name: '', current: true, replicas: 0, liveMachines: 0, availableMachines: 0 };
  const plan = planRollout(replicas, strategy, hasCurrent ? views : [...views, placeholder]);
  if (!hasCurrent) {
    const annotations = machineSetAnnotations(annotationsInput(s), undefined, true);
    const created = await s.ctx.store.create(newMachineSet(s.object, s.hash, plan.replicas[''] ?? 0, annotations));
    s.machineSets.push(created);
  }
  await applyPlan(s, plan.replicas, plan.remove);
  return s.rolloutAfterSeconds === undefined ? {} : { requeueAfterSeconds: s.rolloutAfterSeconds };
}

/** The MachineDeployment shows its current MachineSet's revision (Cluster API surfaces it on the MachineDeployment), written with its status. */
export function revisionPhase(s: MachineDeploymentScope): PhaseResult {
  const current = s.machineSets.find((ms) => isCurrent(s, ms));
  const revision = current?.metadata.annotations?.[ANNOTATION_REVISION];
  if (revision === undefined || s.object.metadata.annotations?.[ANNOTATION_REVISION] === revision) return {};
  const base = s.desired ?? s.object;
  s.desired = { ...base, metadata: { ...base.metadata, annotations: { ...base.metadata.annotations, [ANNOTATION_REVISION]: revision } } };
  return {};
}

/** While the MachineDeployment is deleted: its MachineSets deleted, and waited for. */
export function deleteMachineSetsPhase(s: MachineDeploymentScope): Promise<PhaseResult> {
  return deleteMembersThenWait(s, s.machineSets, 'MachineSet', 'WaitingForMachineSetsDeletion');
}
