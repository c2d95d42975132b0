/**
 * What the two steps a deleted Machine takes with its Node before its infrastructure goes (drain,
 * then waiting for its volumes to detach) share (Cluster API's isNodeDrainAllowed and
 * isNodeVolumeDetachingAllowed): neither runs when the Machine carries the step's exclude
 * annotation, once the pre-terminate hooks are waited for (the Node steps are done), when its
 * Node may not be deleted at all (node-deletion.ts), when its InfraMachine is gone or going, or
 * once the step's timeout (`spec.deletion.*TimeoutSeconds`, 0 or unset: none)
 * has passed since the step began (`status.deletion.*StartTime`, written the first time it runs).
 * A step that waits holds the Machine (`Deleting=True` with its reason) and looks again in 20 s.
 */
import { numberAt, stringAt } from '../../../../shared/contracts/json.js';
import { isDeleting } from '../../../../shared/contracts/object.js';
import { timestamp } from '../../../../shared/ports/clock.js';
import type { WorkloadClusterRef } from '../../../../shared/ports/workload-cluster.js';
import { readReference, referenceKey } from '../../engine/references/object-reference.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { PRE_TERMINATE_HOOK_START_TIME } from './delete-phases.js';
import { whyNodeStays } from './node-deletion.js';
import type { MachineScope } from './scope.js';

export const NODE_STEP_RETRY_SECONDS = 20;

export interface NodeStep {
  excludeAnnotation: string;
  /** The field of spec.deletion. */
  timeoutField: string;
  /** The field of status.deletion. */
  startTimeField: string;
}

/** Where the step runs (the workload cluster, the Node's providerID) and when it began, or undefined when it does not run. */
export async function beginNodeStep(s: MachineScope, step: NodeStep): Promise<{ cluster: WorkloadClusterRef; providerID: string; startedAt: string } | undefined> {
  const clusterName = stringAt(s.object, 'spec', 'clusterName');
  const providerID = stringAt(s.object, 'spec', 'providerID');
  if (!stringAt(s.object, 'status', 'nodeRef', 'name') || !clusterName || !providerID) return undefined;
  if (s.object.metadata.annotations?.[step.excludeAnnotation] !== undefined) return undefined;
  // Past the drain and the volumes already: the pre-terminate hooks are being waited for.
  if (s.deletion[PRE_TERMINATE_HOOK_START_TIME] !== undefined) return undefined;
  if (await whyNodeStays(s, clusterName)) return undefined;
  const infraRef = readReference(s.object, 'spec', 'infrastructureRef');
  const infra = infraRef ? await s.ctx.store.get(referenceKey(infraRef, s.object.metadata.namespace)) : undefined;
  if (!infra || isDeleting(infra)) return undefined;
  const timeoutSeconds = numberAt(s.object, 'spec', 'deletion', step.timeoutField) ?? 0;
  const started = s.deletion[step.startTimeField];
  if (started && timeoutSeconds > 0 && s.ctx.clock.now().getTime() - Date.parse(started) >= timeoutSeconds * 1000) return undefined;
  const startedAt = started ?? timestamp(s.ctx.clock);
  s.deletion[step.startTimeField] = startedAt;
  return { cluster: { namespace: s.object.metadata.namespace, name: clusterName }, providerID, startedAt };
}

export function waitOnNode(s: MachineScope, reason: string, message: string): PhaseResult {
  s.conditions.push({ type: 'Deleting', status: 'True', reason, message });
  return { stop: true, requeueAfterSeconds: NODE_STEP_RETRY_SECONDS };
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
