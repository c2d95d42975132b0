/**
 * KCP remediation, level-triggered (C14 `remediation.go`): with no remediation in progress, the
 * preflight picks one marked Machine; KCP records `remediation-in-progress` on itself, then deletes
 * the Machine. While the Machine is still there the annotation holds scaling back; once it is gone
 * the scale-up creates its replacement, which carries the record as `remediation-for` (retries are
 * counted from it), and the annotation goes. A run that crashed between the steps finds the
 * annotation and finishes them.
 */

import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { numberAt } from '../../../../shared/contracts/json.js';
import { isDeleting, keyOf, type StoredObject } from '../../../../shared/contracts/object.js';
import { isNotFound } from '../../../../shared/errors/index.js';
import { timestamp } from '../../../../shared/ports/clock.js';
import { updateFresh } from '../../engine/references/update-fresh.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { CONDITION_NODE_HEALTHY } from '../../core/machine/ready-summary.js';
import { CONDITION_HEALTH_CHECK_SUCCEEDED, CONDITION_OWNER_REMEDIATED } from '../../core/machinehealthcheck/well-known.js';
import { forwardEtcdLeadership } from './etcd-leadership.js';
import { remediationQuorumRisk } from './etcd-quorum.js';
import { ANNOTATION_REMEDIATION_IN_PROGRESS, type RemediationInProgress, remediationInProgress } from './annotations.js';
import { DEFAULT_MIN_HEALTHY_PERIOD_SECONDS, planRemediation, type RemediationCandidate, type RemediationPolicy } from './remediation-preflight.js';
import type { KcpScope } from './scope.js';

/** On a replacement Machine: the remediation it replaced (C14 `RemediationForAnnotation`). */
export const ANNOTATION_REMEDIATION_FOR = 'controlplane.cluster.x-k8s.io/remediation-for';

function remediationFor(machine: StoredObject): RemediationInProgress | undefined {
  const raw = machine.metadata.annotations?.[ANNOTATION_REMEDIATION_FOR];
  return raw === undefined ? undefined : remediationInProgress({ ...machine, metadata: { ...machine.metadata, annotations: { [ANNOTATION_REMEDIATION_IN_PROGRESS]: raw } } });
}

function candidates(scope: KcpScope): RemediationCandidate[] {
  return scope.machines.map((machine, i) => {
    const facts = scope.facts[i];
    const conditions = conditionsOf(machine.status);
    const checkFailed = findCondition(conditions, CONDITION_HEALTH_CHECK_SUCCEEDED)?.status === 'False';
    // The member's Node as the Machine last saw it: an etcd member on a Node that is not ready is
    // not healthy, whether or not a health check has marked its Machine yet (Cluster API reads
    // etcd's own health; the health checks mark Machines one at a time).
    const nodeUnhealthy = findCondition(conditions, CONDITION_NODE_HEALTHY)?.status === 'False';
    return {
      name: machine.metadata.name,
      creationTimestamp: machine.metadata.creationTimestamp,
      marked: findCondition(conditions, CONDITION_OWNER_REMEDIATED)?.status === 'False',
      healthyMember: (facts?.ready ?? false) && !checkFailed && !nodeUnhealthy,
      deleting: isDeleting(machine),
      upToDate: facts?.upToDate ?? true,
      remediationFor: remediationFor(machine),
    };
  });
}

function policyOf(scope: KcpScope): RemediationPolicy {
  const maxRetry = numberAt(scope.object, 'spec', 'remediation', 'maxRetry');
  return {
    ...(maxRetry !== undefined ? { maxRetry } : {}),
    retryPeriodSeconds: numberAt(scope.object, 'spec', 'remediation', 'retryPeriodSeconds') ?? 0,
    minHealthyPeriodSeconds: numberAt(scope.object, 'spec', 'remediation', 'minHealthyPeriodSeconds') ?? DEFAULT_MIN_HEALTHY_PERIOD_SECONDS,
  };
}

/** Deletes the Machine, etcd's leadership moved off it first (Cluster API does so before remediating). */
async function deleteMachine(scope: KcpScope, machine: StoredObject): Promise<void> {
  await forwardEtcdLeadership(scope, machine);
  try {
    await scope.ctx.store.delete(keyOf(machine));
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

export async function remediateControlPlane(scope: KcpScope): Promise<PhaseResult | undefined> {
  if (!scope.cluster || !scope.initialized) return undefined;
  const inProgress = remediationInProgress(scope.object);
  if (inProgress) {
    const target = scope.machines.find((m) => m.metadata.name === inProgress.machine);
    if (target && !isDeleting(target)) await deleteMachine(scope, target);
    // Gone, and no replacement is due (replicas were lowered meanwhile): nothing left to finish.
    const live = scope.machines.filter((m) => !isDeleting(m)).length;
    if (!target && live >= scope.spec.replicas) await finishRemediation(scope);
    return undefined;
  }
  const decision = planRemediation(candidates(scope), scope.spec.replicas, policyOf(scope), scope.ctx.clock.now());
  if (decision.type === 'none') return undefined;
  if (decision.type === 'blocked') {
    scope.remediationBlocked = decision.message;
    return undefined;
  }
  // The Machines' health said etcd keeps its quorum; etcd itself is asked too (targetEtcdClusterHealthy).
  const chosen = scope.machines.find((m) => m.metadata.name === decision.machine);
  const quorumRisk = chosen && (await remediationQuorumRisk(scope, chosen));
  if (quorumRisk) {
    scope.remediationBlocked = quorumRisk;
    return undefined;
  }
  const record = JSON.stringify({ machine: decision.machine, timestamp: timestamp(scope.ctx.clock), retryCount: decision.retryCount });
  const written = await updateFresh(scope.ctx.store, scope.object, (current) =>
    remediationInProgress(current)
      ? undefined
      : { ...current, metadata: { ...current.metadata, annotations: { ...current.metadata.annotations, [ANNOTATION_REMEDIATION_IN_PROGRESS]: record } } },
  );
  if (!written) return { stop: true };
  scope.object = written;
  const victim = scope.machines.find((m) => m.metadata.name === remediationInProgress(written)?.machine);
  if (victim) await deleteMachine(scope, victim);
  return undefined;
}

/** The annotation a replacement Machine carries, while a remediation waits for one. */
export function replacementAnnotations(scope: KcpScope): Record<string, string> {
  const raw = scope.object.metadata.annotations?.[ANNOTATION_REMEDIATION_IN_PROGRESS];
  const inProgress = remediationInProgress(scope.object);
  if (raw === undefined || !inProgress) return {};
  return scope.machines.some((m) => m.metadata.name === inProgress.machine) ? {} : { [ANNOTATION_REMEDIATION_FOR]: raw };
}

/** Once the replacement exists, the remediation is over: the annotation goes. */
export async function finishRemediation(scope: KcpScope): Promise<void> {
  const written = await updateFresh(scope.ctx.store, scope.object, (current) => {
    const annotations = current.metadata.annotations ?? {};
    if (!(ANNOTATION_REMEDIATION_IN_PROGRESS in annotations)) return undefined;
    const { [ANNOTATION_REMEDIATION_IN_PROGRESS]: _done, ...rest } = annotations;
    return { ...current, metadata: { ...current.metadata, annotations: rest } };
  });
  if (written) scope.object = written;
}
