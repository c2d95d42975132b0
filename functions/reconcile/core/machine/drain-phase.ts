/**
 * A deleted Machine drains its Node before its infrastructure goes (Cluster API's reconcileDelete
 * and drainNode), after the pre-drain hooks and when node-steps.ts allows it (not with
 * `machine.cluster.x-k8s.io/exclude-node-draining`, not past `nodeDrainTimeoutSeconds` since
 * `status.deletion.nodeDrainStartTime`). A Node that is not there has nothing to drain. While Pods
 * remain the Machine waits (`Deleting=True`, reason `DrainingNode`, the message naming them) and
 * drains again every 20 seconds, each pass deriving everything afresh (drain/drain-node.ts).
 */
import { ANNOTATION_EXCLUDE_NODE_DRAINING } from '../../../../shared/contracts/object.js';
import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import type { WorkloadClusterRef, WorkloadNode } from '../../../../shared/ports/workload-cluster.js';
import { type DrainTarget, drainNodePass } from './drain/drain-node.js';
import { drainConditionMessage } from './drain/evictions.js';
import { type NodeStep, beginNodeStep, errorText, waitOnNode } from './node-steps.js';
import type { MachineScope } from './scope.js';

export const DRAIN_STEP: NodeStep = { excludeAnnotation: ANNOTATION_EXCLUDE_NODE_DRAINING, timeoutField: 'nodeDrainTimeoutSeconds', startTimeField: 'nodeDrainStartTime' };
const DRAINING = 'DrainingNode';

/** The Node with what judging its Pods needs: the Machine's and Cluster's labels, the namespace's MachineDrainRules. */
export async function drainTargetOf(s: MachineScope, cluster: WorkloadClusterRef, node: WorkloadNode): Promise<DrainTarget> {
  const { namespace } = s.object.metadata;
  const clusterObject = await s.ctx.store.get({ group: CORE_GROUP, kind: 'Cluster', namespace, name: cluster.name });
  const { items: ruleObjects } = await s.ctx.store.list({ group: CORE_GROUP, kind: 'MachineDrainRule', namespace });
  return { cluster, node, machineLabels: s.object.metadata.labels ?? {}, clusterLabels: clusterObject?.metadata.labels ?? {}, ruleObjects };
}

export async function drainNodePhase(s: MachineScope): Promise<PhaseResult> {
  const step = await beginNodeStep(s, DRAIN_STEP);
  if (!step) return {};
  try {
    const node = await s.workloadCluster.findNodeByProviderID(step.cluster, step.providerID);
    if (!node) return {};
    const pass = await drainNodePass(s.workloadCluster, await drainTargetOf(s, step.cluster, node), s.ctx.clock);
    if (pass.state === 'Drained') return {};
    if (pass.state === 'Failed') return waitOnNode(s, DRAINING, `Error draining Node ${node.name}: ${pass.message}`);
    return waitOnNode(s, DRAINING, drainConditionMessage(pass.result, step.startedAt));
  } catch (error) {
    return waitOnNode(s, DRAINING, `Error draining Node: ${errorText(error)}`);
  }
}
