/**
 * The health of a control-plane Machine's static Pods, as Cluster API's KubeadmControlPlane
 * reports it (controlplane/kubeadm/pkg/workload_cluster_conditions.go UpdateStaticPodConditions):
 * one condition per component on the Machine (`APIServerPodHealthy`, `ControllerManagerPodHealthy`,
 * `SchedulerPodHealthy`, and `EtcdPodHealthy` when the control plane runs etcd), from the Pod
 * `kube-system/<component>-<node>`: Running and Ready is healthy; Pending is provisioning; a
 * Running Pod not Ready says what its containers wait on or why they ended; Succeeded or Failed is
 * failed. A Machine without a Node, a Node gone or unreachable, or a Node whose Ready is Unknown
 * gives Unknown; a deleting Machine, False. Pure.
 */

import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import type { StaticPod } from '../../../../shared/ports/workload-static-pods.js';

export const COMPONENT_CONDITIONS = {
  'kube-apiserver': 'APIServerPodHealthy',
  'kube-controller-manager': 'ControllerManagerPodHealthy',
  'kube-scheduler': 'SchedulerPodHealthy',
  etcd: 'EtcdPodHealthy',
} as const;

export type Component = keyof typeof COMPONENT_CONDITIONS;

/** The components whose Pods a control plane's Machines run: etcd only when it is not external. */
export function componentsOf(managesEtcd: boolean): Component[] {
  return managesEtcd ? ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'etcd'] : ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'];
}

/** What is known of a Machine's Node where its Pods run. */
export type NodeView =
  | { state: 'noNode'; waitingFor: string }
  | { state: 'deleting' }
  | { state: 'missing'; name: string }
  | { state: 'unreachable'; name: string }
  | { state: 'readyUnknown'; name: string }
  | { state: 'failed'; reason: 'InspectionFailed' | 'ConnectionDown'; message: string }
  | { state: 'running'; name: string; pods: readonly StaticPod[]; createdAt?: string };

function set(component: Component, status: ConditionInput['status'], reason: string, message?: string): ConditionInput {
  return { type: COMPONENT_CONDITIONS[component], status, reason, ...(message ? { message } : {}) };
}

function podCondition(pod: StaticPod, type: string): string {
  return pod.conditions.find((c) => c.type === type)?.status ?? 'Unknown';
}

/** A Running Pod that is not Ready: what its containers wait on, or why they ended. */
function runningNotReady(component: Component, pod: StaticPod): ConditionInput {
  const waiting = pod.containers.flatMap((c) => (c.waitingReason === undefined ? [] : [c.waitingReason]));
  const crashed = pod.containers.some((c) => c.lastExitCode !== undefined && c.lastExitCode !== 0);
  if (waiting.length > 0) return set(component, 'False', crashed ? 'Failed' : 'Provisioning', waiting.join(', '));
  const terminated = pod.containers.flatMap((c) => (c.terminatedReason === undefined ? [] : [c.terminatedReason]));
  if (terminated.length > 0) return set(component, 'False', 'Failed', terminated.join(', '));
  return set(component, 'False', 'Provisioning', 'Waiting for startup or readiness probes');
}

export function staticPodCondition(component: Component, pod: StaticPod | undefined): ConditionInput {
  if (!pod) return set(component, 'False', 'DoesNotExist', 'Pod does not exist');
  switch (pod.phase) {
    case 'Pending':
      if (podCondition(pod, 'PodScheduled') !== 'True') return set(component, 'False', 'Provisioning', 'Waiting to be scheduled');
      if (podCondition(pod, 'Initialized') !== 'True') return set(component, 'False', 'Provisioning', 'Running init containers');
      return set(component, 'False', 'Provisioning');
    case 'Running':
      return podCondition(pod, 'Ready') === 'True' ? set(component, 'True', 'Running') : runningNotReady(component, pod);
    case 'Succeeded':
    case 'Failed':
      return set(component, 'False', 'Failed', 'All the containers have been terminated');
    default:
      return set(component, 'Unknown', 'InspectionFailed', 'Pod is reporting Unknown status');
  }
}

function componentCondition(component: Component, node: NodeView): ConditionInput {
  switch (node.state) {
    case 'noNode':
      return set(component, 'Unknown', 'InspectionFailed', node.waitingFor);
    case 'deleting':
      return set(component, 'False', 'Deleting', 'Machine is deleting');
    case 'missing':
      return set(component, 'Unknown', 'InspectionFailed', `Node ${node.name} does not exist`);
    case 'unreachable':
      return set(component, 'Unknown', 'InspectionFailed', `Node ${node.name} is unreachable`);
    case 'readyUnknown':
      return set(component, 'Unknown', 'InspectionFailed', 'Node Ready condition is Unknown, Pod data might be stale');
    case 'failed':
      return set(component, 'Unknown', node.reason, node.message);
    case 'running':
      return staticPodCondition(component, node.pods.find((pod) => pod.name === `${component}-${node.name}`));
  }
}

/** The component conditions of one Machine. */
export function machineComponentConditions(components: readonly Component[], node: NodeView): ConditionInput[] {
  return components.map((component) => componentCondition(component, node));
}
