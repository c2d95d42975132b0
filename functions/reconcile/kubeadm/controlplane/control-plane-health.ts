/**
 * The control plane's components, asked of the workload cluster every reconcile (Cluster API's
 * reconcileControlPlaneAndMachinesConditions → UpdateStaticPodConditions): each Machine's Node and
 * its static Pods give the Machine `APIServerPodHealthy`, `ControllerManagerPodHealthy`,
 * `SchedulerPodHealthy` (and `EtcdPodHealthy` unless etcd is external), and the control plane
 * `ControlPlaneComponentsHealthy`, aggregated from them (component-health.ts, health-aggregate.ts).
 *
 * Before the control plane is initialized everything is Unknown ("Waiting for Cluster control
 * plane to be initialized"). A Machine's conditions are written on it only when they change, and
 * only once it has a Node or is being deleted: before that they would say it is waiting for its
 * Node, as its own `NodeHealthy` does, at the cost of writes on every step of its provisioning
 * (ADR 0174). While the components are not all healthy the control plane looks again in 20 s:
 * nothing in the workload cluster wakes it.
 */

import { type ConditionInput, setCondition } from '../../../../shared/contracts/conditions.js';
import { stringAt } from '../../../../shared/contracts/json.js';
import { isDeleting, type StoredObject } from '../../../../shared/contracts/object.js';
import { timestamp } from '../../../../shared/ports/clock.js';
import { type WorkloadCluster, WorkloadClusterUnavailableError, type WorkloadClusterRef, isWorkloadClusterError } from '../../../../shared/ports/workload-cluster.js';
import { workloadClusterOf } from '../../engine/providers/workload-cluster-port.js';
import { updateConditions } from '../../engine/references/update-conditions.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { type Component, componentsOf, machineComponentConditions, type NodeView } from './component-health.js';
import { managesEtcd, workloadClusterRefOf } from './etcd-leadership.js';
import { aggregateMachineConditions, type MachineReport } from './health-aggregate.js';
import type { KcpScope } from './scope.js';

export const CONDITION_CONTROL_PLANE_COMPONENTS_HEALTHY = 'ControlPlaneComponentsHealthy';
/** How soon a control plane whose components are not all healthy looks again. */
export const COMPONENTS_NOT_HEALTHY_REQUEUE_SECONDS = 20;

const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';

async function nodeView(workload: WorkloadCluster, cluster: WorkloadClusterRef, machine: StoredObject): Promise<NodeView> {
  if (isDeleting(machine)) return { state: 'deleting' };
  const nodeName = stringAt(machine, 'status', 'nodeRef', 'name');
  const providerID = stringAt(machine, 'spec', 'providerID');
  if (!nodeName || !providerID) {
    const infraKind = stringAt(machine, 'spec', 'infrastructureRef', 'kind') ?? 'the infrastructure';
    return { state: 'noNode', waitingFor: providerID ? `Waiting for a Node with spec.providerID ${providerID} to exist` : `Waiting for ${infraKind} to report spec.providerID` };
  }
  try {
    const node = await workload.findNodeByProviderID(cluster, providerID);
    if (!node || node.name !== nodeName) return { state: 'missing', name: nodeName };
    if ((node.taints ?? []).some((t) => t.key === TAINT_UNREACHABLE && t.effect === 'NoExecute')) return { state: 'unreachable', name: nodeName };
    if (node.conditions?.find((c) => c.type === 'Ready')?.status === 'Unknown') return { state: 'readyUnknown', name: nodeName };
    return { state: 'running', name: nodeName, pods: await workload.listStaticPods(cluster, { name: nodeName, providerID }) };
  } catch (error) {
    if (!isWorkloadClusterError(error)) throw error;
    return { state: 'failed', reason: error instanceof WorkloadClusterUnavailableError ? 'ConnectionDown' : 'InspectionFailed', message: error.message };
  }
}

/**
 * Writes `conditions` on the Machine when they say something new; the later phases go on with the
 * Machine as stored (their own writes to it would otherwise conflict).
 */
async function writeOnMachine(scope: KcpScope, machine: StoredObject, conditions: readonly ConditionInput[]): Promise<void> {
  const now = timestamp(scope.ctx.clock);
  const stored = await updateConditions(scope.ctx.store, machine, (current) => conditions.reduce((list, condition) => setCondition(list, condition, now), [...current]));
  if (!stored || stored === machine) return;
  const current = (o: StoredObject) => (o === machine ? stored : o);
  scope.machines = scope.machines.map(current);
  scope.clusterObjects = scope.clusterObjects.map(current);
}

export async function reportControlPlaneHealth(scope: KcpScope): Promise<PhaseResult | undefined> {
  const cluster = workloadClusterRefOf(scope);
  if (!cluster || isDeleting(scope.object)) return undefined;
  const components: Component[] = componentsOf(managesEtcd(scope));
  if (!scope.initialized) {
    scope.conditions.push({ type: CONDITION_CONTROL_PLANE_COMPONENTS_HEALTHY, status: 'Unknown', reason: 'InspectionFailed', message: 'Waiting for Cluster control plane to be initialized' });
    return undefined;
  }
  const workload = workloadClusterOf(scope.ctx);
  const reports: MachineReport[] = [];
  for (const machine of scope.machines) {
    const view = await nodeView(workload, cluster, machine);
    const conditions = machineComponentConditions(components, view);
    reports.push({ name: machine.metadata.name, provisioned: stringAt(machine, 'spec', 'providerID') !== undefined, conditions });
    if (view.state !== 'noNode') await writeOnMachine(scope, machine, conditions);
  }
  const healthy = aggregateMachineConditions(reports, { type: CONDITION_CONTROL_PLANE_COMPONENTS_HEALTHY, note: 'control plane' });
  scope.conditions.push(healthy);
  return healthy.status === 'True' ? undefined : { requeueAfterSeconds: COMPONENTS_NOT_HEALTHY_REQUEUE_SECONDS };
}
