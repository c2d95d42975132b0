import { describe, expect, it } from 'vitest';
import { machineSetReconciler } from '../../../../functions/reconcile/core/machineset/reconciler.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { isDeleting, type KubeObject, ownerReferenceTo, type StoredObject } from '../../../../shared/contracts/object.js';
import { workerTemplates } from '../../../support/core-fixtures.js';
import { FAKE_BOOTSTRAP_GROUP } from '../../../support/fake-bootstrap-provider.js';
import { testContext } from '../../../support/reconcile-context.js';

const CORE = 'cluster.x-k8s.io';
const msKey = { group: CORE, kind: 'MachineSet', namespace: 'default', name: 'ms' };

function machineDeployment(maxInFlight?: number | string): KubeObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind: 'MachineDeployment',
    metadata: { name: 'md' },
    spec: { clusterName: 'c1', replicas: 4, selector: { matchLabels: { pool: 'a' } }, template: { spec: {} }, ...(maxInFlight !== undefined ? { remediation: { maxInFlight } } : {}) },
  };
}

function machineSet(owner: StoredObject | undefined): KubeObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind: 'MachineSet',
    metadata: { name: 'ms', labels: { 'cluster.x-k8s.io/cluster-name': 'c1' }, ...(owner ? { ownerReferences: [ownerReferenceTo(owner)] } : {}) },
    spec: {
      clusterName: 'c1',
      replicas: 4,
      selector: { matchLabels: { pool: 'a' } },
      template: {
        metadata: { labels: { pool: 'a' } },
        spec: {
          clusterName: 'c1',
          version: 'v1.31.0',
          bootstrap: { configRef: { apiGroup: FAKE_BOOTSTRAP_GROUP, kind: 'FakeBootstrapConfigTemplate', name: 'md' } },
          infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachineTemplate', name: 'md' },
        },
      },
    },
  };
}

async function machinesOf(ctx: ReturnType<typeof testContext>, ms: StoredObject): Promise<StoredObject[]> {
  return (await ctx.store.listByOwner(ms.metadata.uid)).filter((o) => o.kind === 'Machine');
}

/** Four Machines, the oldest `marked` of them marked by a health check; each Machine keeps a finalizer so deletion stays in flight. */
async function setup(maxInFlight: number | string | undefined, marked: number) {
  const ctx = testContext();
  for (const t of workerTemplates('md')) await ctx.store.create(t);
  const md = await ctx.store.create(machineDeployment(maxInFlight));
  const ms = await ctx.store.create(machineSet(md));
  await runReconcile(machineSetReconciler, ctx, msKey);
  const machines = await machinesOf(ctx, ms);
  for (const [i, m] of machines.entries()) {
    const held = await ctx.store.update({ ...m, metadata: { ...m.metadata, finalizers: ['test/hold'], labels: { ...m.metadata.labels, 'cluster.x-k8s.io/deployment-name': 'md' } } });
    ctx.clock.advanceSeconds(1);
    if (i < marked) {
      await ctx.store.updateStatus({
        ...held,
        status: { conditions: [{ type: 'OwnerRemediated', status: 'False', reason: 'WaitingForRemediation', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
      });
    }
  }
  return { ctx, ms };
}

describe('MachineSet remediation', () => {
  it.each<[string, number | string | undefined, number, number]>([
    ['every marked Machine without a limit', undefined, 2, 2],
    ['one at a time with maxInFlight 1', 1, 3, 1],
    ['25% of 4 replicas is 1', '25%', 2, 1],
    ['maxInFlight above the marked count', 3, 2, 2],
  ])('deletes %s, and replaces each', async (_name, maxInFlight, marked, deleted) => {
    const { ctx, ms } = await setup(maxInFlight, marked);
    await runReconcile(machineSetReconciler, ctx, msKey);
    const machines = await machinesOf(ctx, ms);
    const deleting = machines.filter(isDeleting);
    expect(deleting).toHaveLength(deleted);
    expect(deleting.every((m) => findCondition(conditionsOf(m.status), 'OwnerRemediated')?.reason === 'MachineDeleting')).toBe(true);
    expect(machines.filter((m) => !isDeleting(m))).toHaveLength(4);
    const set = await ctx.store.get(msKey);
    expect(findCondition(conditionsOf(set?.status), 'Remediating')?.reason).toBe(deleted < marked ? 'RemediationDeferred' : 'MachineDeleting');

    // Run again while those are still being deleted: the in-flight ones still count against the limit.
    await runReconcile(machineSetReconciler, ctx, msKey);
    expect((await machinesOf(ctx, ms)).filter(isDeleting)).toHaveLength(deleted);
  });

  it('leaves unmarked Machines alone', async () => {
    const { ctx, ms } = await setup(undefined, 0);
    await runReconcile(machineSetReconciler, ctx, msKey);
    expect((await machinesOf(ctx, ms)).filter(isDeleting)).toHaveLength(0);
  });
});

describe('MachineSet remediation waits for the preflight checks', () => {
  it('while the control plane upgrades, marked Machines stay and say why; once it is stable they are remediated', async () => {
    const { ctx, ms } = await setup(undefined, 1);
    const cpKey = { group: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', namespace: 'default', name: 'cp' };
    await ctx.store.create({ apiVersion: `${CORE}/v1beta2`, kind: 'Cluster', metadata: { name: 'c1', namespace: 'default' }, spec: { controlPlaneRef: { apiGroup: cpKey.group, kind: cpKey.kind, name: 'cp' } } });
    const cp = await ctx.store.create({ apiVersion: `${cpKey.group}/v1beta2`, kind: cpKey.kind, metadata: { name: 'cp', namespace: 'default' }, spec: { version: 'v1.31.0', replicas: 3 } });
    await ctx.store.updateStatus({ ...cp, status: { version: 'v1.30.5' } });

    const held = await runReconcile(machineSetReconciler, ctx, msKey);
    expect(held.requeueAfterSeconds).toBe(15);
    const machines = await machinesOf(ctx, ms);
    expect(machines.filter(isDeleting)).toHaveLength(0);
    const reason = '* KubeadmControlPlane default/cp is upgrading ("ControlPlaneIsStable" preflight check failed)';
    const marked = machines.filter((m) => findCondition(conditionsOf(m.status), 'OwnerRemediated'));
    expect(marked.map((m) => findCondition(conditionsOf(m.status), 'OwnerRemediated'))).toEqual([expect.objectContaining({ status: 'False', reason: 'RemediationDeferred', message: reason })]);
    expect(findCondition(conditionsOf((await ctx.store.get(msKey))?.status), 'Remediating')).toMatchObject({ status: 'True', reason: 'RemediationDeferred' });

    const upgraded = await ctx.store.get(cpKey);
    if (!upgraded) throw new Error('no control plane');
    await ctx.store.updateStatus({ ...upgraded, status: { version: 'v1.31.0' } });
    await runReconcile(machineSetReconciler, ctx, msKey);
    expect((await machinesOf(ctx, ms)).filter(isDeleting).map((m) => m.metadata.name)).toEqual(marked.map((m) => m.metadata.name));
  });
});
