/**
 * A deleted Machine drains its Node before its infrastructure goes (Cluster API's reconcileDelete,
 * isNodeDrainAllowed and drainNode): after the pre-drain hooks, unless the Machine is annotated
 * `machine.cluster.x-k8s.io/exclude-node-draining`, its Node may not be deleted at all (the
 * Cluster or control plane is going, no control-plane Machine would remain: node-deletion.ts),
 * its InfraMachine is gone or going, or `spec.deletion.nodeDrainTimeoutSeconds` (0 or unset: no
 * limit) has passed since `status.deletion.nodeDrainStartTime`. A Node that is not there has
 * nothing to drain. While Pods remain the Machine waits (`Deleting=True`, reason `DrainingNode`,
 * the message naming them) and drains again every 20 seconds, each pass deriving everything
 * afresh (drain/drain-node.ts).
 */
import { numberAt, stringAt } from '../../../../shared/contracts/json.js';
import { ANNOTATION_EXCLUDE_NODE_DRAINING, isDeleting } from '../../../../shared/contracts/object.js';
import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import { timestamp } from '../../../../shared/ports/clock.js';
import { readReference, referenceKey } from '../../engine/references/object-reference.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { drainNodePass } from './drain/drain-node.js';
import { drainConditionMessage } from './drain/evictions.js';
import { whyNodeStays } from './node-deletion.js';
import type { MachineScope } from './scope.js';

export const DRAIN_RETRY_SECONDS = 20;
export const NODE_DRAIN_START_TIME = 'nodeDrainStartTime';

/** Whether the drain may run at all (isNodeDrainAllowed, and the Node is one that may be deleted). */
async function drainAllowed(s: MachineScope, clusterName: string): Promise<boolean> {
  if (s.object.metadata.annotations?.[ANNOTATION_EXCLUDE_NODE_DRAINING] !== undefined) return false;
  if (await whyNodeStays(s, clusterName)) return false;
  const infraRef = readReference(s.object, 'spec', 'infrastructureRef');
  const infra = infraRef ? await s.ctx.store.get(referenceKey(infraRef, s.object.metadata.namespace)) : undefined;
  if (!infra || isDeleting(infra)) return false;
  const timeoutSeconds = numberAt(s.object, 'spec', 'deletion', 'nodeDrainTimeoutSeconds') ?? 0;
  const started = s.deletion[NODE_DRAIN_START_TIME];
  return !(started && timeoutSeconds > 0 && s.ctx.clock.now().getTime() - Date.parse(started) >= timeoutSeconds * 1000);
}

function waiting(s: MachineScope, message: string): PhaseResult {
  s.conditions.push({ type: 'Deleting', status: 'True', reason: 'DrainingNode', message });
  return { stop: true, requeueAfterSeconds: DRAIN_RETRY_SECONDS };
}

export async function drainNodePhase(s: MachineScope): Promise<PhaseResult> {
  const clusterName = stringAt(s.object, 'spec', 'clusterName');
  const providerID = stringAt(s.object, 'spec', 'providerID');
  if (!stringAt(s.object, 'status', 'nodeRef', 'name') || !clusterName || !providerID || !(await drainAllowed(s, clusterName))) return {};
  const { namespace } = s.object.metadata;
  const startedAt = s.deletion[NODE_DRAIN_START_TIME] ?? timestamp(s.ctx.clock);
  s.deletion[NODE_DRAIN_START_TIME] = startedAt;
  try {
    const ref = { namespace, name: clusterName };
    const node = await s.workloadCluster.findNodeByProviderID(ref, providerID);
    if (!node) return {};
    const cluster = await s.ctx.store.get({ group: CORE_GROUP, kind: 'Cluster', namespace, name: clusterName });
    const { items: ruleObjects } = await s.ctx.store.list({ group: CORE_GROUP, kind: 'MachineDrainRule', namespace });
    const pass = await drainNodePass(
      s.workloadCluster,
      { cluster: ref, node, machineLabels: s.object.metadata.labels ?? {}, clusterLabels: cluster?.metadata.labels ?? {}, ruleObjects },
      s.ctx.clock,
    );
    if (pass.state === 'Drained') return {};
    if (pass.state === 'Failed') return waiting(s, `Error draining Node ${node.name}: ${pass.message}`);
    return waiting(s, drainConditionMessage(pass.result, startedAt));
  } catch (error) {
    return waiting(s, `Error draining Node: ${error instanceof Error ? error.message : String(error)}`);
  }
}
