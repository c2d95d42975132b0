/**
 * Whether KCP may remediate a control-plane Machine now (C14 `controlplane/kubeadm/internal/
 * controllers/remediation.go`), pure: one Machine at a time, never during a rollout or while a
 * Machine is being deleted, never when etcd would lose quorum, within `remediation.maxRetry`,
 * `retryPeriodSeconds` and `minHealthyPeriodSeconds`.
 */

import type { RemediationInProgress } from './annotations.js';

export interface RemediationCandidate {
  name: string;
  creationTimestamp: string;
  /** Marked by a MachineHealthCheck (OwnerRemediated=False). */
  marked: boolean;
  /** Counts as a healthy etcd member: its Node joined and no health check failed. */
  healthyMember: boolean;
  deleting: boolean;
  upToDate: boolean;
  /** The remediation this Machine replaced (`controlplane.cluster.x-k8s.io/remediation-for`). */
  remediationFor?: RemediationInProgress | undefined;
}

export interface RemediationPolicy {
  /** Unset: retry without limit. */
  maxRetry?: number | undefined;
  retryPeriodSeconds: number;
  minHealthyPeriodSeconds: number;
}

export type RemediationDecision =
  | { type: 'none' }
  | { type: 'remediate'; machine: string; retryCount: number }
  | { type: 'blocked'; reason: RemediationBlockReason; machine: string; message: string };

export type RemediationBlockReason =
  | 'TooFewReplicas'
  | 'RolloutInProgress'
  | 'MachineDeleting'
  | 'EtcdQuorumAtRisk'
  | 'MaxRetryReached'
  | 'RetryPeriodNotElapsed';

/** KCP's defaults (C14 `api/controlplane/kubeadm/v1beta2`): retry at once, a Machine healthy for 1 h starts a new count. */
export const DEFAULT_MIN_HEALTHY_PERIOD_SECONDS = 3600;

/**
 * etcd keeps quorum if, with `victim` gone, the healthy members still form a majority of the
 * members left (canSafelyRemoveEtcdMember): 3 members with 1 unhealthy may lose it; with 2 not.
 */
export function quorumSurvives(members: readonly RemediationCandidate[], victim: string): boolean {
  const remaining = members.filter((m) => m.name !== victim && !m.deleting);
  const quorum = Math.floor(remaining.length / 2) + 1;
  return remaining.filter((m) => m.healthyMember).length >= quorum;
}

/** The Machine to remediate first: the oldest marked one (deterministic). */
function pickVictim(machines: readonly RemediationCandidate[]): RemediationCandidate | undefined {
  return machines
    .filter((m) => m.marked && !m.deleting)
    .sort((a, b) => a.creationTimestamp.localeCompare(b.creationTimestamp) || a.name.localeCompare(b.name))[0];
}

function blocked(reason: RemediationBlockReason, machine: string, message: string): RemediationDecision {
  return { type: 'blocked', reason, machine, message };
}

function retryCountFor(victim: RemediationCandidate, policy: RemediationPolicy, now: Date): RemediationDecision {
  const last = victim.remediationFor;
  const lastAt = last?.timestamp ? Date.parse(last.timestamp) : Number.NaN;
  if (!last || Number.isNaN(lastAt)) return { type: 'remediate', machine: victim.name, retryCount: 0 };
  const elapsed = (now.getTime() - lastAt) / 1000;
  // Healthy for longer than minHealthyPeriod since the last remediation: a new problem, a new count.
  if (elapsed > policy.minHealthyPeriodSeconds) return { type: 'remediate', machine: victim.name, retryCount: 0 };
  const previous = last.retryCount ?? 0;
  if (policy.maxRetry !== undefined && previous >= policy.maxRetry) {
    return blocked('MaxRetryReached', victim.name, `KCP can't remediate this machine because the operation already failed ${previous} times (MaxRetry ${policy.maxRetry})`);
  }
  if (elapsed < policy.retryPeriodSeconds) {
    return blocked('RetryPeriodNotElapsed', victim.name, `KCP can't remediate this machine because the operation already failed in the latest ${policy.retryPeriodSeconds}s (RetryPeriod)`);
  }
  return { type: 'remediate', machine: victim.name, retryCount: previous + 1 };
}

export function planRemediation(machines: readonly RemediationCandidate[], replicas: number, policy: RemediationPolicy, now: Date): RemediationDecision {
  const victim = pickVictim(machines);
  if (!victim) return { type: 'none' };
  const live = machines.filter((m) => !m.deleting);
  if (replicas <= 1 || live.length <= 1) {
    return blocked('TooFewReplicas', victim.name, `KCP can't remediate if current replicas are less or equal to 1`);
  }
  if (live.some((m) => !m.upToDate)) return blocked('RolloutInProgress', victim.name, 'KCP waiting for rollout to complete before triggering remediation');
  const deleting = machines.filter((m) => m.deleting).map((m) => m.name);
  if (deleting.length > 0) {
    return blocked('MachineDeleting', victim.name, `KCP waiting for control plane machine deletion to complete before triggering remediation (${deleting.join(', ')})`);
  }
  if (!quorumSurvives(machines, victim.name)) {
    const healthy = live.filter((m) => m.healthyMember).length;
    return blocked(
      'EtcdQuorumAtRisk',
      victim.name,
      `KCP can't remediate this machine because this could result in etcd losing quorum (${healthy} of ${live.length} members healthy)`,
    );
  }
  return retryCountFor(victim, policy, now);
}
