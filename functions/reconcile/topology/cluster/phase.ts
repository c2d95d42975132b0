/**
 * The topology phases of the Cluster reconciler (docs/adr/0050): for a Cluster with
 * `spec.topology`, before the Cluster's own phases, the managed topology is reconciled
 * (Cluster API's topology/cluster controller): blueprint → current state → BeforeClusterCreate →
 * upgrade decision (with its hooks) → desired state → apply (infrastructure cluster, control
 * plane machine template, control plane, Cluster references, MachineDeployments and their
 * templates, health checks) → delete what the topology no longer wants → TopologyReconciled.
 * A failure before anything is written (bad class, a patch that does not render) touches nothing.
 */

import { booleanAt, deepEqual, isRecord } from '../../../../shared/contracts/json.js';
import { groupOf, type KubeObject } from '../../../../shared/contracts/object.js';
import { TopologyReason } from '../../../../shared/contracts/topology/well-known.js';
import { TemplateError } from '../../../../shared/gotemplate/execute.js';
import { extensionCallerFrom } from '../../../../shared/ports/runtime-extensions.js';
import type { ClusterScope } from '../../core/cluster/scope.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { admitGenerated, GeneratedObjectInvalid } from './admit-generated.js';
import { applyObject } from './apply.js';
import { loadBlueprint } from './blueprint.js';
import { deleteIfPresent, deleteUnusedTemplates, deleteUnwantedHealthChecks } from './cleanup.js';
import { type CurrentState, loadCurrentState } from './current-state.js';
import { computeDesiredState, type DesiredState } from './desired-state.js';
import { decideUpgradeWithHooks } from './upgrade-hooks.js';
import { type LifecycleHook, LifecycleHookFailed, lifecycleHooksOf } from './lifecycle-hooks.js';
import { creationBlockedMessage } from '../../runtime/lifecycle/topology-messages.js';
import { TopologyPatchError } from './patches.js';
import { applyClassPatches } from './external-patches.js';
import { pendingHooks, withPendingHook } from './pending-hooks.js';
import { readTopology } from './topology-spec.js';
import { topologyFailedCondition, topologyReconciledCondition } from './topology-condition.js';
import type { UpgradeDecision } from './upgrade.js';
import { PatchError } from './json-patch.js';

export const TOPOLOGY_FAILED_REQUEUE_SECONDS = 60;
/** A hook that answered Failure is asked again after this long (its pending marks stay). */
export const HOOK_FAILED_REQUEUE_SECONDS = 10;

const contractRef = (o: KubeObject) => ({ apiGroup: groupOf(o.apiVersion), kind: o.kind, name: o.metadata.name });

function describeFailure(error: unknown): string | undefined {
  if (error instanceof TopologyPatchError || error instanceof TemplateError || error instanceof GeneratedObjectInvalid || error instanceof PatchError) return error.message;
  return undefined;
}

/** Writes the Cluster as `s.desired` has it now (refs, pending hooks) before anything depends on it. */
async function persistCluster(s: ClusterScope): Promise<void> {
  const { status: _d, ...desired } = s.desired;
  const { status: _c, ...current } = s.object;
  if (deepEqual(desired, current)) return;
  s.object = await s.ctx.store.update({ ...desired, status: s.object.status ?? {} });
  s.desired = { ...s.desired, metadata: { ...s.desired.metadata, resourceVersion: s.object.metadata.resourceVersion, generation: s.object.metadata.generation } };
}

function markHook(s: ClusterScope, hook: LifecycleHook, pending: boolean): void {
  const annotations = withPendingHook(s.desired.metadata.annotations, hook, pending);
  if (annotations !== s.desired.metadata.annotations) s.desired.metadata = { ...s.desired.metadata, annotations: annotations ?? {} };
}

async function applyDesired(s: ClusterScope, desired: DesiredState, current: CurrentState, decision: UpgradeDecision): Promise<void> {
  const { store } = s.ctx;
  const cluster = s.object;
  await applyObject(store, desired.infrastructureCluster, cluster, true);
  if (desired.controlPlaneMachineTemplate) await applyObject(store, desired.controlPlaneMachineTemplate, cluster, false);
  await applyObject(store, desired.controlPlane, cluster, true);
  s.desired.spec = { ...s.desired.spec, infrastructureRef: contractRef(desired.infrastructureCluster), controlPlaneRef: contractRef(desired.controlPlane) };
  await persistCluster(s);

  const wantedChecks = new Set<string>();
  if (desired.controlPlaneHealthCheck) {
    await applyObject(store, desired.controlPlaneHealthCheck, s.object, false);
    wantedChecks.add(desired.controlPlaneHealthCheck.metadata.name);
  }
  const held = new Set([...decision.pendingCreate, ...decision.pendingUpgrade, ...decision.deferred]);
  const holders: KubeObject[] = [...current.machineSets];
  for (const md of desired.machineDeployments) {
    const existing = current.machineDeployments.get(md.topologyName);
    if (md.healthCheck) wantedChecks.add(md.healthCheck.metadata.name);
    if (held.has(md.topologyName)) {
      // Cluster API does not touch a MachineDeployment waiting to be created or upgraded.
      if (existing) holders.push(existing.object);
      continue;
    }
    await applyObject(store, md.bootstrapTemplate, s.object, false);
    await applyObject(store, md.infrastructureTemplate, s.object, false);
    holders.push((await applyObject(store, md.object, s.object, false)).object);
    if (md.healthCheck) await applyObject(store, md.healthCheck, s.object, false);
  }
  const wantedNames = new Set(desired.machineDeployments.map((md) => md.topologyName));
  for (const [topologyName, existing] of current.machineDeployments) {
    if (!wantedNames.has(topologyName)) await deleteIfPresent(store, existing.object);
  }
  const { namespace, name } = cluster.metadata;
  await deleteUnwantedHealthChecks(store, namespace, name, wantedChecks);
  const templates = [
    ...(desired.controlPlaneMachineTemplate ? [desired.controlPlaneMachineTemplate] : []),
    ...desired.machineDeployments.flatMap((md) => [md.bootstrapTemplate, md.infrastructureTemplate]),
  ];
  await deleteUnusedTemplates(store, namespace, name, templates, [desired.controlPlane, ...holders]);
}

export async function reconcileTopologyPhase(s: ClusterScope): Promise<PhaseResult> {
  if (!isRecord(s.object.spec?.topology)) return {};
  try {
    return await reconcileTopology(s);
  } catch (error) {
    if (!(error instanceof LifecycleHookFailed)) throw error;
    s.conditions.push(topologyFailedCondition(TopologyReason.Failed, error.message));
    return { stop: true, requeueAfterSeconds: HOOK_FAILED_REQUEUE_SECONDS };
  }
}

async function reconcileTopology(s: ClusterScope): Promise<PhaseResult> {
  const topology = readTopology(s.object);
  if (!topology) {
    s.conditions.push(topologyFailedCondition(TopologyReason.Failed, 'spec.topology cannot be read'));
    return { stop: true };
  }
  const blueprint = await loadBlueprint(s.ctx.store, s.object);
  if (!blueprint.ok) {
    s.conditions.push(topologyFailedCondition(blueprint.reason, blueprint.message));
    return { requeueAfterSeconds: blueprint.requeueAfterSeconds };
  }
  const hooks = lifecycleHooksOf(s.ctx.providers);
  const current = await loadCurrentState(s.ctx.store, s.object);
  if (!current.infrastructureCluster && !current.controlPlane) {
    const answer = await hooks.call({ hook: 'BeforeClusterCreate', cluster: s.object });
    if (answer.retryAfterSeconds > 0) {
      s.conditions.push(topologyFailedCondition(TopologyReason.ClusterCreating, creationBlockedMessage([{ hook: 'BeforeClusterCreate', message: answer.message ?? '' }])));
      return { requeueAfterSeconds: answer.retryAfterSeconds };
    }
    markHook(s, 'AfterControlPlaneInitialized', true);
  }
  if (booleanAt(s.object.status, 'initialization', 'controlPlaneInitialized') === true && pendingHooks(s.desired).has('AfterControlPlaneInitialized')) {
    await hooks.call({ hook: 'AfterControlPlaneInitialized', cluster: s.object });
    markHook(s, 'AfterControlPlaneInitialized', false);
  }
  const upgrade = await decideUpgradeWithHooks({ hooks, cluster: s.object, topology, current, pendingAnnotations: s.desired.metadata.annotations ?? {} });
  for (const [hook, pending] of upgrade.hookMarks) markHook(s, hook, pending);
  let desired: DesiredState;
  try {
    const patchContext = { caller: extensionCallerFrom(s.ctx.providers), namespace: s.object.metadata.namespace };
    desired = await computeDesiredState({
      cluster: s.object,
      topology,
      blueprint: blueprint.blueprint,
      current,
      upgrade: upgrade.decision,
      admit: admitGenerated(s.lookup),
      applyPatches: (patches, items) => applyClassPatches(patches, items, patchContext),
    });
  } catch (error) {
    const message = describeFailure(error);
    if (message === undefined) throw error;
    s.conditions.push(topologyFailedCondition(TopologyReason.Failed, message));
    return { requeueAfterSeconds: TOPOLOGY_FAILED_REQUEUE_SECONDS };
  }
  // Pending-hook marks are written before the versions they guard (a crash in between must not lose a hook call).
  await persistCluster(s);
  await applyDesired(s, desired, current, upgrade.decision);
  s.conditions.push(topologyReconciledCondition(upgrade.decision, topology.version, upgrade.blockingMessages));
  return upgrade.requeueAfterSeconds ? { requeueAfterSeconds: upgrade.requeueAfterSeconds } : {};
}

