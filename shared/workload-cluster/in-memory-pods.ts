/**
 * The Pods of simulated workload clusters and what a drain asks of them, over the objects applied
 * to those clusters (in-memory-workload-objects.ts): Pods bound to a Node by `spec.nodeName`,
 * Namespaces, DaemonSets and PodDisruptionBudgets (`policy/v1`). An eviction is answered as
 * kube-apiserver's eviction subresource answers it: a Pod that is gone is a 404, a terminating
 * namespace a refusal, more than one budget over the Pod a refusal, a budget whose healthy Pods
 * would fall below what it asks a 429 with its cause ("The disruption budget X needs N healthy
 * pods and has M currently"). Budgets are computed on the spot over the Pods they select (the
 * disruption controller's expected count is the number of Pods selected). A Pod that is finished,
 * pending or already terminating is evicted whatever its budget says. The simulated kubelet stops
 * an evicted Pod at once: it leaves the cluster, and the volumes only it used on its Node detach
 * (in-memory-volumes.ts).
 */
import { isRecord, recordAt, stringAt, stringEntriesOf } from '../contracts/json.js';
import { labelSelectorSchema } from '../contracts/schemas/common/selector.js';
import { selectorMatches } from '../contracts/validation/label-selector.js';
import type { EvictionOutcome, WorkloadClusterRef, WorkloadNamespace, WorkloadObject, WorkloadPod } from '../ports/workload-cluster.js';
import type { InMemoryWorkloadObjects } from './in-memory-workload-objects.js';
import { workloadPodOf } from './workload-pod-of.js';

/** The namespaces every cluster has from the start. */
const BUILT_IN_NAMESPACES = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';
const PDB_REFUSAL = "Cannot evict pod as it would violate the pod's disruption budget.";

export class InMemoryPods {
  constructor(private readonly objects: InMemoryWorkloadObjects) {}

  podsOnNode(cluster: WorkloadClusterRef, nodeName: string): WorkloadPod[] {
    return this.rawPods(cluster)
      .filter((pod) => stringAt(pod, 'spec', 'nodeName') === nodeName)
      .flatMap((pod) => workloadPodOf(pod) ?? []);
  }

  /** The built-in namespaces, those applied, and any an applied object lives in (the simulation creates them as needed). */
  namespaces(cluster: WorkloadClusterRef): WorkloadNamespace[] {
    const applied = new Map(this.objects.list(cluster, 'v1', 'Namespace').map((ns) => [ns.metadata.name, stringEntriesOf(ns.metadata.labels)]));
    const used = this.objects.objectsOf(cluster).flatMap((o) => (o.metadata.namespace ? [o.metadata.namespace] : []));
    const names = [...new Set([...BUILT_IN_NAMESPACES, ...applied.keys(), ...used])].sort();
    return names.map((name) => ({ name, labels: { ...applied.get(name), [NAMESPACE_NAME_LABEL]: name } }));
  }

  daemonSetExists(cluster: WorkloadClusterRef, namespace: string, name: string): boolean {
    return this.objects.list(cluster, 'apps/v1', 'DaemonSet').some((ds) => ds.metadata.namespace === namespace && ds.metadata.name === name);
  }

  evict(cluster: WorkloadClusterRef, target: { namespace: string; name: string }): EvictionOutcome {
    const raw = this.rawPods(cluster).find((pod) => (pod.metadata.namespace ?? 'default') === target.namespace && pod.metadata.name === target.name);
    const pod = raw && workloadPodOf(raw);
    if (!raw || !pod) return { result: 'NotFound' };
    const namespace = this.objects.list(cluster, 'v1', 'Namespace').find((ns) => ns.metadata.name === target.namespace);
    if (stringAt(namespace, 'status', 'phase') === 'Terminating') {
      return { result: 'Refused', reason: 'NamespaceTerminating', message: `pods "${pod.name}" is forbidden: unable to create new content in namespace ${pod.namespace} because it is being terminated` };
    }
    if (!ignoresBudgets(pod)) {
      const refusal = this.budgetRefusal(cluster, pod);
      if (refusal) return refusal;
    }
    this.objects.remove(cluster, raw);
    const nodeName = stringAt(raw, 'spec', 'nodeName');
    if (nodeName) this.objects.volumes.detachUnused(cluster, nodeName, pod);
    return { result: 'Evicted' };
  }

  private budgetRefusal(cluster: WorkloadClusterRef, pod: WorkloadPod): EvictionOutcome | undefined {
    const podsInNamespace = this.rawPods(cluster).flatMap((p) => workloadPodOf(p) ?? []).filter((p) => p.namespace === pod.namespace);
    const budgets = this.objects
      .list(cluster, 'policy/v1', 'PodDisruptionBudget')
      .filter((pdb) => (pdb.metadata.namespace ?? 'default') === pod.namespace && budgetSelects(pdb, pod));
    if (budgets.length > 1) return { result: 'Refused', reason: 'Failed', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.' };
    const [budget] = budgets;
    if (!budget) return undefined;
    const selected = podsInNamespace.filter((p) => budgetSelects(budget, p));
    const healthy = selected.filter(isHealthy).length;
    const desired = desiredHealthy(budget, selected.length);
    if (healthy - desired > 0) return undefined;
    return { result: 'Refused', reason: 'DisruptionBudget', message: `${PDB_REFUSAL} The disruption budget ${budget.metadata.name} needs ${desired} healthy pods and has ${healthy} currently` };
  }

  private rawPods(cluster: WorkloadClusterRef): WorkloadObject[] {
    return this.objects.list(cluster, 'v1', 'Pod');
  }
}

/** kube-apiserver's canIgnorePDB: finished, pending and terminating Pods are evicted whatever the budget. */
function ignoresBudgets(pod: WorkloadPod): boolean {
  return pod.deletionTimestamp !== undefined || pod.phase === 'Succeeded' || pod.phase === 'Failed' || pod.phase === 'Pending';
}

/** Running (a Pod applied without status is taken as running) and not terminating. */
function isHealthy(pod: WorkloadPod): boolean {
  return pod.deletionTimestamp === undefined && (pod.phase === undefined || pod.phase === 'Running');
}

/** policy/v1: an empty selector selects every Pod of the namespace; one that does not parse selects none. */
function budgetSelects(budget: WorkloadObject, pod: WorkloadPod): boolean {
  const selector = labelSelectorSchema.safeParse(recordAt(budget, 'spec', 'selector') ?? {});
  return selector.success && selectorMatches(selector.data, pod.labels);
}

/** The disruption controller's desiredHealthy: minAvailable, or the expected count less maxUnavailable (percentages rounded up). */
function desiredHealthy(budget: WorkloadObject, expected: number): number {
  const spec = recordAt(budget, 'spec');
  if (isRecord(spec) && spec.maxUnavailable !== undefined) return Math.max(0, expected - scaled(spec.maxUnavailable, expected));
  if (isRecord(spec) && spec.minAvailable !== undefined) return scaled(spec.minAvailable, expected);
  return 0;
}

function scaled(value: unknown, total: number): number {
  if (typeof value === 'number') return value;
  const percent = typeof value === 'string' ? /^(\d+)%$/.exec(value) : null;
  return percent ? Math.ceil((Number(percent[1]) * total) / 100) : Number(value) || 0;
}
