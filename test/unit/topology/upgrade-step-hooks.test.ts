/**
 * The per-step upgrade hooks of a topology cluster with a MachineDeployment, driven through the
 * Cluster reconciler with a scripted hook port: Cluster API's order (BeforeClusterUpgrade →
 * BeforeControlPlaneUpgrade → control plane upgraded → AfterControlPlaneUpgrade →
 * BeforeWorkersUpgrade → workers upgraded → AfterWorkersUpgrade → AfterClusterUpgrade), each
 * blocking hook holding exactly what it guards, named in TopologyReconciled (ClusterUpgrading).
 * Between reconciles the control plane "finishes" by reporting its spec version in status; the
 * MachineDeployment has no Machines, so it is never rolling.
 */

import { describe, expect, it } from 'vitest';
import { clusterReconciler } from '../../../functions/reconcile/core/cluster/reconciler.js';
import { runReconcile } from '../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { LIFECYCLE_HOOKS_PORT, type LifecycleHook, type LifecycleHookCaller, type LifecycleHookRequest } from '../../../functions/reconcile/topology/cluster/lifecycle-hooks.js';
import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import { isRecord, stringAt } from '../../../shared/contracts/json.js';
import { keyOf, type StoredObject } from '../../../shared/contracts/object.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { testContext } from '../../support/reconcile-context.js';
import { NS, setUpTopologyCluster } from '../../support/topology-fixtures.js';

const OLD = 'v1.33.0';
const NEW = 'v1.34.0';
const PENDING = 'runtime.cluster.x-k8s.io/pending-hooks';
const SEQUENCE: LifecycleHook[] = ['BeforeClusterUpgrade', 'BeforeControlPlaneUpgrade', 'AfterControlPlaneUpgrade', 'BeforeWorkersUpgrade', 'AfterWorkersUpgrade', 'AfterClusterUpgrade'];

/** Blocks each hook in `blockOnce` the first time it is asked; passes everything else. */
function scripted(blockOnce: readonly LifecycleHook[]): LifecycleHookCaller & { calls: LifecycleHookRequest[] } {
  const calls: LifecycleHookRequest[] = [];
  return {
    calls,
    call: async (request) => {
      const before = calls.filter((c) => c.hook === request.hook).length;
      calls.push(request);
      return blockOnce.includes(request.hook) && before === 0 ? { retryAfterSeconds: 20, message: 'not yet' } : { retryAfterSeconds: 0 };
    },
  };
}

interface Observed {
  hooks: LifecycleHook[];
  controlPlaneVersion: string | undefined;
  workerVersion: string | undefined;
  reason: string | undefined;
  message: string | undefined;
  requeue: number | undefined;
  pending: string | undefined;
}

async function controlPlane(store: MemoryObjectStore): Promise<StoredObject> {
  const [kcp] = (await store.list({ group: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', namespace: NS })).items;
  if (!kcp) throw new Error('no control plane');
  return kcp;
}

async function workerVersion(store: MemoryObjectStore): Promise<string | undefined> {
  const [md] = (await store.list({ group: 'cluster.x-k8s.io', kind: 'MachineDeployment', namespace: NS })).items;
  return stringAt(md?.spec, 'template', 'spec', 'version');
}

async function reconcile(store: MemoryObjectStore, cluster: StoredObject, caller: ReturnType<typeof scripted>): Promise<Observed> {
  const from = caller.calls.length;
  const result = await runReconcile(clusterReconciler, testContext({ store, providers: { [LIFECYCLE_HOOKS_PORT]: caller } }), keyOf(cluster));
  const after = await store.get(keyOf(cluster));
  const condition = findCondition(conditionsOf(after?.status), 'TopologyReconciled');
  const kcp = await controlPlane(store);
  // The control plane finishes its rollout before the next reconcile.
  await store.updateStatus({ ...kcp, status: { ...kcp.status, version: stringAt(kcp.spec, 'version') } });
  return {
    hooks: caller.calls.slice(from).map((c) => c.hook),
    controlPlaneVersion: stringAt(kcp.spec, 'version'),
    workerVersion: await workerVersion(store),
    reason: condition?.reason,
    message: condition?.message,
    requeue: result.requeueAfterSeconds,
    pending: after?.metadata.annotations?.[PENDING],
  };
}

/** A converged cluster on OLD with one MachineDeployment, then `topology.version` set to NEW. */
async function upgradingCluster(name: string): Promise<{ store: MemoryObjectStore; cluster: StoredObject }> {
  const store = new MemoryObjectStore();
  const { cluster } = await setUpTopologyCluster({ name, cpReplicas: 1, tag: 'x', mds: [{ name: 'md-0', class: 'a', replicas: 1 }] }, store);
  await reconcile(store, cluster, scripted([]));
  const current = await store.get(keyOf(cluster));
  if (!current) throw new Error('cluster gone');
  const topology = isRecord(current.spec?.topology) ? current.spec.topology : {};
  const upgraded = await store.update({ ...current, spec: { ...current.spec, topology: { ...topology, version: NEW } } });
  return { store, cluster: upgraded };
}

async function upgradeToEnd(blockOnce: readonly LifecycleHook[], name: string) {
  const { store, cluster } = await upgradingCluster(name);
  const caller = scripted(blockOnce);
  const runs: Observed[] = [];
  for (let i = 0; i < 8; i++) runs.push(await reconcile(store, cluster, caller));
  return { runs, calls: caller.calls };
}

describe('per-step upgrade hooks of a topology cluster', () => {
  it('every hook passing: Cluster API order, the control plane before the workers, each hook once, nothing left pending', async () => {
    const { runs, calls } = await upgradeToEnd([], 'c-order');
    expect(calls.map((c) => c.hook)).toEqual(SEQUENCE);
    expect(runs.slice(0, 3).map((r) => [r.hooks, r.controlPlaneVersion, r.workerVersion])).toEqual([
      [['BeforeClusterUpgrade', 'BeforeControlPlaneUpgrade'], NEW, OLD],
      [['AfterControlPlaneUpgrade', 'BeforeWorkersUpgrade'], NEW, NEW],
      [['AfterWorkersUpgrade', 'AfterClusterUpgrade'], NEW, NEW],
    ]);
    expect(runs[0]?.pending).toBe('AfterClusterUpgrade,AfterControlPlaneInitialized,AfterControlPlaneUpgrade,AfterWorkersUpgrade,BeforeWorkersUpgrade');
    expect(runs.at(-1)).toMatchObject({ pending: 'AfterControlPlaneInitialized', reason: 'ReconcileSucceeded' });
  });

  it("sends Cluster API's bodies: versions and the plan still ahead", async () => {
    const { calls } = await upgradeToEnd([], 'c-bodies');
    const body = ({ cluster: _c, ...rest }: LifecycleHookRequest) => rest;
    expect(calls.map(body)).toEqual([
      { hook: 'BeforeClusterUpgrade', fromKubernetesVersion: OLD, toKubernetesVersion: NEW, controlPlaneUpgrades: [NEW], workersUpgrades: [NEW] },
      { hook: 'BeforeControlPlaneUpgrade', fromKubernetesVersion: OLD, toKubernetesVersion: NEW, controlPlaneUpgrades: [NEW], workersUpgrades: [NEW] },
      { hook: 'AfterControlPlaneUpgrade', kubernetesVersion: NEW, controlPlaneUpgrades: [], workersUpgrades: [NEW] },
      { hook: 'BeforeWorkersUpgrade', fromKubernetesVersion: OLD, toKubernetesVersion: NEW, controlPlaneUpgrades: [], workersUpgrades: [NEW] },
      { hook: 'AfterWorkersUpgrade', kubernetesVersion: NEW, controlPlaneUpgrades: [], workersUpgrades: [] },
      { hook: 'AfterClusterUpgrade', kubernetesVersion: NEW },
    ]);
  });

  it.each<[LifecycleHook, string, { controlPlaneVersion: string; workerVersion: string }]>([
    ['BeforeClusterUpgrade', 'the control plane keeps its version', { controlPlaneVersion: OLD, workerVersion: OLD }],
    ['BeforeControlPlaneUpgrade', 'the control plane keeps its version', { controlPlaneVersion: OLD, workerVersion: OLD }],
    ['AfterControlPlaneUpgrade', 'no MachineDeployment moves', { controlPlaneVersion: NEW, workerVersion: OLD }],
    ['BeforeWorkersUpgrade', 'no MachineDeployment moves', { controlPlaneVersion: NEW, workerVersion: OLD }],
    ['AfterWorkersUpgrade', 'AfterClusterUpgrade waits', { controlPlaneVersion: NEW, workerVersion: NEW }],
  ])('%s blocking: %s, TopologyReconciled names it, the reconcile comes back after its delay; then the upgrade completes', async (hook, _what, held) => {
    const { runs, calls } = await upgradeToEnd([hook], `c-${hook.toLowerCase()}`);
    const blockedRun = runs.find((r) => r.hooks.at(-1) === hook && r.requeue === 20);
    expect(blockedRun).toMatchObject({ ...held, reason: 'ClusterUpgrading' });
    expect(blockedRun?.message).toContain(`Following hooks are blocking upgrade: ${hook}: not yet`);
    expect(blockedRun?.hooks).not.toContain('AfterClusterUpgrade');
    // Asked again after blocking, never skipped; the rest of the order holds.
    const order = calls.map((c) => c.hook);
    expect(order.filter((h) => h === hook)).toHaveLength(2);
    expect(order.filter((h, i) => !(h === hook && order.indexOf(h) === i))).toEqual(SEQUENCE);
    expect(runs.at(-1)).toMatchObject({ controlPlaneVersion: NEW, workerVersion: NEW, pending: 'AfterControlPlaneInitialized' });
  });

  it('BeforeClusterUpgrade is not asked again once the upgrade started, even when BeforeControlPlaneUpgrade blocked', async () => {
    const { calls } = await upgradeToEnd(['BeforeControlPlaneUpgrade'], 'c-started');
    expect(calls.filter((c) => c.hook === 'BeforeClusterUpgrade')).toHaveLength(1);
  });

  it('a before-upgrade hook annotation on the Cluster holds the upgrade like a blocking BeforeClusterUpgrade', async () => {
    const { store, cluster } = await upgradingCluster('c-annotated');
    const held = await store.update({ ...cluster, metadata: { ...cluster.metadata, annotations: { ...cluster.metadata.annotations, 'before-upgrade.hook.cluster.cluster.x-k8s.io/ops': '' } } });
    const run = await reconcile(store, held, scripted([]));
    expect(run).toMatchObject({ hooks: [], controlPlaneVersion: OLD, reason: 'ClusterUpgrading', requeue: 10 });
    expect(run.message).toContain('BeforeClusterUpgrade: annotation before-upgrade.hook.cluster.cluster.x-k8s.io/ops is set');
  });
});
