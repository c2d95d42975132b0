/**
 * What one drain pass does with the Pods the filters judged, and how it reads afterwards (Cluster
 * API's EvictPods and EvictionResult): Pods go in ascending drain order, so only those of the
 * lowest order still on the Node are evicted (or waited for) now; Pods already terminating are
 * waited for; the rest wait for a later pass. The Node is drained when nothing is left to evict,
 * wait for or retry. The condition message names at most three Pods per line and five failure
 * reasons, in a stable order, so it does not change while nothing on the Node does.
 */
import type { WorkloadPod } from '../../../../../shared/ports/workload-cluster.js';
import type { PodToDrain } from './pod-filters.js';

export interface EvictionPlan {
  evictNow: WorkloadPod[];
  evictLater: WorkloadPod[];
  /** Drain Pods that are already terminating. */
  terminating: WorkloadPod[];
  waitCompletedNow: WorkloadPod[];
  waitCompletedLater: WorkloadPod[];
  ignored: WorkloadPod[];
}

export interface EvictionResult {
  /** Evicted in this pass, or terminating already: waited for until they leave the Node. */
  deletionTimestampSet: WorkloadPod[];
  /** Pods whose eviction the API refused (or that were not tried in time), by the reason. */
  failed: Map<string, WorkloadPod[]>;
  evictLater: WorkloadPod[];
  waitCompletedNow: WorkloadPod[];
  waitCompletedLater: WorkloadPod[];
  notFound: WorkloadPod[];
  ignored: WorkloadPod[];
}

const keyOf = (pod: WorkloadPod) => `${pod.namespace}/${pod.name}`;
/** Go's string order (bytes), as Cluster API sorts what a drain reports. */
export const goOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function planEvictions(items: readonly PodToDrain[]): EvictionPlan {
  const sorted = [...items].sort((a, b) => goOrder(keyOf(a.pod), keyOf(b.pod)));
  const ordered = sorted.filter((i) => i.status.behavior === 'Drain' || i.status.behavior === 'WaitCompleted');
  const minOrder = Math.min(...ordered.map((i) => i.status.order ?? 0));
  const plan: EvictionPlan = { evictNow: [], evictLater: [], terminating: [], waitCompletedNow: [], waitCompletedLater: [], ignored: [] };
  for (const { pod, status } of sorted) {
    const now = (status.order ?? 0) === minOrder;
    if (status.behavior === 'Drain' && !pod.deletionTimestamp) (now ? plan.evictNow : plan.evictLater).push(pod);
    else if (status.behavior === 'WaitCompleted') (now ? plan.waitCompletedNow : plan.waitCompletedLater).push(pod);
    else if (status.behavior === 'Drain') plan.terminating.push(pod);
    else plan.ignored.push(pod);
  }
  return plan;
}

export function drainCompleted(result: EvictionResult): boolean {
  return (
    result.deletionTimestampSet.length === 0 &&
    result.failed.size === 0 &&
    result.evictLater.length === 0 &&
    result.waitCompletedNow.length === 0 &&
    result.waitCompletedLater.length === 0
  );
}

/** `ns/a, ns/b, ns/c, ... (2 more)` (Cluster API's PodListToString). */
export function podList(pods: readonly WorkloadPod[], n = 3): string {
  const shown = pods.slice(0, n).map(keyOf);
  return [...shown, ...(pods.length > n ? [`... (${pods.length - n} more)`] : [])].join(', ');
}

const plural = (pods: readonly WorkloadPod[]) => (pods.length > 1 ? 'Pods' : 'Pod');
const PDB_PREFIX = "cannot evict pod as it would violate the pod's disruption budget.";

function failureLines(failed: ReadonlyMap<string, WorkloadPod[]>): string[] {
  const reasons = [...failed.keys()].sort(goOrder);
  const lines = reasons.slice(0, 5).map((reason) => {
    const pods = failed.get(reason) ?? [];
    const lowered = reason.replaceAll("Cannot evict pod as it would violate the pod's disruption budget.", PDB_PREFIX);
    const text = lowered.startsWith(PDB_PREFIX) ? lowered : `failed to evict Pod, ${lowered}`;
    return `* ${plural(pods)} ${podList(pods)}: ${text}`;
  });
  const others = reasons.slice(5).reduce((count, reason) => count + (failed.get(reason)?.length ?? 0), 0);
  if (others > 0) lines.push(others === 1 ? '* 1 Pod with other issues' : `* ${others} Pods with other issues`);
  return lines;
}

/** The Deleting condition's message while the drain is not done (empty once it is). */
export function drainConditionMessage(result: EvictionResult, startedAt: string): string {
  if (drainCompleted(result)) return '';
  const lines = [`Drain not completed yet (started at ${startedAt}):`];
  if (result.deletionTimestampSet.length > 0) {
    lines.push(`* ${plural(result.deletionTimestampSet)} ${podList(result.deletionTimestampSet)}: deletionTimestamp set, but still not removed from the Node`);
  }
  lines.push(...failureLines(result.failed));
  if (result.waitCompletedNow.length > 0) lines.push(`* ${plural(result.waitCompletedNow)} ${podList(result.waitCompletedNow)}: waiting for completion`);
  if (result.evictLater.length > 0) lines.push(`After above Pods have been removed from the Node, the following Pods will be evicted: ${podList(result.evictLater)}`);
  if (result.waitCompletedLater.length > 0) {
    lines.push(`After above Pods have been removed from the Node, waiting for the following Pods to complete without eviction: ${podList(result.waitCompletedLater)}`);
  }
  return lines.join('\n');
}
