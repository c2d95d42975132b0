/**
 * MachineHealthCheck (C14 `internal/controllers/machinehealthcheck`): evaluates its Machines,
 * marks unhealthy ones for their owner to remediate unless too many are unhealthy, and checks
 * again when the soonest timeout expires (a requeue, not a timer in a process).
 */

import type { StoredObject } from '../../../../shared/contracts/object.js';
import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import { machineHealthCheckSchema } from '../../../../shared/contracts/schemas/core/machine-health-check.js';
import { timestamp } from '../../../../shared/ports/clock.js';
import { workloadClusterOf } from '../../engine/providers/workload-cluster-port.js';
import { EVERY_CONDITION_STATUS } from '../../engine/skeleton/watch-fields.js';
import { ensureClusterNameLabel } from '../../engine/references/cluster-name-label.js';
import { clusterOwnershipPhase } from '../../engine/references/cluster-owner.js';
import type { PhaseResult, ReconcileContext, ReconcilerDefinition, StatusUpdate } from '../../engine/skeleton/types.js';
import { evaluateTarget } from './health-rules.js';
import { requestRemediation, templateRefOf, withdrawRemediation } from './external-remediation.js';
import { markMachine, type RemediationMode } from './mark-machines.js';
import { remediationAllowed } from './remediation-allowed.js';
import { createMachineHealthCheckScope, type MachineHealthCheckScope } from './scope.js';
import { CONDITION_HEALTH_CHECK_SUCCEEDED } from './well-known.js';
import { healthChecksOf, targetFacts, targetMachines } from './targets.js';

export async function evaluateTargetsPhase(s: MachineHealthCheckScope): Promise<PhaseResult> {
  if (!s.mhc) {
    s.conditions.push({ type: 'RemediationAllowed', status: 'False', reason: 'InvalidSpec', message: 'the MachineHealthCheck does not match its schema' });
    return { stop: true };
  }
  const namespace = s.object.metadata.namespace;
  const cluster = await s.ctx.store.get({ group: CORE_GROUP, kind: 'Cluster', namespace, name: s.mhc.spec.clusterName });
  const workload = workloadClusterOf(s.ctx);
  const checks = healthChecksOf(s.mhc);
  const now = s.ctx.clock.now();
  for (const machine of await targetMachines(s.ctx.store, s.mhc, namespace)) {
    s.targets.push({ machine, verdict: evaluateTarget(await targetFacts(machine, cluster, workload), checks, now) });
  }
  return {};
}

export async function markMachinesPhase(s: MachineHealthCheckScope): Promise<PhaseResult> {
  const unhealthy = s.targets.filter((t) => !t.verdict.healthy).length;
  const decision = remediationAllowed(s.mhc?.spec.remediation?.triggerIf, s.targets.length, unhealthy);
  s.decision = decision;
  s.conditions.push(
    decision.allowed
      ? { type: 'RemediationAllowed', status: 'True', reason: 'RemediationAllowed' }
      : { type: 'RemediationAllowed', status: 'False', reason: 'TooManyUnhealthy', message: decision.message },
  );
  const now = timestamp(s.ctx.clock);
  const template = templateRefOf(s.object);
  let next: number | undefined;
  for (const target of s.targets) {
    let mode: RemediationMode = { by: 'owner' };
    if (template && target.verdict.healthy) await withdrawRemediation(s.ctx.store, template, target.machine);
    if (template && !target.verdict.healthy && decision.allowed) mode = await requestRemediation(s.ctx.store, template, target.machine);
    await markMachine(s.ctx.store, target.machine, target.verdict, decision.allowed, now, mode);
    if (target.verdict.healthy && target.verdict.nextCheckSeconds !== undefined) {
      next = Math.min(next ?? Number.POSITIVE_INFINITY, target.verdict.nextCheckSeconds);
    }
  }
  return next === undefined ? {} : { requeueAfterSeconds: next };
}

function computeStatus(s: MachineHealthCheckScope): StatusUpdate {
  if (!s.mhc) return { fields: {} };
  return {
    fields: {
      expectedMachines: s.targets.length,
      currentHealthy: s.targets.filter((t) => t.verdict.healthy).length,
      remediationsAllowed: s.decision?.remediationsAllowed ?? 0,
      targets: s.targets.map((t) => t.machine.metadata.name).sort(),
    },
  };
}

/** Cluster API's MachineHealthCheck controller makes its Cluster the owner. */
const ownedByCluster = clusterOwnershipPhase({ ownsSelf: () => true, templates: () => [] });

export const machineHealthCheckReconciler: ReconcilerDefinition<MachineHealthCheckScope> = {
  kind: { group: CORE_GROUP, kind: 'MachineHealthCheck' },
  fillsOwnClusterOwner: true,
  // Machines of the same cluster, when what the rules read changes (a Node's health reaches the
  // Machine as its NodeHealthy condition). The rules read a condition's status and how long it
  // has held it, never its reason or message: a Machine's many reason-only writes while it comes
  // up do not wake its health checks. markMachinesPhase writes HealthCheckSucceeded on every
  // target it evaluated: until a Machine carries it, only its labels (the selector) can make it
  // a target the health checks have not seen, so a Machine no health check selects wakes none of
  // them and costs no lookup while it comes up (ADR 0145).
  watches: [
    {
      kind: { group: CORE_GROUP, kind: 'Machine' },
      by: 'clusterLabel',
      changes: [EVERY_CONDITION_STATUS, 'status.nodeRef', 'spec.providerID', 'metadata.labels', 'metadata.annotations', 'metadata.deletionTimestamp'],
      marks: { condition: CONDITION_HEALTH_CHECK_SUCCEEDED, unmarkedChanges: ['metadata.labels'] },
    },
  ],
  createScope: (ctx: ReconcileContext, object: StoredObject) => {
    const parsed = machineHealthCheckSchema.safeParse(object);
    return createMachineHealthCheckScope(ctx, object, parsed.success ? parsed.data : undefined);
  },
  phases: [ensureClusterNameLabel, ownedByCluster, evaluateTargetsPhase, markMachinesPhase],
  deletePhases: [],
  computeStatus,
};
