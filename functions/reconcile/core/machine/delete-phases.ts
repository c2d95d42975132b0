/** Machine deletion (capi-contract.md §3.2): pre-drain hooks → Node drain (drain-phase.ts) → pre-terminate hooks → InfraMachine gone → BootstrapConfig gone → Node deleted → finalizer. */

import type { ObjectKey } from '../../../../shared/contracts/object.js';
import { isDeleting } from '../../../../shared/contracts/object.js';
import { timestamp } from '../../../../shared/ports/clock.js';
import { readReference, referenceKey } from '../../engine/references/object-reference.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import type { MachineScope } from './scope.js';

export const PRE_DRAIN_HOOK_PREFIX = 'pre-drain.delete.hook.machine.cluster.x-k8s.io';
export const PRE_TERMINATE_HOOK_PREFIX = 'pre-terminate.delete.hook.machine.cluster.x-k8s.io';
export const DELETE_WAIT_REQUEUE_SECONDS = 5;
/** status.deletion's field for when the pre-terminate hooks began to be waited for. */
export const PRE_TERMINATE_HOOK_START_TIME = 'waitForPreTerminateHookStartTime';
/** The Deleting reason while pre-terminate hooks hold the Machine (a control plane's own hook waits for it). */
export const REASON_WAITING_FOR_PRE_TERMINATE_HOOK = 'WaitingForPreTerminateHook';

/** Annotation keys of `prefix` (`prefix` or `prefix/<name>`), sorted. */
export function hooksWithPrefix(annotations: Record<string, string> | undefined, prefix: string): string[] {
  return Object.keys(annotations ?? {})
    .filter((key) => key === prefix || key.startsWith(`${prefix}/`))
    .sort();
}

export function startDeletionPhase(s: MachineScope): PhaseResult {
  s.conditions.push(
    { type: 'Ready', status: 'False', reason: 'Deleting', message: 'the Machine is being deleted' },
    { type: 'Available', status: 'False', reason: 'Deleting' },
  );
  return {};
}

/** Waits while hooks of `prefix` remain, recording when the wait began in `status.deletion[startTimeField]` (as Cluster API does). */
function hookPhase(prefix: string, reason: string, what: string, startTimeField: string) {
  return (s: MachineScope): PhaseResult => {
    const hooks = hooksWithPrefix(s.object.metadata.annotations, prefix);
    if (hooks.length === 0) return {};
    s.deletion[startTimeField] ??= timestamp(s.ctx.clock);
    s.conditions.push({ type: 'Deleting', status: 'True', reason, message: `waiting for ${what} hook(s): ${hooks.join(', ')}` });
    return { stop: true };
  };
}

export const waitForPreDrainHooksPhase = hookPhase(PRE_DRAIN_HOOK_PREFIX, 'WaitingForPreDrainHook', 'pre-drain', 'waitForPreDrainHookStartTime');
export const waitForPreTerminateHooksPhase = hookPhase(PRE_TERMINATE_HOOK_PREFIX, REASON_WAITING_FOR_PRE_TERMINATE_HOOK, 'pre-terminate', PRE_TERMINATE_HOOK_START_TIME);

/**
 * Deletes the object if it still exists. `gone` when it is; otherwise whether this Machine owns
 * it (then its removal reaches the Machine through the owner watch and no timer is needed).
 */
async function deleteAndCheckGone(s: MachineScope, key: ObjectKey): Promise<{ gone: boolean; owned: boolean }> {
  const current = await s.ctx.store.get(key);
  if (!current) return { gone: true, owned: false };
  const owned = (current.metadata.ownerReferences ?? []).some((r) => r.uid === s.object.metadata.uid);
  if (isDeleting(current)) return { gone: false, owned };
  const { removed } = await s.ctx.store.delete(key);
  return { gone: removed, owned };
}

function deleteReferencePhase(path: string[], reason: string, what: string) {
  return async (s: MachineScope): Promise<PhaseResult> => {
    const ref = readReference(s.object, ...path);
    if (!ref) return {};
    const { gone, owned } = await deleteAndCheckGone(s, referenceKey(ref, s.object.metadata.namespace));
    if (gone) return {};
    s.conditions.push({ type: 'Deleting', status: 'True', reason, message: `waiting for ${what} ${ref.kind} ${ref.name} to be deleted` });
    return owned ? { stop: true } : { stop: true, requeueAfterSeconds: DELETE_WAIT_REQUEUE_SECONDS };
  };
}

export const deleteInfrastructurePhase = deleteReferencePhase(['spec', 'infrastructureRef'], 'WaitingForInfrastructureDeletion', 'infrastructure');
export const deleteBootstrapPhase = deleteReferencePhase(['spec', 'bootstrap', 'configRef'], 'WaitingForBootstrapDeletion', 'bootstrap config');

export function deletionDonePhase(s: MachineScope): PhaseResult {
  s.conditions.push({ type: 'Deleting', status: 'True', reason: 'DeletionCompleted', message: 'infrastructure and bootstrap config are gone' });
  return {};
}
