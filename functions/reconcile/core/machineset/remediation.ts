/**
 * MachineSet remediation (C14 `machineset_controller.go` reconcileUnhealthyMachines): a Machine a
 * MachineHealthCheck marked (`OwnerRemediated=False`) is deleted; the scale phase that follows
 * creates its replacement. A MachineDeployment's `remediation.maxInFlight` (number or % of its
 * replicas) caps how many of its Machines are being remediated at once, across its MachineSets.
 */

import { conditionsOf, findCondition, setCondition } from '../../../../shared/contracts/conditions.js';
import { numberAt, valueAt } from '../../../../shared/contracts/json.js';
import { controllerOf, isDeleting, keyOf, type StoredObject } from '../../../../shared/contracts/object.js';
import { LABEL_DEPLOYMENT_NAME } from '../../../../shared/contracts/defaulting/labels.js';
import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import { intOrString } from '../../../../shared/contracts/schemas/common/names.js';
import { scaledValue } from '../../../../shared/contracts/validation/core.js';
import { isConflict, isNotFound } from '../../../../shared/errors/index.js';
import { timestamp } from '../../../../shared/ports/clock.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { CONDITION_OWNER_REMEDIATED } from '../machinehealthcheck/well-known.js';
import type { MachineSetScope } from './scope.js';

/** The reason that says the owner took a Machine in hand (and so counts it as in flight). */
export const REASON_MACHINE_DELETING = 'MachineDeleting';

function ownerRemediated(machine: StoredObject) {
  return findCondition(conditionsOf(machine.status), CONDITION_OWNER_REMEDIATED);
}

export function markedForRemediation(machine: StoredObject): boolean {
  return !isDeleting(machine) && ownerRemediated(machine)?.status === 'False' && ownerRemediated(machine)?.reason !== REASON_MACHINE_DELETING;
}

function inFlight(machine: StoredObject): boolean {
  return ownerRemediated(machine)?.reason === REASON_MACHINE_DELETING;
}

/** How many more remediations may start: unlimited without a MachineDeployment's maxInFlight. */
async function remediationBudget(s: MachineSetScope): Promise<number> {
  const owner = controllerOf(s.object);
  if (owner?.kind !== 'MachineDeployment') return Number.POSITIVE_INFINITY;
  const namespace = s.object.metadata.namespace;
  const md = await s.ctx.store.get({ group: CORE_GROUP, kind: 'MachineDeployment', namespace, name: owner.name });
  const parsed = intOrString.safeParse(valueAt(md, 'spec', 'remediation', 'maxInFlight'));
  if (!md || !parsed.success) return Number.POSITIVE_INFINITY;
  const limit = scaledValue(parsed.data, numberAt(md, 'spec', 'replicas') ?? 1, true);
  const cluster = String(s.object.spec?.clusterName ?? '');
  const siblings = await s.ctx.store.listByCluster(namespace, cluster, { group: CORE_GROUP, kind: 'Machine' });
  const flying = siblings.filter((m) => m.metadata.labels?.[LABEL_DEPLOYMENT_NAME] === owner.name && inFlight(m)).length;
  return Math.max(0, limit - flying);
}

/** Records that this owner is remediating the Machine (so it counts as in flight while it goes). */
async function takeInHand(s: MachineSetScope, machine: StoredObject): Promise<StoredObject | undefined> {
  let current: StoredObject | undefined = machine;
  for (let attempt = 1; current; attempt++) {
    const conditions = setCondition(
      conditionsOf(current.status),
      { type: CONDITION_OWNER_REMEDIATED, status: 'False', reason: REASON_MACHINE_DELETING, message: 'Machine deletionTimestamp set' },
      timestamp(s.ctx.clock),
    );
    try {
      return await s.ctx.store.updateStatus({ ...current, status: { ...(current.status ?? {}), conditions } });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      if (!isConflict(error) || attempt >= 5) throw error;
      current = await s.ctx.store.get(keyOf(current));
    }
  }
  return undefined;
}

async function remove(s: MachineSetScope, machine: StoredObject): Promise<void> {
  try {
    const { object, removed } = await s.ctx.store.delete(keyOf(machine));
    s.machines = s.machines.filter((m) => m.metadata.uid !== machine.metadata.uid);
    if (!removed) s.machines.push(object);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    s.machines = s.machines.filter((m) => m.metadata.uid !== machine.metadata.uid);
  }
}

export async function remediateUnhealthyPhase(s: MachineSetScope): Promise<PhaseResult> {
  // A run that recorded its intent but crashed before the delete finishes it first.
  for (const machine of s.machines.filter((m) => !isDeleting(m) && inFlight(m))) await remove(s, machine);
  const marked = s.machines.filter(markedForRemediation).sort((a, b) => a.metadata.creationTimestamp.localeCompare(b.metadata.creationTimestamp));
  if (marked.length === 0) {
    if (findCondition(conditionsOf(s.object.status), 'Remediating')) s.conditions.push({ type: 'Remediating', status: 'False', reason: 'NotRemediating' });
    return {};
  }
  const budget = await remediationBudget(s);
  const now = marked.slice(0, Math.min(marked.length, budget));
  for (const machine of now) {
    const taken = await takeInHand(s, machine);
    if (taken) await remove(s, taken);
  }
  const deferred = marked.slice(now.length).map((m) => m.metadata.name);
  s.conditions.push(
    deferred.length > 0
      ? { type: 'Remediating', status: 'True', reason: 'RemediationDeferred', message: `maxInFlight reached; waiting to remediate ${deferred.join(', ')}` }
      : { type: 'Remediating', status: 'True', reason: 'MachineDeleting', message: `deleting unhealthy Machines ${now.map((m) => m.metadata.name).join(', ')}` },
  );
  return {};
}
