/**
 * Which Pods on a Node a drain evicts, waits for or leaves, as Cluster API's drain filters decide
 * (core/reconcilers/machine/drain/filters.go, kept in step with kubectl drain's): the first filter
 * that skips a Pod or asks to wait for it decides; otherwise the last one does, with the warnings
 * of the others gathered.
 *
 * 1. A Pod terminating for longer than `skipWaitForDeleteTimeoutSeconds` (set when the Node is
 *    unreachable) is skipped.
 * 2. A running DaemonSet Pod is skipped; one whose DaemonSet is gone is evicted with a warning.
 * 3. A static Pod's mirror is skipped.
 * 4. A running Pod with an emptyDir, and one no controller owns, are evicted with a warning.
 * 5. The Pod's `cluster.x-k8s.io/drain` label: `skip`, or `wait-completed` (the Pod is not evicted,
 *    the drain waits for it to finish).
 * 6. The first MachineDrainRule (by name) whose Pod selectors match: its behavior and order;
 *    none: evicted, order 0. A Pod whose Namespace is not there is an error.
 */
import { ANNOTATION_MIRROR_POD, LABEL_POD_DRAIN } from '../../../../../shared/contracts/object.js';
import type { WorkloadPod } from '../../../../../shared/ports/workload-cluster.js';
import { type DrainRule, ruleAppliesToPod } from './drain-rules.js';

export type DrainBehavior = 'Drain' | 'Skip' | 'WaitCompleted';

export interface PodDrainStatus {
  /** Undefined on an error (errors are reported apart). */
  behavior?: DrainBehavior;
  /** Drain and WaitCompleted Pods go in ascending order; undefined counts as 0. */
  order?: number;
  reason: 'Okay' | 'Skip' | 'WaitCompleted' | 'Warning' | 'Error';
  message?: string;
}

export interface PodToDrain {
  pod: WorkloadPod;
  status: PodDrainStatus;
}

/** What the filters need to know besides the Pods, read before they run. */
export interface DrainFacts {
  now: Date;
  /** 0: wait for terminating Pods however long; N: skip those terminating for more than N seconds. */
  skipWaitForDeleteTimeoutSeconds: number;
  /** `namespace/name` of the DaemonSets that exist. */
  existingDaemonSets: ReadonlySet<string>;
  /** The MachineDrainRules that apply to the Machine, sorted by name. */
  rules: readonly DrainRule[];
  /** Namespace labels by name (needed only when there are rules). */
  namespaces: ReadonlyMap<string, Readonly<Record<string, string>>>;
}

const DAEMON_SET_WARNING = 'ignoring DaemonSet-managed Pod';
const DAEMON_SET_ORPHANED_WARNING = 'evicting orphaned DaemonSet-managed Pod';
const LOCAL_STORAGE_WARNING = 'evicting Pod with local storage';
const UNMANAGED_WARNING = 'evicting Pod that has no controller';

const okay = (order?: number): PodDrainStatus => ({ behavior: 'Drain', reason: 'Okay', ...(order !== undefined ? { order } : {}) });
const skip = (): PodDrainStatus => ({ behavior: 'Skip', reason: 'Skip' });
const waitCompleted = (): PodDrainStatus => ({ behavior: 'WaitCompleted', reason: 'WaitCompleted' });
const warning = (behavior: DrainBehavior, message: string): PodDrainStatus => ({ behavior, reason: 'Warning', message });
const error = (message: string): PodDrainStatus => ({ reason: 'Error', message });

type PodFilter = (pod: WorkloadPod, facts: DrainFacts) => PodDrainStatus;

/** The key of the DaemonSet a Pod's controller names, when it is one (`namespace/name`). */
export function daemonSetOf(pod: WorkloadPod): string | undefined {
  return pod.controller?.kind === 'DaemonSet' ? `${pod.namespace}/${pod.controller.name}` : undefined;
}

export function isFinished(pod: WorkloadPod): boolean {
  return pod.phase === 'Succeeded' || pod.phase === 'Failed';
}

const skipDeletedFilter: PodFilter = (pod, facts) => {
  if (facts.skipWaitForDeleteTimeoutSeconds <= 0 || !pod.deletionTimestamp) return okay();
  const seconds = Math.floor((facts.now.getTime() - Date.parse(pod.deletionTimestamp)) / 1000);
  return seconds > facts.skipWaitForDeleteTimeoutSeconds ? skip() : okay();
};

const daemonSetFilter: PodFilter = (pod, facts) => {
  const daemonSet = daemonSetOf(pod);
  if (!daemonSet || isFinished(pod)) return okay();
  return facts.existingDaemonSets.has(daemonSet) ? warning('Skip', DAEMON_SET_WARNING) : warning('Drain', DAEMON_SET_ORPHANED_WARNING);
};

const mirrorPodFilter: PodFilter = (pod) => (pod.annotations[ANNOTATION_MIRROR_POD] !== undefined ? skip() : okay());

const localStorageFilter: PodFilter = (pod) => (pod.localStorage && !isFinished(pod) ? warning('Drain', LOCAL_STORAGE_WARNING) : okay());

const unreplicatedFilter: PodFilter = (pod) => (isFinished(pod) || pod.controller ? okay() : warning('Drain', UNMANAGED_WARNING));

const drainLabelFilter: PodFilter = (pod) => {
  const value = pod.labels[LABEL_POD_DRAIN]?.toLowerCase();
  if (value === 'skip') return skip();
  if (value?.replace('-', '') === 'waitcompleted') return waitCompleted();
  return okay();
};

const machineDrainRulesFilter: PodFilter = (pod, facts) => {
  if (facts.rules.length === 0) return okay();
  const namespaceLabels = facts.namespaces.get(pod.namespace);
  if (!namespaceLabels) return error('Pod Namespace does not exist');
  const rule = facts.rules.find((r) => ruleAppliesToPod(r, pod.labels, namespaceLabels));
  if (!rule) return okay();
  switch (rule.behavior) {
    case 'Drain':
      return okay(rule.order);
    case 'Skip':
      return skip();
    case 'WaitCompleted':
      return waitCompleted();
    default:
      return error(`MachineDrainRule "${rule.name}" has unknown spec.drain.behavior: "${rule.behavior}"`);
  }
};

const FILTERS: readonly PodFilter[] = [skipDeletedFilter, daemonSetFilter, mirrorPodFilter, localStorageFilter, unreplicatedFilter, drainLabelFilter, machineDrainRulesFilter];

function statusOf(pod: WorkloadPod, facts: DrainFacts): PodDrainStatus {
  let status: PodDrainStatus = okay();
  const warnings: string[] = [];
  for (const filter of FILTERS) {
    status = filter(pod, facts);
    if (status.behavior === 'Skip' || status.behavior === 'WaitCompleted') return status;
    if (status.reason === 'Warning' && status.message) warnings.push(status.message);
  }
  if (status.behavior === 'Drain' && warnings.length > 0) return { ...status, reason: 'Warning', message: warnings.join(', ') };
  return status;
}

/** Every Pod with what the drain does with it, and the errors that stop the drain (Pods it cannot judge). */
export function filterPods(pods: readonly WorkloadPod[], facts: DrainFacts): { items: PodToDrain[]; errors: string[] } {
  const items = pods.map((pod) => ({ pod, status: statusOf(pod, facts) }));
  const failed = new Map<string, string[]>();
  for (const { pod, status } of items) {
    if (status.reason !== 'Error') continue;
    const message = status.message || 'unexpected error';
    failed.set(message, [...(failed.get(message) ?? []), `${pod.namespace}/${pod.name}`]);
  }
  const errors = [...failed].map(([message, names]) => `Pods with error ${JSON.stringify(message)}: ${names.join(', ')}`);
  return { items, errors };
}
