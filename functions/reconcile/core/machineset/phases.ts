/** MachineSet phases (capi-contract.md §1.3): label → find Machines → scale up (clone templates) or down. */

import { clusterNameOf, ensureClusterNameLabel } from '../../engine/references/cluster-name-label.js';
import { clusterOwnershipPhase, ensureTemplatesOwnedByCluster } from '../../engine/references/cluster-owner.js';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { numberAt, stringAt } from '../../../../shared/contracts/json.js';
import {
  ANNOTATION_DISABLE_MACHINE_CREATE,
  type StoredObject,
  controllerOf,
  isControlledBy,
  isDeleting,
  ownerReferenceTo,
} from '../../../../shared/contracts/object.js';
import { isAlreadyExists, isNotFound } from '../../../../shared/errors/index.js';
import { type ContractReference, describeReference, readReference, referenceKey } from '../../engine/references/object-reference.js';
import { REFERENCE_MISSING_REQUEUE_SECONDS } from '../../engine/references/resolve-reference.js';
import { PREFLIGHT_FAILED_REQUEUE_SECONDS, preflightGate, readCluster } from './preflight-gate.js';
import { deleteMembersThenWait } from '../../engine/references/delete-controlled.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { cloneFromTemplate, kindFromTemplate } from '../../engine/templates/clone-template.js';
import { machineInPlace } from './in-place.js';
import { machineAnnotations, machineLabels, newMachine, randomMachineName } from './machine-factory.js';
import { metadataChanged, type PartsMetadata, syncPartsMetadata } from '../machine-parts-metadata.js';
import { deletionOrderOf, machinesToDelete } from './scale-down.js';
import type { MachineSetScope } from './scope.js';

/** MachineSets and MachineDeployments carry their cluster's name label (the cluster index finds them by it). */
export const labelMachineSetPhase = ensureClusterNameLabel;

/**
 * A MachineSet no MachineDeployment controls is owned by its Cluster; every MachineSet's templates
 * are (Cluster API's MachineSet controller, shouldAdopt and reconcileExternalTemplateReference).
 */
export const ownMachineSetPhase = clusterOwnershipPhase({
  ownsSelf: (ms) => controllerOf(ms)?.kind !== 'MachineDeployment',
  templates: (ms) => [readReference(ms, 'spec', 'template', 'spec', 'infrastructureRef'), readReference(ms, 'spec', 'template', 'spec', 'bootstrap', 'configRef')],
});

export async function findMachinesPhase(s: MachineSetScope): Promise<PhaseResult> {
  const owned = await s.ctx.store.listByOwner(s.object.metadata.uid);
  s.machines = owned.filter((o) => o.kind === 'Machine' && isControlledBy(o, s.object.metadata.uid));
  return {};
}

/** What the MachineSet keeps on its Machines' InfraMachines and bootstrap configs (machine-parts-metadata.ts). */
function partsMetadata(ms: StoredObject): PartsMetadata {
  return { labels: machineLabels(ms), annotations: machineAnnotations(ms) };
}

/**
 * The MachineSet's in-place fields onto its Machines (in-place.ts): no Machine is replaced for
 * them. A Machine whose labels or annotations change has its parts given them first.
 */
export async function syncMachinesPhase(s: MachineSetScope): Promise<PhaseResult> {
  const next: StoredObject[] = [];
  for (const machine of s.machines) {
    const changed = machineInPlace(machine, s.object);
    if (changed && metadataChanged(machine, changed)) await syncPartsMetadata(s.ctx.store, machine, partsMetadata(s.object));
    next.push(changed ? await s.ctx.store.update(changed) : machine);
  }
  s.machines = next;
  return {};
}

/** The template references a new Machine clones from (those pointing at `*Template` kinds). */
function templateReferences(ms: StoredObject): ContractReference[] {
  return [
    readReference(ms, 'spec', 'template', 'spec', 'bootstrap', 'configRef'),
    readReference(ms, 'spec', 'template', 'spec', 'infrastructureRef'),
  ].filter((r): r is ContractReference => r !== undefined && kindFromTemplate(r.kind) !== undefined);
}

async function loadTemplates(s: MachineSetScope): Promise<StoredObject[] | { missing: ContractReference }> {
  const templates: StoredObject[] = [];
  for (const ref of templateReferences(s.object)) {
    const found = await s.ctx.store.get(referenceKey(ref, s.object.metadata.namespace));
    if (!found) return { missing: ref };
    templates.push(found);
  }
  await ensureTemplatesOwnedByCluster(s, templateReferences(s.object));
  return templates;
}

async function createIgnoringExisting(s: MachineSetScope, obj: Parameters<MachineSetScope['ctx']['store']['create']>[0]) {
  try {
    await s.ctx.store.create(obj);
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
}

async function createClones(s: MachineSetScope, machine: StoredObject, templates: readonly StoredObject[]): Promise<void> {
  for (const template of templates) {
    const cloned = cloneFromTemplate({
      template,
      name: machine.metadata.name,
      clusterName: clusterNameOf(s.object),
      owner: ownerReferenceTo(machine, true),
      ...partsMetadata(s.object),
    });
    if (cloned) await createIgnoringExisting(s, cloned);
  }
}

/** Machine first, then its bootstrap config and InfraMachine, already controlled by the Machine. */
async function createMachine(s: MachineSetScope, templates: readonly StoredObject[]): Promise<void> {
  const machine = await s.ctx.store.create(newMachine(s.object, randomMachineName(s.object.metadata.name)));
  await createClones(s, machine, templates);
  s.machines.push(machine);
}

/** The Machine conditions, and their reasons, that say a clone of the MachineSet's templates is missing. */
export const MISSING_CLONE_REASONS: Readonly<Record<string, string>> = {
  InfrastructureReady: 'InfrastructureDoesNotExist',
  BootstrapConfigReady: 'BootstrapConfigDoesNotExist',
};

/** Pure: a live Machine that reports its cloned InfraMachine or bootstrap config missing. */
export function reportsMissingClone(machine: StoredObject): boolean {
  if (isDeleting(machine)) return false;
  const conditions = conditionsOf(machine.status);
  return Object.entries(MISSING_CLONE_REASONS).some(([type, reason]) => findCondition(conditions, type)?.reason === reason);
}

/**
 * Crash repair: a run that died between creating a Machine and its clones leaves the Machine
 * waiting forever. Machines say so in their conditions (no extra reads); the clones are created
 * again (an existing one is left alone).
 */
export async function repairMissingClonesPhase(s: MachineSetScope): Promise<PhaseResult> {
  const broken = s.machines.filter(reportsMissingClone);
  if (broken.length === 0) return {};
  const templates = await loadTemplates(s);
  if (!Array.isArray(templates)) return {};
  for (const machine of broken) await createClones(s, machine, templates);
  return {};
}

async function scaleUp(s: MachineSetScope, count: number): Promise<PhaseResult> {
  // Cluster API creates no Machines for a Cluster that is being deleted (its deletion removes this MachineSet too).
  const cluster = await readCluster(s);
  if (cluster && isDeleting(cluster)) return {};
  const templates = await loadTemplates(s);
  if (!Array.isArray(templates)) {
    s.conditions.push({
      type: 'MachinesCreated',
      status: 'False',
      reason: 'TemplateDoesNotExist',
      message: `${describeReference(templates.missing)} ${templates.missing.name} does not exist`,
    });
    return { requeueAfterSeconds: REFERENCE_MISSING_REQUEUE_SECONDS };
  }
  const blocked = cluster ? await preflightGate(s, cluster, 'Scale up', templates) : [];
  if (blocked.length > 0) {
    s.scaleUpBlockedBy = blocked;
    s.conditions.push({ type: 'MachinesCreated', status: 'False', reason: 'PreflightCheckFailed', message: blocked.join('; ') });
    return { requeueAfterSeconds: PREFLIGHT_FAILED_REQUEUE_SECONDS };
  }
  for (let i = 0; i < count; i++) await createMachine(s, templates);
  s.conditions.push({ type: 'MachinesCreated', status: 'True', reason: 'Created' });
  return {};
}

async function scaleDown(s: MachineSetScope, active: readonly StoredObject[], count: number): Promise<void> {
  const victims = machinesToDelete(active, count, deletionOrderOf(stringAt(s.object, 'spec', 'deletion', 'order')));
  for (const victim of victims) {
    try {
      const { object, removed } = await s.ctx.store.delete({
        group: 'cluster.x-k8s.io',
        kind: 'Machine',
        namespace: victim.metadata.namespace,
        name: victim.metadata.name,
      });
      s.machines = s.machines.filter((m) => m.metadata.uid !== victim.metadata.uid);
      if (!removed) s.machines.push(object);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}

export async function scalePhase(s: MachineSetScope): Promise<PhaseResult> {
  const replicas = numberAt(s.object, 'spec', 'replicas') ?? 1;
  const active = s.machines.filter((m) => !isDeleting(m));
  const diff = replicas - active.length;
  if (diff > 0) return machineCreationDisabled(s.object) ? {} : scaleUp(s, diff);
  if (diff < 0) await scaleDown(s, active, -diff);
  return {};
}

/** An old MachineSet of an OnDelete MachineDeployment makes no Machines (Cluster API's disable-machine-create annotation). */
function machineCreationDisabled(ms: StoredObject): boolean {
  return ms.metadata.annotations?.[ANNOTATION_DISABLE_MACHINE_CREATE] === 'true';
}

/** While the MachineSet is deleted: its Machines deleted, and waited for. */
export function deleteMachinesPhase(s: MachineSetScope): Promise<PhaseResult> {
  return deleteMembersThenWait(s, s.machines, 'Machine', 'WaitingForMachinesDeletion');
}
