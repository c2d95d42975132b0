/**
 * Machine phases (capi-contract.md §3.2): cluster → bootstrap → infrastructure → node → summary.
 * What they change on the Machine itself (`desired`) the skeleton writes with its status, in one write.
 */

import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { booleanAt, numberAt, recordAt, stringAt } from '../../../../shared/contracts/json.js';
import { isDeleting, LABEL_CLUSTER_NAME, ownerReferenceTo } from '../../../../shared/contracts/object.js';
import { bootstrapConfigContract } from '../../../../shared/contracts/providers/bootstrap-config.js';
import { infraMachineContract } from '../../../../shared/contracts/providers/infra-machine.js';
import { mirrorReadyCondition } from '../../../../shared/contracts/providers/ready-condition.js';
import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import { describeReference, readReference } from '../../engine/references/object-reference.js';
import { REFERENCE_MISSING_REQUEUE_SECONDS } from '../../engine/references/resolve-reference.js';
import { ensureOwnership } from '../../engine/references/ownership.js';
import { type ResolvedReference, resolveReference, unresolvedCondition } from '../../engine/references/resolve-reference.js';
import {
  isWorkloadClusterError,
  type WorkloadClusterRef,
  type WorkloadNode,
  WorkloadClusterConflictError,
  WorkloadClusterUnavailableError,
} from '../../../../shared/ports/workload-cluster.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import type { MachineScope } from './scope.js';
import { nodePatchFor } from './node-sync.js';
import { isOfOutdatedRevision } from './outdated-revision.js';
import { machineSummaryConditions } from './status.js';
import { isMachineReadyInput, readinessGatesOf } from './ready-summary.js';

export const PROVIDER_ID_REQUEUE_SECONDS = 5;
export const NODE_REQUEUE_SECONDS = 10;
/** A Node patch refused because the Node changed meanwhile: read it again soon. */
export const NODE_CONFLICT_REQUEUE_SECONDS = 1;
/** Credentials the workload cluster refuses do not fix themselves; look again now and then (a rotated kubeconfig Secret also wakes nobody). */
export const WORKLOAD_ACCESS_DENIED_REQUEUE_SECONDS = 300;

function clusterNameOf(s: MachineScope): string {
  return stringAt(s.object, 'spec', 'clusterName') ?? '';
}

/** Cluster-name label always; a (non-controller) ownerRef to the Cluster for standalone Machines. */
export async function reconcileClusterPhase(s: MachineScope): Promise<PhaseResult> {
  const clusterName = clusterNameOf(s);
  const meta = s.desired.metadata;
  meta.labels = { ...meta.labels, [LABEL_CLUSTER_NAME]: clusterName };
  const cluster = await s.ctx.store.get({ group: CORE_GROUP, kind: 'Cluster', namespace: meta.namespace, name: clusterName });
  if (!cluster) return { requeueAfterSeconds: REFERENCE_MISSING_REQUEUE_SECONDS };
  s.cluster = cluster;
  if ((meta.ownerReferences ?? []).length === 0) meta.ownerReferences = [ownerReferenceTo(cluster, false)];
  return {};
}

export async function reconcileBootstrapPhase(s: MachineScope): Promise<PhaseResult> {
  const ref = readReference(s.object, 'spec', 'bootstrap', 'configRef');
  const presetSecret = stringAt(s.object, 'spec', 'bootstrap', 'dataSecretName');
  if (!ref) {
    s.bootstrapDataSecretCreated = Boolean(presetSecret);
    s.conditions.push(
      presetSecret
        ? { type: 'BootstrapConfigReady', status: 'True', reason: 'DataSecretProvided' }
        : { type: 'BootstrapConfigReady', status: 'False', reason: 'NoBootstrapSource', message: 'spec.bootstrap has neither configRef nor dataSecretName' },
    );
    return {};
  }
  const resolved = await resolveReference(s.ctx.store, s.lookup, ref, s.object.metadata.namespace);
  const waiting = unresolvedCondition('BootstrapConfigReady', 'BootstrapConfigDoesNotExist', resolved);
  if (waiting || resolved.state !== 'Found') {
    s.bootstrapDataSecretCreated = Boolean(presetSecret);
    if (waiting) s.conditions.push(waiting.condition);
    return waiting?.result ?? {};
  }
  const config = await ensureOwnership(s.ctx.store, resolved.object, { owner: s.object, controller: true, clusterName: clusterNameOf(s) });
  s.bootstrapConfig = config;
  const created = bootstrapConfigContract.dataSecretCreated(config, resolved.contractVersion);
  const secretName = bootstrapConfigContract.dataSecretName(config);
  if (created && secretName) {
    const bootstrap = recordAt(s.desired, 'spec', 'bootstrap') ?? {};
    s.desired.spec = { ...s.desired.spec, bootstrap: { ...bootstrap, dataSecretName: secretName } };
  }
  s.bootstrapDataSecretCreated = Boolean(presetSecret) || (created && Boolean(secretName));
  s.conditions.push(
    mirrorReadyCondition(config, 'BootstrapConfigReady', {
      done: s.bootstrapDataSecretCreated,
      reason: 'DataSecretNotCreated',
      message: `${describeReference(ref)} ${ref.name} has not created the bootstrap data secret yet`,
    }),
  );
  return {};
}

function infraMissing(s: MachineScope, resolved: ResolvedReference): PhaseResult | undefined {
  if (resolved.state === 'Missing' && s.infrastructureProvisioned) {
    s.conditions.push({ type: 'InfrastructureReady', status: 'False', reason: 'InfrastructureDeleted', message: `${resolved.message} after it was provisioned` });
    return {};
  }
  const waiting = unresolvedCondition('InfrastructureReady', 'InfrastructureDoesNotExist', resolved);
  if (!waiting) return undefined;
  s.conditions.push(waiting.condition);
  return waiting.result;
}

export async function reconcileInfrastructurePhase(s: MachineScope): Promise<PhaseResult> {
  const ref = readReference(s.object, 'spec', 'infrastructureRef');
  if (!ref) {
    s.conditions.push({ type: 'InfrastructureReady', status: 'False', reason: 'NoInfrastructureRef', message: 'spec.infrastructureRef is not set' });
    return {};
  }
  const resolved = await resolveReference(s.ctx.store, s.lookup, ref, s.object.metadata.namespace);
  const unresolved = infraMissing(s, resolved);
  if (unresolved || resolved.state !== 'Found') return unresolved ?? {};
  const infra = await ensureOwnership(s.ctx.store, resolved.object, { owner: s.object, controller: true, clusterName: clusterNameOf(s) });
  const provisioned = infraMachineContract.provisioned(infra, resolved.contractVersion);
  const providerID = infraMachineContract.providerID(infra);
  const condition = mirrorReadyCondition(infra, 'InfrastructureReady', {
    done: provisioned,
    reason: 'NotProvisioned',
    message: `${describeReference(ref)} ${ref.name} is not provisioned yet`,
  });
  if (provisioned && !providerID) {
    s.conditions.push({ type: 'InfrastructureReady', status: 'False', reason: 'WaitingForProviderID', message: `${describeReference(ref)} ${ref.name} is provisioned but has no spec.providerID` });
    return { requeueAfterSeconds: PROVIDER_ID_REQUEUE_SECONDS };
  }
  s.conditions.push(condition);
  // Sticky, as in CAPI: once provisioned, the Machine keeps saying so.
  s.infrastructureProvisioned = s.infrastructureProvisioned || provisioned;
  if (!provisioned || !providerID) return {};
  s.desired.spec = { ...s.desired.spec, providerID };
  s.addresses = infraMachineContract.addresses(infra);
  s.interruptible = booleanAt(infra, 'status', 'interruptible') === true;
  const fd = infraMachineContract.failureDomain(infra, resolved.contractVersion) ?? stringAt(s.object, 'spec', 'failureDomain');
  if (fd) s.failureDomain = fd;
  return {};
}

/** The Machine's labels, annotations and taints onto its Node (node-sync.ts), unless it is being deleted. */
async function syncNode(s: MachineScope, ref: WorkloadClusterRef, node: WorkloadNode): Promise<void> {
  if (isDeleting(s.object)) return;
  const outdated = await isOfOutdatedRevision(s.ctx.store, s.object);
  const patch = nodePatchFor(s.object, node, { interruptible: s.interruptible === true, outdated });
  if (patch) await s.workloadCluster.patchNode(ref, node.name, patch);
}

export async function reconcileNodePhase(s: MachineScope): Promise<PhaseResult> {
  const providerID = stringAt(s.desired, 'spec', 'providerID');
  if (!s.cluster) {
    s.conditions.push({ type: 'NodeHealthy', status: 'Unknown', reason: 'ClusterDoesNotExist', message: `Cluster ${clusterNameOf(s)} does not exist` });
    return {};
  }
  if (!providerID) {
    s.conditions.push({ type: 'NodeHealthy', status: 'Unknown', reason: 'WaitingForProviderID', message: 'the Machine has no providerID yet' });
    return {};
  }
  let node: WorkloadNode | undefined;
  const ref: WorkloadClusterRef = { namespace: s.object.metadata.namespace, name: clusterNameOf(s) };
  try {
    node = await s.workloadCluster.findNodeByProviderID(ref, providerID);
    if (node) await syncNode(s, ref, node);
  } catch (error) {
    // Someone changed the Node since it was read: the next run reads it again.
    if (error instanceof WorkloadClusterConflictError) return { requeueAfterSeconds: NODE_CONFLICT_REQUEUE_SECONDS };
    if (!isWorkloadClusterError(error)) throw error;
    // Cluster API's reasons: the connection is not there (yet), or the cluster refused to answer. The last Node seen stays.
    const down = error instanceof WorkloadClusterUnavailableError;
    s.conditions.push({ type: 'NodeHealthy', status: 'Unknown', reason: down ? 'ConnectionDown' : 'InspectionFailed', message: error.message });
    return { requeueAfterSeconds: down ? NODE_REQUEUE_SECONDS : WORKLOAD_ACCESS_DENIED_REQUEUE_SECONDS };
  }
  if (!node) {
    delete s.node;
    s.conditions.push({ type: 'NodeHealthy', status: 'False', reason: 'NodeDoesNotExist', message: `no node has providerID ${providerID} yet` });
    return { requeueAfterSeconds: NODE_REQUEUE_SECONDS };
  }
  s.node = node;
  s.conditions.push(
    node.ready
      ? { type: 'NodeHealthy', status: 'True', reason: 'NodeHealthy' }
      : { type: 'NodeHealthy', status: 'False', reason: 'NodeNotReady', message: `node ${node.name} is not ready` },
  );
  return {};
}

export function summarizeMachinePhase(s: MachineScope): PhaseResult {
  const previousReady = findCondition(conditionsOf(s.object.status), 'Ready');
  const stored = conditionsOf(s.object.status);
  const learned = (type: string) => [...s.conditions].reverse().find((c) => c.type === type);
  // The Machine's own inputs come from this run only; others' (a health check's, a gate's) as stored.
  const lookup = (type: string) => learned(type) ?? (isMachineReadyInput(type) ? undefined : findCondition(stored, type));
  const summary = machineSummaryConditions(lookup, readinessGatesOf(s.object), {
    minReadySeconds: numberAt(s.object, 'spec', 'minReadySeconds') ?? 0,
    ...(previousReady?.status === 'True' ? { readySince: previousReady.lastTransitionTime } : {}),
    now: s.ctx.clock.now(),
  });
  s.conditions.push(...summary.conditions);
  return summary.requeueAfterSeconds ? { requeueAfterSeconds: summary.requeueAfterSeconds } : {};
}
