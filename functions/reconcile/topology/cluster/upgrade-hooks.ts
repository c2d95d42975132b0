/**
 * The upgrade decision with its lifecycle hooks, in the order of Cluster API's
 * computeControlPlaneVersion (clusterclass-runtime-sdk.md §3, steps 2–9) for a one-step plan
 * (the control plane, then the workers, go straight to `topology.version`):
 * - while the control plane provisions or rolls, no upgrade hook is asked;
 * - AfterControlPlaneUpgrade, then BeforeWorkersUpgrade, when pending: either blocking holds every
 *   MachineDeployment (no upgrade, no creation);
 * - AfterWorkersUpgrade, when pending, once no worker is behind the control plane or moving;
 * - to start an upgrade: BeforeClusterUpgrade (unless AfterClusterUpgrade is already pending, i.e.
 *   the upgrade already started), then BeforeControlPlaneUpgrade for the step; passing marks
 *   AfterClusterUpgrade, then AfterControlPlaneUpgrade (and BeforeWorkersUpgrade,
 *   AfterWorkersUpgrade when workers follow the step); any blocking keeps the old version;
 * - AfterClusterUpgrade once every other upgrade hook is done and nothing moves, waits or is deferred.
 * Marks are returned for the caller to persist before anything takes a new version.
 */

import { stringAt, stringEntriesOf } from '../../../../shared/contracts/json.js';
import { compareSemVer, parseSemVer } from '../../../../shared/contracts/clusterctl/semver.js';
import { ANNOTATION_PREFIX_BEFORE_UPGRADE_HOOK, type StoredObject } from '../../../../shared/contracts/object.js';
import { ANNOTATION_PENDING_HOOKS } from '../../../../shared/contracts/topology/well-known.js';
import { lowestNonZero } from '../../engine/skeleton/run-reconcile.js';
import type { CurrentState } from './current-state.js';
import type { LifecycleHook, LifecycleHookCaller, LifecycleHookRequest } from './lifecycle-hooks.js';
import type { ClusterTopology } from './topology-spec.js';
import { controlPlaneMoving, decideUpgrade, machineDeploymentMoving, type UpgradeDecision, type UpgradeInput } from './upgrade.js';

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

/** The lowest of the versions (semver order; unparsable ones last). */
function lowestVersion(versions: readonly string[]): string | undefined {
  return [...versions].sort((a, b) => {
    const [x, y] = [parseSemVer(a), parseSemVer(b)];
    if (!x || !y) return x ? -1 : y ? 1 : 0;
    return compareSemVer(x, y);
  })[0];
}

/** How often a Cluster held by a before-upgrade annotation is looked at again. */
const ANNOTATION_HOLD_REQUEUE_SECONDS = 10;

/** Tracks this reconcile's hook calls: pending marks, blocking messages, the requeue. */
class HookRun {
  readonly out: { hookMarks: Array<[LifecycleHook, boolean]>; blockingMessages: string[]; requeueAfterSeconds?: number } = { hookMarks: [], blockingMessages: [] };
  readonly pending: Set<string>;

  constructor(
    private readonly hooks: LifecycleHookCaller,
    private readonly cluster: StoredObject,
    annotations: Record<string, string>,
  ) {
    this.pending = new Set((annotations[ANNOTATION_PENDING_HOOKS] ?? '').split(',').filter((h) => h !== ''));
  }

  /** A hook of this reconcile answered "wait". */
  blocked(): boolean {
    return this.out.blockingMessages.length > 0;
  }

  isPending(hook: LifecycleHook): boolean {
    return this.pending.has(hook);
  }

  mark(hook: LifecycleHook, pending: boolean): void {
    this.out.hookMarks.push([hook, pending]);
    if (pending) this.pending.add(hook);
    else this.pending.delete(hook);
  }

  /** Asks `hook`; true when it passed. A Failure throws LifecycleHookFailed (the reconcile fails, marks kept). */
  async passes(request: Omit<LifecycleHookRequest, 'cluster'>): Promise<boolean> {
    const answer = await this.hooks.call({ ...request, cluster: this.cluster });
    if (answer.retryAfterSeconds <= 0) return true;
    this.out.blockingMessages.push(`${request.hook}: ${answer.message ?? ''}`);
    this.out.requeueAfterSeconds = lowestNonZero(this.out.requeueAfterSeconds, answer.retryAfterSeconds);
    return false;
  }

  /** A Cluster annotation prefixed `before-upgrade.hook.cluster.cluster.x-k8s.io` holds BeforeClusterUpgrade like a blocking answer. */
  heldByAnnotation(): boolean {
    const holding = Object.keys(this.cluster.metadata.annotations ?? {}).filter((key) => key.startsWith(ANNOTATION_PREFIX_BEFORE_UPGRADE_HOOK));
    if (holding.length === 0) return false;
    this.out.blockingMessages.push(`BeforeClusterUpgrade: annotation${holding.length > 1 ? 's' : ''} ${holding.join(', ')} ${holding.length > 1 ? 'are' : 'is'} set`);
    this.out.requeueAfterSeconds = lowestNonZero(this.out.requeueAfterSeconds, ANNOTATION_HOLD_REQUEUE_SECONDS);
    return true;
  }

  /** Asks a pending hook; passing clears its mark. True when it is no longer pending. */
  async clears(request: Omit<LifecycleHookRequest, 'cluster'>): Promise<boolean> {
    if (!this.isPending(request.hook)) return true;
    if (!(await this.passes(request))) return false;
    this.mark(request.hook, false);
    return true;
  }
}

interface UpgradeFacts {
  run: HookRun;
  base: UpgradeInput;
  current: CurrentState;
  to: string;
  cpVersion: string;
  workers: readonly StoredObject[];
  workerVersions: readonly string[];
  /** One-step plans, recomputed every reconcile from what runs now ([0] = the next step). */
  plan: { controlPlaneUpgrades: string[]; workersUpgrades: string[] };
}

/** Steps 3–6: after a control plane step, before the workers follow it, once they caught up. */
async function afterStepHooks(f: UpgradeFacts): Promise<void> {
  const { run, cpVersion, plan } = f;
  const afterStep = { kubernetesVersion: cpVersion, ...plan };
  if (!(await run.clears({ hook: 'AfterControlPlaneUpgrade', ...afterStep }))) return;
  const from = lowestVersion(f.workerVersions) ?? cpVersion;
  if (!(await run.clears({ hook: 'BeforeWorkersUpgrade', fromKubernetesVersion: from, toKubernetesVersion: cpVersion, ...plan }))) return;
  const workersCaughtUp = plan.workersUpgrades[0] !== cpVersion && !f.workers.some((md) => machineDeploymentMoving(md, f.current.machines));
  if (workersCaughtUp) await run.clears({ hook: 'AfterWorkersUpgrade', ...afterStep });
}

/** Steps 8–9: BeforeClusterUpgrade once per upgrade, BeforeControlPlaneUpgrade per step; the marks of what follows. */
async function startStepHooks(f: UpgradeFacts): Promise<void> {
  const { run, plan, to } = f;
  const upgrade = { fromKubernetesVersion: f.cpVersion, toKubernetesVersion: to, ...plan };
  if (!run.isPending('AfterClusterUpgrade')) {
    if (run.heldByAnnotation() || !(await run.passes({ hook: 'BeforeClusterUpgrade', ...upgrade }))) return;
    run.mark('AfterClusterUpgrade', true);
  }
  if (!(await run.passes({ hook: 'BeforeControlPlaneUpgrade', ...upgrade }))) return;
  run.mark('AfterControlPlaneUpgrade', true);
  if (plan.workersUpgrades[0] === to) {
    run.mark('BeforeWorkersUpgrade', true);
    run.mark('AfterWorkersUpgrade', true);
  }
}

function upgradeInput(cluster: StoredObject, topology: ClusterTopology, current: CurrentState): UpgradeInput {
  return {
    topologyVersion: topology.version,
    clusterAnnotations: stringEntriesOf(cluster.metadata.annotations),
    ...(current.controlPlane ? { controlPlane: current.controlPlane } : {}),
    machines: current.machines,
    machineDeployments: (topology.workers?.machineDeployments ?? []).map((md) => {
      const existing = current.machineDeployments.get(md.name)?.object;
      return { topologyName: md.name, annotations: stringEntriesOf(md.metadata?.annotations), ...(existing ? { current: existing } : {}) };
    }),
    beforeUpgradeBlocked: false,
    workerHooksBlocked: false,
  };
}

export async function decideUpgradeWithHooks(input: {
  hooks: LifecycleHookCaller;
  cluster: StoredObject;
  topology: ClusterTopology;
  current: CurrentState;
  pendingAnnotations: Record<string, string>;
}): Promise<UpgradeWithHooks> {
  const { cluster, topology, current } = input;
  const to = topology.version;
  const base = upgradeInput(cluster, topology, current);
  const run = new HookRun(input.hooks, cluster, input.pendingAnnotations);
  const cp = current.controlPlane;
  const cpVersion = stringAt(cp?.spec, 'version');
  // Step 2: no upgrade hook while the control plane provisions or rolls.
  if (cp && cpVersion !== undefined && !controlPlaneMoving(cp, current.machines)) {
    const workers = base.machineDeployments.flatMap((md) => (md.current ? [md.current] : []));
    const workerVersions = workers.map((md) => stringAt(md.spec, 'template', 'spec', 'version') ?? to);
    const plan = { controlPlaneUpgrades: cpVersion !== to ? [to] : [], workersUpgrades: workerVersions.some((v) => v !== to) ? [to] : [] };
    const facts: UpgradeFacts = { run, base, current, to, cpVersion, workers, workerVersions, plan };
    await afterStepHooks(facts);
    if (!run.blocked() && decideUpgrade(base).controlPlaneStartingUpgrade) await startStepHooks(facts);
  }
  base.beforeUpgradeBlocked = run.blocked();
  base.workerHooksBlocked = run.isPending('AfterControlPlaneUpgrade') || run.isPending('BeforeWorkersUpgrade');
  const decision = decideUpgrade(base);
  const otherUpgradeHooksDone = !['AfterControlPlaneUpgrade', 'BeforeWorkersUpgrade', 'AfterWorkersUpgrade'].some((h) => run.pending.has(h));
  if (run.isPending('AfterClusterUpgrade') && otherUpgradeHooksDone && upgradeFinished(decision)) {
    // Non-blocking (Cluster API ignores its retryAfterSeconds); a Failure throws and keeps the mark.
    await input.hooks.call({ hook: 'AfterClusterUpgrade', cluster, kubernetesVersion: to });
    run.mark('AfterClusterUpgrade', false);
  }
  return { decision, ...run.out };
}
