/**
 * A deleted Machine takes its Node out of the workload cluster once its infrastructure and
 * bootstrap config are gone (Cluster API's Machine controller, isDeleteNodeAllowed and
 * deleteNode): not while its Cluster or control plane is being deleted (the whole cluster goes),
 * and not when no control-plane Machine would remain to serve the API. A Node already gone is
 * deleted; a workload API that does not answer is asked again every few seconds until
 * `spec.deletion.nodeDeletionTimeoutSeconds` (Cluster API's default 10 s; 0 waits for ever) has
 * passed since the deletion began, and then the Machine goes without it.
 */

import { numberAt, stringAt } from '../../../../shared/contracts/json.js';
import { isDeleting, LABEL_CONTROL_PLANE } from '../../../../shared/contracts/object.js';
import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import { readReference, referenceKey } from '../../engine/references/object-reference.js';
import { MACHINE } from '../../engine/references/cluster-members.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import type { MachineScope } from './scope.js';

export const DEFAULT_NODE_DELETION_TIMEOUT_SECONDS = 10;
export const NODE_DELETION_RETRY_SECONDS = 2;

/** Why the Node must be neither drained nor deleted, or undefined when it may be; read once per run. */
export function whyNodeStays(s: MachineScope, clusterName: string): Promise<string | undefined> {
  s.nodeStays ??= readWhyNodeStays(s, clusterName);
  return s.nodeStays;
}

async function readWhyNodeStays(s: MachineScope, clusterName: string): Promise<string | undefined> {
  const { namespace } = s.object.metadata;
  const cluster = await s.ctx.store.get({ group: CORE_GROUP, kind: 'Cluster', namespace, name: clusterName });
  if (!cluster || isDeleting(cluster)) return 'the Cluster is being deleted';
  const controlPlaneRef = readReference(cluster, 'spec', 'controlPlaneRef');
  const controlPlane = controlPlaneRef ? await s.ctx.store.get(referenceKey(controlPlaneRef, namespace)) : undefined;
  if (controlPlane && isDeleting(controlPlane)) return 'the control plane is being deleted';
  const machines = await s.ctx.store.listByCluster(namespace, clusterName, MACHINE);
  const activeControlPlane = machines.filter((m) => !isDeleting(m) && m.metadata.labels?.[LABEL_CONTROL_PLANE] !== undefined);
  return activeControlPlane.length === 0 ? 'no control-plane Machine would remain' : undefined;
}

export async function deleteNodePhase(s: MachineScope): Promise<PhaseResult> {
  const nodeName = stringAt(s.object, 'status', 'nodeRef', 'name');
  const clusterName = stringAt(s.object, 'spec', 'clusterName');
  if (!nodeName || !clusterName || (await whyNodeStays(s, clusterName))) return {};
  try {
    await s.workloadCluster.deleteNode({ namespace: s.object.metadata.namespace, name: clusterName }, nodeName);
    return {};
  } catch (error) {
    const timeoutSeconds = numberAt(s.object, 'spec', 'deletion', 'nodeDeletionTimeoutSeconds') ?? DEFAULT_NODE_DELETION_TIMEOUT_SECONDS;
    const since = Date.parse(s.object.metadata.deletionTimestamp ?? '');
    const expired = timeoutSeconds > 0 && s.ctx.clock.now().getTime() >= since + timeoutSeconds * 1000;
    if (expired) return {};
    const message = error instanceof Error ? error.message : String(error);
    s.conditions.push({ type: 'Deleting', status: 'True', reason: 'DeletingNode', message: `deleting Node ${nodeName}: ${message}` });
    return { stop: true, requeueAfterSeconds: NODE_DELETION_RETRY_SECONDS };
  }
}
