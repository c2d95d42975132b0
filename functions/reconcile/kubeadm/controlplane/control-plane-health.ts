/**
 * The control plane's health, asked of the workload cluster every reconcile (Cluster API's
 * reconcileControlPlaneAndMachinesConditions → UpdateStaticPodConditions and
 * UpdateEtcdConditions): each Machine's Node and its static Pods give the Machine
 * `APIServerPodHealthy`, `ControllerManagerPodHealthy`, `SchedulerPodHealthy` (and, unless etcd is
 * external, `EtcdPodHealthy` and, from etcd's members and alarms, `EtcdMemberHealthy`); the
 * control plane gets `ControlPlaneComponentsHealthy` and `EtcdClusterHealthy`, aggregated from
 * them (component-health.ts, etcd-health.ts, health-aggregate.ts).
 *
 * Before the control plane is initialized its conditions are Unknown ("Waiting for Cluster
 * control plane to be initialized"). A Machine's conditions are written on it only when they
 * change, and only once it has a Node or is being deleted: before that they would say it is
 * waiting for its Node, as its own `NodeHealthy` does, at the cost of writes on every step of its
 * provisioning (ADR 0174). While anything is not healthy the control plane looks again in 20 s
 * (nothing in the workload cluster wakes it), in 5 minutes while the workload cluster does not
 * answer.
 */

import { type ConditionInput, setCondition } from '../../../../shared/contracts/conditions.js';
import { stringAt } from '../../../../shared/contracts/json.js';
import { isDeleting, type StoredObject } from '../../../../shared/contracts/object.js';
import { timestamp } from '../../../../shared/ports/clock.js';
import { isWorkloadClusterError, type WorkloadCluster, type WorkloadClusterRef, WorkloadClusterUnavailableError } from '../../../../shared/ports/workload-cluster.js';
import { workloadClusterOf } from '../../engine/providers/workload-cluster-port.js';
import { updateConditions } from '../../engine/references/update-conditions.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import type { MachineHealth } from './available.js';
import { type Component, componentsOf, machineComponentConditions, type NodeView } from './component-health.js';
import { type EtcdHealth, etcdHealth } from './etcd-health.js';
import { managesEtcd, workloadClusterRefOf } from './etcd-leadership.js';
import { etcdView } from './etcd-view.js';
import { aggregateMachineConditions, type MachineReport } from './health-aggregate.js';
import type { KcpScope } from './scope.js';

export const CONDITION_CONTROL_PLANE_COMPONENTS_HEALTHY = 'ControlPlaneComponentsHealthy';
export const CONDITION_ETCD_CLUSTER_HEALTHY = 'EtcdClusterHealthy';
/** How soon a control plane whose components are not all healthy looks again. */
export const COMPONENTS_NOT_HEALTHY_REQUEUE_SECONDS = 20;
/**
 * How soon it looks again when the workload cluster does not answer at all: each look is a Lambda
 * run waiting on timeouts, and the Machines' own Node checks already follow the connection.
 */
export const WORKLOAD_UNREACHABLE_REQUEUE_SECONDS = 300;

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
    const pods = await workload.listStaticPods(cluster, { name: nodeName, providerID });
    return { state: 'running', name: nodeName, pods, ...(node.creationTimestamp ? { createdAt: node.creationTimestamp } : {}) };
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

/** Each Machine's Node as its static Pods are read (Cluster API's UpdateStaticPodConditions). */
async function nodeViews(scope: KcpScope, cluster: WorkloadClusterRef): Promise<Map<string, NodeView>> {
  const workload = workloadClusterOf(scope.ctx);
  const views = new Map<string, NodeView>();
  for (const machine of scope.machines) views.set(machine.metadata.name, await nodeView(workload, cluster, machine));
  return views;
}

export async function reportControlPlaneHealth(scope: KcpScope): Promise<PhaseResult | undefined> {
  const cluster = workloadClusterRefOf(scope);
  if (!cluster || isDeleting(scope.object)) return undefined;
  const stacked = managesEtcd(scope);
  if (!scope.initialized) {
    const waiting = { status: 'Unknown', reason: 'InspectionFailed', message: 'Waiting for Cluster control plane to be initialized' } as const;
    scope.conditions.push({ type: CONDITION_CONTROL_PLANE_COMPONENTS_HEALTHY, ...waiting }, ...(stacked ? [{ type: CONDITION_ETCD_CLUSTER_HEALTHY, ...waiting }] : []));
    return undefined;
  }
  const views = await nodeViews(scope, cluster);
  const etcd = stacked ? await etcdHealthOf(scope, cluster, views) : undefined;
  const components: Component[] = componentsOf(stacked);
  const componentReports: MachineReport[] = [];
  const etcdReports: MachineReport[] = [];
  const machines: MachineHealth[] = [];
  for (const machine of scope.machines) {
    const view = views.get(machine.metadata.name) ?? { state: 'deleting' };
    const found = machineHealthOf(machine, machineComponentConditions(components, view), etcd?.machines.get(machine.metadata.name));
    componentReports.push(found.components);
    if (found.etcd) etcdReports.push(found.etcd);
    machines.push(found.health);
    if (view.state !== 'noNode') await writeOnMachine(scope, machine, [...found.components.conditions, ...(found.etcd?.conditions ?? [])]);
  }
  scope.health = { machines, ...(etcd ? { etcd: { matching: etcd.matching, ...(etcd.members ? { members: etcd.members } : {}) } } : {}) };
  const healthy = [
    aggregateMachineConditions(componentReports, { type: CONDITION_CONTROL_PLANE_COMPONENTS_HEALTHY, note: 'control plane' }),
    ...(etcd ? [aggregateMachineConditions(etcdReports, { type: CONDITION_ETCD_CLUSTER_HEALTHY, note: 'etcd member', errors: etcd.errors })] : []),
  ];
  scope.conditions.push(...healthy);
  if (healthy.every((c) => c.status === 'True')) return undefined;
  const unreachable = [...views.values()].some((view) => view.state === 'failed' && view.reason === 'ConnectionDown');
  return { requeueAfterSeconds: unreachable ? WORKLOAD_UNREACHABLE_REQUEUE_SECONDS : COMPONENTS_NOT_HEALTHY_REQUEUE_SECONDS };
}

/** One Machine's conditions as reports for the control plane's conditions and as Available counts them. */
function machineHealthOf(machine: StoredObject, podConditions: ConditionInput[], member: ConditionInput | undefined): { components: MachineReport; etcd?: MachineReport; health: MachineHealth } {
  const name = machine.metadata.name;
  const provisioned = stringAt(machine, 'spec', 'providerID') !== undefined;
  const nodeName = stringAt(machine, 'status', 'nodeRef', 'name');
  const etcdMemberHealthy = member?.status === 'True';
  const componentsHealthy = podConditions.every((c) => c.status === 'True') && (!member || etcdMemberHealthy);
  return {
    components: { name, provisioned, conditions: podConditions },
    ...(member ? { etcd: { name, provisioned, conditions: [member] } } : {}),
    health: { provisioned, componentsHealthy, etcdMemberHealthy, ...(nodeName ? { nodeName } : {}) },
  };
}

async function etcdHealthOf(scope: KcpScope, cluster: WorkloadClusterRef, views: ReadonlyMap<string, NodeView>): Promise<EtcdHealth> {
  const view = (await etcdView(scope, cluster)) ?? { state: 'failed', reason: 'InspectionFailed', message: 'No Machine has a Node to reach etcd through' };
  const machines = scope.machines.map((m) => {
    const nodeName = stringAt(m, 'status', 'nodeRef', 'name');
    return { name: m.metadata.name, node: views.get(m.metadata.name) ?? { state: 'deleting' as const }, ...(nodeName ? { nodeName } : {}) };
  });
  return etcdHealth(machines, view, scope.ctx.clock.now());
}
