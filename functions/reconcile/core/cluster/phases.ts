/**
 * Cluster phases (capi-contract.md §3.1): label → topology → infrastructure → control plane →
 * descendants → summary. What they change on the Cluster itself (`desired`) the skeleton writes
 * with its status, in one write.
 */

import { listClusterMembers, MACHINE, MACHINE_DEPLOYMENT, MACHINE_SET } from '../../engine/references/cluster-members.js';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { stringAt } from '../../../../shared/contracts/json.js';
import { LABEL_CLUSTER_NAME } from '../../../../shared/contracts/object.js';
import { controlPlaneContract } from '../../../../shared/contracts/providers/control-plane.js';
import { readEndpoint } from '../../../../shared/contracts/providers/fields.js';
import { infraClusterContract } from '../../../../shared/contracts/providers/infra-cluster.js';
import { mirrorReadyCondition } from '../../../../shared/contracts/providers/ready-condition.js';
import { describeReference, readReference } from '../../engine/references/object-reference.js';
import { ensureOwnership } from '../../engine/references/ownership.js';
import { resolveReference, unresolvedCondition } from '../../engine/references/resolve-reference.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { controlPlaneMachineCounters, workerCounters } from './counters.js';
import type { ClusterScope } from './scope.js';
import { clusterSummaryConditions } from './status.js';

/** Label the Cluster with its own name so `clusterLabel` watches (Machine, MachineSet, …) reach it. */
export function labelClusterPhase(s: ClusterScope): PhaseResult {
  const meta = s.desired.metadata;
  meta.labels = { ...meta.labels, [LABEL_CLUSTER_NAME]: meta.name };
  return {};
}

export async function reconcileInfrastructurePhase(s: ClusterScope): Promise<PhaseResult> {
  const ref = readReference(s.object, 'spec', 'infrastructureRef');
  if (!ref) {
    s.infrastructureProvisioned = true;
    s.conditions.push({ type: 'InfrastructureReady', status: 'True', reason: 'NoInfrastructureRef' });
    return {};
  }
  const resolved = await resolveReference(s.ctx.store, s.lookup, ref, s.object.metadata.namespace);
  const waiting = unresolvedCondition('InfrastructureReady', 'InfrastructureDoesNotExist', resolved);
  if (waiting || resolved.state !== 'Found') {
    if (waiting) s.conditions.push(waiting.condition);
    return waiting?.result ?? {};
  }
  const infra = await ensureOwnership(s.ctx.store, resolved.object, { owner: s.object, controller: true, clusterName: s.object.metadata.name });
  const provisioned = infraClusterContract.provisioned(infra, resolved.contractVersion);
  s.infrastructureProvisioned = s.infrastructureProvisioned || provisioned; // never reverts, as in Cluster API
  s.conditions.push(
    mirrorReadyCondition(infra, 'InfrastructureReady', {
      done: provisioned,
      reason: 'NotProvisioned',
      message: `${describeReference(ref)} ${ref.name} is not provisioned yet`,
    }),
  );
  if (!provisioned) return {};
  s.failureDomains = infraClusterContract.failureDomains(infra);
  const endpoint = infraClusterContract.controlPlaneEndpoint(infra);
  if (endpoint && !readEndpoint(s.desired.spec?.controlPlaneEndpoint)) {
    s.desired.spec = { ...s.desired.spec, controlPlaneEndpoint: endpoint };
  }
  return {};
}

export async function reconcileControlPlanePhase(s: ClusterScope): Promise<PhaseResult> {
  const ref = readReference(s.object, 'spec', 'controlPlaneRef');
  if (!ref) return {};
  const resolved = await resolveReference(s.ctx.store, s.lookup, ref, s.object.metadata.namespace);
  const waiting = unresolvedCondition('ControlPlaneInitialized', 'ControlPlaneDoesNotExist', resolved);
  if (waiting || resolved.state !== 'Found') {
    if (waiting) s.conditions.push(waiting.condition, { ...waiting.condition, type: 'ControlPlaneAvailable' });
    return waiting?.result ?? {};
  }
  const cp = await ensureOwnership(s.ctx.store, resolved.object, { owner: s.object, controller: true, clusterName: s.object.metadata.name });
  const v = resolved.contractVersion;
  s.controlPlaneInitialized = s.controlPlaneInitialized || controlPlaneContract.initialized(cp, v);
  const counters = controlPlaneContract.replicas(cp, v);
  s.controlPlane = {
    desiredReplicas: counters.desiredReplicas ?? 0,
    replicas: counters.replicas ?? 0,
    readyReplicas: counters.readyReplicas ?? 0,
    availableReplicas: counters.availableReplicas ?? 0,
    upToDateReplicas: counters.upToDateReplicas ?? 0,
  };
  s.conditions.push(
    s.controlPlaneInitialized
      ? { type: 'ControlPlaneInitialized', status: 'True', reason: 'Initialized' }
      : { type: 'ControlPlaneInitialized', status: 'False', reason: 'WaitingForControlPlaneInitialized', message: `${describeReference(ref)} ${ref.name} is not initialized yet` },
  );
  const available = findCondition(conditionsOf(cp.status), 'Available');
  s.conditions.push(
    available
      ? { type: 'ControlPlaneAvailable', status: available.status, reason: available.reason, ...(available.message ? { message: available.message } : {}) }
      : s.controlPlaneInitialized && s.controlPlane.availableReplicas > 0
        ? { type: 'ControlPlaneAvailable', status: 'True', reason: 'Available' }
        : { type: 'ControlPlaneAvailable', status: 'False', reason: 'NotAvailable', message: 'no control plane replica is available' },
  );
  return {};
}

/** Machines, MachineSets and MachineDeployments: worker counters, and without a controlPlaneRef the control plane from its Machines. */
export async function reconcileDescendantsPhase(s: ClusterScope): Promise<PhaseResult> {
  s.descendants = await listClusterMembers(s.ctx.store, s.object.metadata.namespace, s.object.metadata.name, [MACHINE, MACHINE_SET, MACHINE_DEPLOYMENT]);
  s.workers = workerCounters(s.descendants);
  if (readReference(s.object, 'spec', 'controlPlaneRef')) return {};
  const cp = controlPlaneMachineCounters(s.descendants);
  s.controlPlane = cp;
  const withNode = s.descendants.some((o) => o.kind === 'Machine' && stringAt(o, 'status', 'nodeRef', 'name'));
  s.controlPlaneInitialized = s.controlPlaneInitialized || (cp.replicas > 0 && withNode);
  s.conditions.push(
    s.controlPlaneInitialized
      ? { type: 'ControlPlaneInitialized', status: 'True', reason: 'Initialized' }
      : { type: 'ControlPlaneInitialized', status: 'False', reason: 'WaitingForControlPlaneMachine', message: 'no control plane Machine has a node yet' },
    cp.availableReplicas > 0
      ? { type: 'ControlPlaneAvailable', status: 'True', reason: 'Available' }
      : { type: 'ControlPlaneAvailable', status: 'False', reason: 'NotAvailable', message: 'no control plane Machine is available' },
  );
  return {};
}

export function summarizeClusterPhase(s: ClusterScope): PhaseResult {
  s.conditions.push(...clusterSummaryConditions(s.conditions, s.workers));
  return {};
}
