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
import { isNotFound } from '../../../../shared/errors/index.js';
import { timestamp } from '../../../../shared/ports/clock.js';
import { updateConditions } from '../../engine/references/update-conditions.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { CONDITION_OWNER_REMEDIATED } from '../machinehealthcheck/well-known.js';
import { PREFLIGHT_FAILED_REQUEUE_SECONDS, preflightGate, readCluster } from './preflight-gate.js';
import type { MachineSetScope } from './scope.js';

/** The reason that says the owner took a Machine in hand (and so counts it as in flight). */
export const REASON_MACHINE_DELETING = 'MachineDeleting';
/** Cluster API's MachineSetMachineRemediationDeferredReason. */
export const REASON_REMEDIATION_DEFERRED = 'RemediationDeferred';

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

/** Sets the Machine's OwnerRemediated condition (no write when it says so already); undefined when the Machine is gone. */
async function setOwnerRemediated(s: MachineSetScope, machine: StoredObject, reason: string, message: string): Promise<StoredObject | undefined> {
  const condition = { type: CONDITION_OWNER_REMEDIATED, status: 'False' as const, reason, message };
  return updateConditions(s.ctx.store, machine, (current) => setCondition(current, condition, timestamp(s.ctx.clock)));
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

/** Records that this owner is remediating the Machine (so it counts as in flight while it goes). */
function takeInHand(s: MachineSetScope, machine: StoredObject): Promise<StoredObject | undefined> {
  return setOwnerRemediated(s, machine, REASON_MACHINE_DELETING, 'Machine deletionTimestamp set');
}

/**
 * Cluster API runs the preflight checks before it remediates (a replacement made now could not
 * join, or would join at the wrong version): while they fail, each marked Machine says why in its
 * OwnerRemediated condition and waits.
 */
async function deferredByPreflight(s: MachineSetScope, marked: readonly StoredObject[]): Promise<PhaseResult | undefined> {
  const cluster = await readCluster(s);
  const blocked = cluster ? await preflightGate(s, cluster, 'Machine remediation') : [];
  if (blocked.length === 0) return undefined;
  const message = blocked.map((m) => `* ${m}`).join('\n');
  for (const machine of marked) await setOwnerRemediated(s, machine, REASON_REMEDIATION_DEFERRED, message);
  s.conditions.push({ type: 'Remediating', status: 'True', reason: REASON_REMEDIATION_DEFERRED, message: `waiting to remediate ${marked.map((m) => m.metadata.name).join(', ')}:\n${message}` });
  return { requeueAfterSeconds: PREFLIGHT_FAILED_REQUEUE_SECONDS };
}

export async function remediateUnhealthyPhase(s: MachineSetScope): Promise<PhaseResult> {
  // A run that recorded its intent but crashed before the delete finishes it first.
  for (const machine of s.machines.filter((m) => !isDeleting(m) && inFlight(m))) await remove(s, machine);
  const marked = s.machines.filter(markedForRemediation).sort((a, b) => a.metadata.creationTimestamp.localeCompare(b.metadata.creationTimestamp));
  if (marked.length === 0) {
    if (findCondition(conditionsOf(s.object.status), 'Remediating')) s.conditions.push({ type: 'Remediating', status: 'False', reason: 'NotRemediating' });
    return {};
  }
  const deferred = await deferredByPreflight(s, marked);
  if (deferred) return deferred;
  const budget = await remediationBudget(s);
  const now = marked.slice(0, Math.min(marked.length, budget));
  for (const machine of now) {
    const taken = await takeInHand(s, machine);
    if (taken) await remove(s, taken);
  }
  const waiting = marked.slice(now.length).map((m) => m.metadata.name);
  s.conditions.push(
    waiting.length > 0
      ? { type: 'Remediating', status: 'True', reason: REASON_REMEDIATION_DEFERRED, message: `maxInFlight reached; waiting to remediate ${waiting.join(', ')}` }
      : { type: 'Remediating', status: 'True', reason: 'MachineDeleting', message: `deleting unhealthy Machines ${now.map((m) => m.metadata.name).join(', ')}` },
  );
  return {};
}
