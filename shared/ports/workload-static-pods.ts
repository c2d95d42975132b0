/**
 * What the KubeadmControlPlane reads of a control-plane Node's static Pods (their mirror Pods in
 * `kube-system`, named `<component>-<node>`): enough of `status` to tell running and ready from
 * provisioning and failed, as Cluster API's UpdateStaticPodConditions does.
 */

export interface StaticPodContainer {
  /** state.waiting.reason (CrashLoopBackOff, ContainerCreating …). */
  waitingReason?: string;
  /** state.terminated.reason. */
  terminatedReason?: string;
  /** lastState.terminated.exitCode: a non-zero one means the container crashed before. */
  lastExitCode?: number;
}

export interface StaticPod {
  name: string;
  /** status.phase (Pending, Running, Succeeded, Failed, Unknown). */
  phase?: string;
  /** status.conditions (PodScheduled, Initialized, Ready …). */
  conditions: { type: string; status: string }[];
  containers: StaticPodContainer[];
}
