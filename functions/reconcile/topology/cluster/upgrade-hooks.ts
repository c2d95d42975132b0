/**
 * The upgrade decision with its lifecycle hooks (Cluster API's lifecycle_hooks.go, one-step plan):
 * starting a control-plane upgrade asks BeforeClusterUpgrade (blocking keeps the old version)
 * and marks AfterControlPlaneUpgrade pending; once the control plane runs the new version on
 * every machine, AfterControlPlaneUpgrade is asked before any MachineDeployment moves (blocking
 * holds them), then cleared. BeforeClusterUpgrade passing also marks AfterClusterUpgrade, called
 * once the whole cluster runs the new version.
 */

import { stringAt } from '../../../../shared/contracts/json.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { lowestNonZero } from '../../engine/skeleton/run-reconcile.js';
import type { CurrentState } from './current-state.js';
import type { LifecycleHook, LifecycleHookCaller } from './lifecycle-hooks.js';
import { ANNOTATION_PENDING_HOOKS } from '../../../../shared/contracts/topology/well-known.js';
import { type ClusterTopology, stringMap } from './topology-spec.js';
import { decideUpgrade, type UpgradeDecision, type UpgradeInput } from './upgrade.js';

export interface UpgradeWithHooks {
  decision: UpgradeDecision;
  /** Pending-hook marks to write on the Cluster. */
  hookMarks: Array<[LifecycleHook, boolean]>;
  blockingMessages: string[];
  requeueAfterSeconds?: number;
}

/** Every part of the cluster runs the topology version and nothing moves, waits or is deferred. */
function upgradeFinished(d: UpgradeDecision): boolean {
  return (
    d.controlPlaneStable &&
    !d.controlPlaneStartingUpgrade &&
    !d.controlPlaneUpgrading &&
    !d.controlPlanePendingUpgrade &&
    d.pendingCreate.length === 0 &&
    d.pendingUpgrade.length === 0 &&
    d.deferred.length === 0 &&
    d.upgrading.length === 0
  );
}

export async function decideUpgradeWithHooks(input: {
  hooks: LifecycleHookCaller;
  cluster: StoredObject;
  topology: ClusterTopology;
  current: CurrentState;
  pendingAnnotations: Record<string, string>;
}): Promise<UpgradeWithHooks> {
  const { hooks, cluster, topology, current } = input;
  const base: UpgradeInput = {
    topologyVersion: topology.version,
    clusterAnnotations: stringMap(cluster.metadata.annotations),
    ...(current.controlPlane ? { controlPlane: current.controlPlane } : {}),
    machines: current.machines,
    machineDeployments: (topology.workers?.machineDeployments ?? []).map((md) => {
      const existing = current.machineDeployments.get(md.name)?.object;
      return { topologyName: md.name, annotations: stringMap(md.metadata?.annotations), ...(existing ? { current: existing } : {}) };
    }),
    beforeUpgradeBlocked: false,
    afterControlPlaneUpgradeBlocked: false,
  };
  const out: UpgradeWithHooks = { decision: decideUpgrade(base), hookMarks: [], blockingMessages: [] };
  const pending = new Set((input.pendingAnnotations[ANNOTATION_PENDING_HOOKS] ?? '').split(',').filter((h) => h !== ''));
  if (out.decision.controlPlaneStartingUpgrade) {
    const answer = await hooks.call({
      hook: 'BeforeClusterUpgrade',
      cluster,
      fromKubernetesVersion: stringAt(current.controlPlane?.spec, 'version') ?? '',
      toKubernetesVersion: topology.version,
    });
    if (answer.retryAfterSeconds > 0) {
      base.beforeUpgradeBlocked = true;
      out.decision = decideUpgrade(base);
      out.blockingMessages.push(`BeforeClusterUpgrade: ${answer.message ?? ''}`);
      out.requeueAfterSeconds = answer.retryAfterSeconds;
    } else {
      out.hookMarks.push(['AfterControlPlaneUpgrade', true], ['AfterClusterUpgrade', true]);
      pending.add('AfterControlPlaneUpgrade');
      pending.add('AfterClusterUpgrade');
    }
  }
  if (pending.has('AfterControlPlaneUpgrade') && out.decision.controlPlaneStable) {
    const answer = await hooks.call({ hook: 'AfterControlPlaneUpgrade', cluster, kubernetesVersion: topology.version });
    if (answer.retryAfterSeconds > 0) {
      base.afterControlPlaneUpgradeBlocked = true;
      out.decision = decideUpgrade(base);
      out.blockingMessages.push(`AfterControlPlaneUpgrade: ${answer.message ?? ''}`);
      out.requeueAfterSeconds = lowestNonZero(out.requeueAfterSeconds, answer.retryAfterSeconds);
    } else {
      out.hookMarks.push(['AfterControlPlaneUpgrade', false]);
      pending.delete('AfterControlPlaneUpgrade');
    }
  }
  if (pending.has('AfterClusterUpgrade') && !pending.has('AfterControlPlaneUpgrade') && upgradeFinished(out.decision)) {
    // Non-blocking (Cluster API ignores its retryAfterSeconds); a Failure throws and keeps the mark.
    await hooks.call({ hook: 'AfterClusterUpgrade', cluster, kubernetesVersion: topology.version });
    out.hookMarks.push(['AfterClusterUpgrade', false]);
  }
  return out;
}
