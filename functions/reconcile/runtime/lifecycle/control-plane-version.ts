/**
 * The hook half of Cluster API's computeControlPlaneVersion (exp/topology/desiredstate,
 * clusterclass-runtime-sdk.md §3 steps 1–9), top-down: the version the control plane should have
 * this reconcile, with every lifecycle hook of the upgrade sequence in its place. The topology
 * reconciler supplies the facts it computed (plans, whether anything is moving); any blocking or
 * failing hook keeps the current version.
 */

import type { KubeObject } from '../../../../shared/contracts/object.js';
import { applyDecision, type GateDecision, type LifecycleGate } from './gate.js';
import { isPending } from './pending-hooks.js';

export interface ControlPlaneVersionInput {
  cluster: KubeObject;
  /** `spec.topology.version`. */
  topologyVersion: string;
  /** Undefined while the control plane object does not exist yet. */
  controlPlane?: {
    /** `spec.version` as it is now. */
    version: string;
    /** Provisioning, or status versions behind spec (still moving). */
    provisioningOrUpgrading: boolean;
  };
  /** Lowest version among MachineDeployments/MachinePools (from of BeforeWorkersUpgrade). */
  minWorkerVersion?: string;
  /** Any MachineDeployment/MachinePool rolling to a new version. */
  workersUpgrading: boolean;
  /** Control plane steps still to take; [0] is the next. */
  controlPlaneUpgradePlan: readonly string[];
  /** Worker steps still to take; [0] is the next. */
  workersUpgradePlan: readonly string[];
}

export interface ControlPlaneVersionDecision extends GateDecision {
  version: string;
}

function keep(version: string, decision: GateDecision): ControlPlaneVersionDecision {
  return { ...decision, version };
}

export async function desiredControlPlaneVersion(gate: LifecycleGate, input: ControlPlaneVersionInput): Promise<ControlPlaneVersionDecision> {
  let cluster = input.cluster;
  const annotations = () => ({ ...(cluster.metadata.annotations ?? {}) });
  const cp = input.controlPlane;
  if (!cp) return { proceed: true, annotations: annotations(), version: input.topologyVersion };
  const current = cp.version;
  if (cp.provisioningOrUpgrading) return { proceed: true, annotations: annotations(), version: current };
  const plan = { controlPlaneUpgrades: input.controlPlaneUpgradePlan, workersUpgrades: input.workersUpgradePlan };

  if (isPending(cluster.metadata.annotations, 'AfterControlPlaneUpgrade')) {
    const decision = await gate.afterControlPlaneUpgrade(cluster, current, plan);
    if (!decision.proceed) return keep(current, decision);
    cluster = applyDecision(cluster, decision);
  }
  if (isPending(cluster.metadata.annotations, 'BeforeWorkersUpgrade')) {
    const decision = await gate.beforeWorkersUpgrade(cluster, { fromKubernetesVersion: input.minWorkerVersion ?? current, toKubernetesVersion: current, ...plan });
    if (!decision.proceed) return keep(current, decision);
    cluster = applyDecision(cluster, decision);
  }
  if (input.workersUpgradePlan[0] === current || input.workersUpgrading) return { proceed: true, annotations: annotations(), version: current };
  if (isPending(cluster.metadata.annotations, 'AfterWorkersUpgrade')) {
    const decision = await gate.afterWorkersUpgrade(cluster, current, plan);
    if (!decision.proceed) return keep(current, decision);
    cluster = applyDecision(cluster, decision);
  }
  if (current === input.topologyVersion) return { proceed: true, annotations: annotations(), version: current };

  const upgrade = { fromKubernetesVersion: current, toKubernetesVersion: input.topologyVersion, ...plan };
  const started = await gate.beforeClusterUpgrade(cluster, upgrade);
  if (!started.proceed) return keep(current, started);
  cluster = applyDecision(cluster, started);

  const next = input.controlPlaneUpgradePlan[0] ?? input.topologyVersion;
  const step = await gate.beforeControlPlaneUpgrade(cluster, { ...upgrade, toKubernetesVersion: next }, input.workersUpgradePlan[0] === next);
  if (!step.proceed) return keep(current, step);
  return { ...step, version: next };
}
