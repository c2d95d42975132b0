/**
 * One pass of a Node drain over the WorkloadCluster port (Cluster API's drainNode): cordon the
 * Node, list its Pods, judge them (pod-filters.ts, with the MachineDrainRules that apply), evict
 * those whose turn it is through the Eviction API for at most ten seconds, and say whether the
 * Node is drained. On an unreachable Node (Ready Unknown) kubelet will never confirm a Pod gone,
 * so evictions ask for a 1-second grace period and Pods terminating for more than a second are
 * no longer waited for. Each pass re-derives everything from the cluster: a retried pass evicts
 * nothing twice (an evicted Pod is terminating or gone).
 */
import type { StoredObject } from '../../../../../shared/contracts/object.js';
import type { Clock } from '../../../../../shared/ports/clock.js';
import type { EvictionOutcome, WorkloadCluster, WorkloadClusterRef, WorkloadNode, WorkloadPod } from '../../../../../shared/ports/workload-cluster.js';
import { drainRulesFor } from './drain-rules.js';
import { type EvictionResult, drainCompleted, planEvictions } from './evictions.js';
import { type DrainFacts, type PodToDrain, daemonSetOf, filterPods, isFinished } from './pod-filters.js';

/** Evictions stop after this long in one pass; the rest are retried in the next. */
export const EVICTION_BUDGET_MS = 10_000;
const TERMINATING_NAMESPACE = 'Cannot evict pod from terminating namespace: unable to create eviction (kube-controller-manager should set deletionTimestamp)';

export interface DrainTarget {
  cluster: WorkloadClusterRef;
  node: WorkloadNode;
  machineLabels: Readonly<Record<string, string>>;
  clusterLabels: Readonly<Record<string, string>>;
  /** The MachineDrainRules of the Machine's namespace. */
  ruleObjects: readonly StoredObject[];
}

export type DrainPass = { state: 'Drained' } | { state: 'Draining'; result: EvictionResult } | { state: 'Failed'; message: string };

export function isUnreachable(node: WorkloadNode): boolean {
  return node.conditions?.find((c) => c.type === 'Ready')?.status === 'Unknown';
}

export async function drainNodePass(workload: WorkloadCluster, target: DrainTarget, clock: Clock): Promise<DrainPass> {
  const { cluster, node } = target;
  const unreachable = isUnreachable(node);
  if (!node.unschedulable) await workload.patchNode(cluster, node.name, { labels: {}, annotations: {}, unschedulable: true });

  const pods = await workload.listPodsOnNode(cluster, node.name);
  if (pods.length === 0) return { state: 'Drained' };
  const judged = await judgePods(workload, target, pods, clock.now(), unreachable);
  if ('failed' in judged) return { state: 'Failed', message: `failed to get Pods for eviction: ${judged.failed}` };
  const { items } = judged;
  if (!items.some((i) => i.status.behavior === 'Drain' || i.status.behavior === 'WaitCompleted')) return { state: 'Drained' };

  const plan = planEvictions(items);
  const result: EvictionResult = {
    deletionTimestampSet: [...plan.terminating],
    failed: new Map(),
    evictLater: plan.evictLater,
    waitCompletedNow: plan.waitCompletedNow,
    waitCompletedLater: plan.waitCompletedLater,
    notFound: [],
    ignored: plan.ignored,
  };
  const deadline = clock.now().getTime() + EVICTION_BUDGET_MS;
  for (const pod of plan.evictNow) {
    if (clock.now().getTime() >= deadline) {
      addFailure(result, `eviction timeout of ${EVICTION_BUDGET_MS / 1000}s reached, eviction will be retried`, pod);
      continue;
    }
    const outcome = await workload.evictPod(cluster, pod, unreachable ? { gracePeriodSeconds: 1 } : {});
    record(result, pod, outcome);
  }
  return drainCompleted(result) ? { state: 'Drained' } : { state: 'Draining', result };
}

function record(result: EvictionResult, pod: WorkloadPod, outcome: EvictionOutcome): void {
  if (outcome.result === 'Evicted') result.deletionTimestampSet.push(pod);
  else if (outcome.result === 'NotFound') result.notFound.push(pod);
  else addFailure(result, outcome.reason === 'NamespaceTerminating' ? TERMINATING_NAMESPACE : outcome.message, pod);
}

function addFailure(result: EvictionResult, reason: string, pod: WorkloadPod): void {
  result.failed.set(reason, [...(result.failed.get(reason) ?? []), pod]);
}

/**
 * Every Pod with what a drain does with it (Cluster API's GetPodsForEviction), or why it cannot
 * say: rules that cannot be trusted, Pods it cannot judge.
 */
export async function judgePods(workload: WorkloadCluster, target: DrainTarget, pods: readonly WorkloadPod[], now: Date, unreachable: boolean): Promise<{ items: PodToDrain[] } | { failed: string }> {
  const facts = await drainFacts(workload, target, pods, now, unreachable);
  if ('failed' in facts) return facts;
  const { items, errors } = filterPods(pods, facts);
  return errors.length > 0 ? { failed: errors.join('; ') } : { items };
}

/** What the filters need, read from the workload cluster and the store; rules that cannot be trusted stop the drain. */
async function drainFacts(workload: WorkloadCluster, target: DrainTarget, pods: readonly WorkloadPod[], now: Date, unreachable: boolean): Promise<DrainFacts | { failed: string }> {
  const { rules, errors } = drainRulesFor(target.ruleObjects, target.machineLabels, target.clusterLabels);
  if (errors.length > 0) return { failed: `failed to get matching MachineDrainRules: ${errors.join('; ')}` };
  const daemonSets = [...new Set(pods.filter((p) => !isFinished(p)).flatMap((p) => daemonSetOf(p) ?? []))];
  const existing = new Set<string>();
  for (const key of daemonSets) {
    const [namespace = '', name = ''] = key.split('/');
    if (await workload.daemonSetExists(target.cluster, namespace, name)) existing.add(key);
  }
  const namespaces = rules.length > 0 ? new Map((await workload.listNamespaces(target.cluster)).map((ns) => [ns.name, ns.labels])) : new Map<string, Record<string, string>>();
  return { now, skipWaitForDeleteTimeoutSeconds: unreachable ? 1 : 0, existingDaemonSets: existing, rules, namespaces };
}
