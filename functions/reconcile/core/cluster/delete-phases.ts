/**
 * Cluster deletion in order (capi-contract.md §3.1): worker MachineDeployments, MachineSets and
 * Machines (control-plane Machines too when there is no control-plane object) → control plane →
 * infrastructure, each waited for; then the skeleton drops the finalizer. Every wait is
 * event-driven: the removal of what it waits on wakes the Cluster (worker Machines through the
 * `clusterLabel` watch narrowed to `REMOVE`, MachineSets and MachineDeployments through theirs,
 * the control plane and infrastructure through their owner watches); the requeue is only the
 * safety net.
 */

import { listClusterMembers, MACHINE, MACHINE_DEPLOYMENT, MACHINE_SET } from '../../engine/references/cluster-members.js';
import { type ObjectKey, type StoredObject, isDeleting, keyOf } from '../../../../shared/contracts/object.js';
import { isNotFound } from '../../../../shared/errors/index.js';
import { readReference, referenceKey } from '../../engine/references/object-reference.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { WAIT_SAFETY_NET_SECONDS } from '../../engine/work/wait-safety-net.js';
import { isControlPlaneMachine } from './counters.js';
import type { ClusterScope } from './scope.js';

/**
 * Worker kinds, owners first: a MachineSet that outlives its deleting Machines would create
 * replacements for them (found by the end-to-end scenario: an extra worker Machine was created
 * during Cluster deletion).
 */
const WORKER_KINDS = ['MachineDeployment', 'MachineSet', 'Machine'];

/** Pure: which descendants the first deletion step removes, owners before the objects they own. */
export function descendantsToDelete(descendants: readonly StoredObject[], hasControlPlaneObject: boolean): StoredObject[] {
  return descendants
    .filter(
      (o) =>
        o.apiVersion.startsWith('cluster.x-k8s.io/') &&
        WORKER_KINDS.includes(o.kind) &&
        !(o.kind === 'Machine' && hasControlPlaneObject && isControlPlaneMachine(o)),
    )
    .sort((a, b) => WORKER_KINDS.indexOf(a.kind) - WORKER_KINDS.indexOf(b.kind));
}

async function deleteIgnoringGone(s: ClusterScope, key: ObjectKey): Promise<void> {
  try {
    await s.ctx.store.delete(key);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

function waitFor(s: ClusterScope, reason: string, message: string): PhaseResult {
  s.conditions.push({ type: 'Deleting', status: 'True', reason, message });
  return { stop: true, requeueAfterSeconds: WAIT_SAFETY_NET_SECONDS };
}

export function startClusterDeletionPhase(s: ClusterScope): PhaseResult {
  s.conditions.push(
    { type: 'Available', status: 'False', reason: 'Deleting', message: 'the Cluster is being deleted' },
    { type: 'Ready', status: 'False', reason: 'Deleting', message: 'the Cluster is being deleted' },
  );
  return {};
}

export async function deleteWorkersPhase(s: ClusterScope): Promise<PhaseResult> {
  const descendants = await listClusterMembers(s.ctx.store, s.object.metadata.namespace, s.object.metadata.name, [
    MACHINE_DEPLOYMENT,
    MACHINE_SET,
    MACHINE,
  ]);
  const targets = descendantsToDelete(descendants, readReference(s.object, 'spec', 'controlPlaneRef') !== undefined);
  if (targets.length === 0) return {};
  for (const target of targets.filter((t) => !isDeleting(t))) await deleteIgnoringGone(s, keyOf(target));
  return waitFor(s, 'WaitingForWorkersDeletion', `waiting for ${targets.length} MachineDeployments, MachineSets and Machines to be deleted`);
}

function deleteReferencedPhase(field: 'controlPlaneRef' | 'infrastructureRef', reason: string) {
  return async (s: ClusterScope): Promise<PhaseResult> => {
    const ref = readReference(s.object, 'spec', field);
    if (!ref) return {};
    const key = referenceKey(ref, s.object.metadata.namespace);
    const current = await s.ctx.store.get(key);
    if (!current) return {};
    if (!isDeleting(current)) {
      try {
        const { removed } = await s.ctx.store.delete(key);
        if (removed) return {};
      } catch (error) {
        if (isNotFound(error)) return {};
        throw error;
      }
    }
    return waitFor(s, reason, `waiting for ${ref.kind} ${ref.name} to be deleted`);
  };
}

export const deleteControlPlanePhase = deleteReferencedPhase('controlPlaneRef', 'WaitingForControlPlaneDeletion');
export const deleteInfrastructurePhase = deleteReferencedPhase('infrastructureRef', 'WaitingForInfrastructureDeletion');
