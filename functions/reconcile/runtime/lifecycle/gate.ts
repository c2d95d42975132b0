/**
 * The lifecycle gate: what the topology reconciler calls at each point of a Cluster's life
 * (clusterclass-runtime-sdk.md §3). It calls the HookClient and tracks the hooks on the Cluster's
 * annotations; the caller only writes the annotations it gets back and obeys `proceed`.
 *
 * Contract for the caller (the topology reconciler):
 * - Write `decision.annotations` to the Cluster when they differ from its current ones, BEFORE
 *   acting on `proceed` (a mark such as AfterControlPlaneUpgrade must be stored before the
 *   control plane gets its new version, so a crash in between cannot skip the After hook).
 * - `proceed: false` with `requeueAfterSeconds`: a hook is blocking; requeue after exactly that
 *   delay and report `blocking` in TopologyReconciled (topology-messages.ts builds the message).
 * - `proceed: false` with `failure`: a hook failed; fail the reconcile with that message
 *   (TopologyReconciled=False, reason ReconcileFailed) and let the work queue back off; every
 *   pending mark stays.
 * - No handler registered for a hook = that hook passes.
 */

import type { LifecycleCallBody, LifecycleHook } from '../../../../shared/contracts/hooks/index.js';
import { ANNOTATION_PREFIX_BEFORE_UPGRADE_HOOK, type KubeObject } from '../../../../shared/contracts/object.js';
import type { HookClient, HookResult } from '../../../../shared/ports/runtime-extensions.js';
import { type Annotations, isOkToDelete, isPending, markDone, markOkToDelete, markPending } from './pending-hooks.js';
import type { BlockingHook } from './topology-messages.js';

export interface GateDecision {
  proceed: boolean;
  /** The Cluster's annotations after this point. */
  annotations: Record<string, string>;
  requeueAfterSeconds?: number;
  blocking?: BlockingHook;
  failure?: string;
}

export interface UpgradeRequest {
  fromKubernetesVersion: string;
  toKubernetesVersion: string;
  controlPlaneUpgrades: readonly string[];
  workersUpgrades: readonly string[];
}

function steps(versions: readonly string[]): { version: string }[] {
  return versions.map((version) => ({ version }));
}

function annotationsOf(cluster: KubeObject): Record<string, string> {
  return { ...(cluster.metadata.annotations ?? {}) };
}

function withAnnotations(cluster: KubeObject, annotations: Annotations): KubeObject {
  return { ...cluster, metadata: { ...cluster.metadata, annotations: { ...annotations } } };
}

export class LifecycleGate {
  constructor(private readonly hooks: HookClient) {}

  /** Calls `hook`; Success runs `onPass` on the annotations. */
  private async gate<H extends LifecycleHook>(
    hook: H,
    cluster: KubeObject,
    body: LifecycleCallBody<H>,
    onPass: (annotations: Record<string, string>) => Record<string, string> = (a) => a,
  ): Promise<GateDecision> {
    const annotations = annotationsOf(cluster);
    const result: HookResult = await this.hooks.call(hook, cluster, body);
    switch (result.status) {
      case 'Success':
        return { proceed: true, annotations: onPass(annotations) };
      case 'Blocked':
        return { proceed: false, annotations, requeueAfterSeconds: result.retryAfterSeconds ?? 1, blocking: { hook, message: result.message } };
      case 'Failure':
        return { proceed: false, annotations, failure: `error calling the ${hook} hook: ${result.message}` };
    }
  }

  /**
   * Before the topology's first objects are created (no infrastructureRef and no controlPlaneRef
   * yet). Passing marks AfterControlPlaneInitialized pending.
   */
  beforeClusterCreate(cluster: KubeObject): Promise<GateDecision> {
    const spec = cluster.spec ?? {};
    if (spec.infrastructureRef !== undefined || spec.controlPlaneRef !== undefined) {
      return Promise.resolve({ proceed: true, annotations: annotationsOf(cluster) });
    }
    return this.gate('BeforeClusterCreate', cluster, {}, (a) => markPending(a, 'AfterControlPlaneInitialized'));
  }

  /** Once `ControlPlaneInitialized` is True and the hook is pending: called until it succeeds. Never blocks. */
  async afterControlPlaneInitialized(cluster: KubeObject, controlPlaneInitialized: boolean): Promise<GateDecision> {
    const annotations = annotationsOf(cluster);
    if (!controlPlaneInitialized || !isPending(annotations, 'AfterControlPlaneInitialized')) return { proceed: true, annotations };
    const decision = await this.gate('AfterControlPlaneInitialized', cluster, {}, (a) => markDone(a, 'AfterControlPlaneInitialized'));
    return decision.failure === undefined ? { proceed: true, annotations: decision.annotations } : decision;
  }

  /**
   * At the start of an upgrade (step 8), unless AfterClusterUpgrade is already pending (the
   * upgrade already started). A Cluster annotation prefixed
   * `before-upgrade.hook.cluster.cluster.x-k8s.io` holds it like a blocking answer. Passing marks
   * AfterClusterUpgrade pending.
   */
  async beforeClusterUpgrade(cluster: KubeObject, upgrade: UpgradeRequest): Promise<GateDecision> {
    const annotations = annotationsOf(cluster);
    if (isPending(annotations, 'AfterClusterUpgrade')) return { proceed: true, annotations };
    const holding = Object.keys(annotations).filter((key) => key.startsWith(ANNOTATION_PREFIX_BEFORE_UPGRADE_HOOK));
    if (holding.length > 0) {
      return {
        proceed: false,
        annotations,
        requeueAfterSeconds: 10,
        blocking: { hook: 'BeforeClusterUpgrade', message: `annotation${holding.length > 1 ? 's' : ''} ${holding.join(', ')} ${holding.length > 1 ? 'are' : 'is'} set` },
      };
    }
    return this.gate('BeforeClusterUpgrade', cluster, { ...upgrade, controlPlaneUpgrades: steps(upgrade.controlPlaneUpgrades), workersUpgrades: steps(upgrade.workersUpgrades) }, (a) =>
      markPending(a, 'AfterClusterUpgrade'),
    );
  }

  /**
   * Before each control plane step (step 9). Passing marks AfterControlPlaneUpgrade pending, and
   * BeforeWorkersUpgrade and AfterWorkersUpgrade when the workers move to the same version.
   */
  beforeControlPlaneUpgrade(cluster: KubeObject, upgrade: UpgradeRequest, workersFollowThisStep: boolean): Promise<GateDecision> {
    return this.gate(
      'BeforeControlPlaneUpgrade',
      cluster,
      { ...upgrade, controlPlaneUpgrades: steps(upgrade.controlPlaneUpgrades), workersUpgrades: steps(upgrade.workersUpgrades) },
      (a) => (workersFollowThisStep ? markPending(a, 'AfterControlPlaneUpgrade', 'BeforeWorkersUpgrade', 'AfterWorkersUpgrade') : markPending(a, 'AfterControlPlaneUpgrade')),
    );
  }

  /** After a control plane step, while pending (step 3): blocks workers, new MachineDeployments and the next step. */
  afterControlPlaneUpgrade(cluster: KubeObject, kubernetesVersion: string, plan: Pick<UpgradeRequest, 'controlPlaneUpgrades' | 'workersUpgrades'>): Promise<GateDecision> {
    return this.whilePending('AfterControlPlaneUpgrade', cluster, { kubernetesVersion, controlPlaneUpgrades: steps(plan.controlPlaneUpgrades), workersUpgrades: steps(plan.workersUpgrades) });
  }

  /** Before a worker step, while pending (step 4). */
  beforeWorkersUpgrade(cluster: KubeObject, upgrade: UpgradeRequest): Promise<GateDecision> {
    return this.whilePending('BeforeWorkersUpgrade', cluster, { ...upgrade, controlPlaneUpgrades: steps(upgrade.controlPlaneUpgrades), workersUpgrades: steps(upgrade.workersUpgrades) });
  }

  /** After a worker step, while pending (step 6): blocks the next control plane step. */
  afterWorkersUpgrade(cluster: KubeObject, kubernetesVersion: string, plan: Pick<UpgradeRequest, 'controlPlaneUpgrades' | 'workersUpgrades'>): Promise<GateDecision> {
    return this.whilePending('AfterWorkersUpgrade', cluster, { kubernetesVersion, controlPlaneUpgrades: steps(plan.controlPlaneUpgrades), workersUpgrades: steps(plan.workersUpgrades) });
  }

  /**
   * When the whole upgrade is done (every other After* hook done, control plane stable, no
   * MachineDeployment or MachinePool moving, pending or deferred), while pending.
   */
  afterClusterUpgrade(cluster: KubeObject, kubernetesVersion: string): Promise<GateDecision> {
    return this.whilePending('AfterClusterUpgrade', cluster, { kubernetesVersion });
  }

  /** On a deleting Cluster: holds deletion until the hook passes, then sets ok-to-delete (and is not called again). */
  beforeClusterDelete(cluster: KubeObject): Promise<GateDecision> {
    const annotations = annotationsOf(cluster);
    if (isOkToDelete(annotations)) return Promise.resolve({ proceed: true, annotations });
    return this.gate('BeforeClusterDelete', cluster, {}, markOkToDelete);
  }

  private whilePending<H extends LifecycleHook>(hook: H, cluster: KubeObject, body: LifecycleCallBody<H>): Promise<GateDecision> {
    const annotations = annotationsOf(cluster);
    if (!isPending(annotations, hook)) return Promise.resolve({ proceed: true, annotations });
    return this.gate(hook, cluster, body, (a) => markDone(a, hook));
  }
}

/** The Cluster with a decision's annotations (to thread several gate points through one reconcile). */
export function applyDecision(cluster: KubeObject, decision: GateDecision): KubeObject {
  return withAnnotations(cluster, decision.annotations);
}
