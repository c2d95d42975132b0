/**
 * A MachineDeployment's own `spec.paused` (Cluster API's MachineDeployment controller): it stops
 * rollouts, not the reconcile; the MachineSets it has still follow its replicas.
 */
import { describe, expect, it } from 'vitest';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { recordAt } from '../../../../shared/contracts/json.js';
import type { KubeObject, ObjectKey, StoredObject } from '../../../../shared/contracts/object.js';
import { LABEL_TEMPLATE_HASH } from '../../../../functions/reconcile/core/machinedeployment/machineset-factory.js';
import { MACHINE_DEPLOYMENT_FINALIZER, machineDeploymentReconciler } from '../../../../functions/reconcile/core/machinedeployment/reconciler.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { machineDeploymentObject } from '../../../support/core-fixtures.js';
import { testContext } from '../../../support/reconcile-context.js';

const KEY: ObjectKey = { group: 'cluster.x-k8s.io', kind: 'MachineDeployment', namespace: 'default', name: 'md' };

function paused(md: KubeObject, value: boolean, replicas?: number, version?: string): KubeObject {
  const spec = md.spec ?? {};
  const template = recordAt(spec, 'template') ?? {};
  return {
    ...md,
    spec: {
      ...spec,
      paused: value,
      ...(replicas === undefined ? {} : { replicas }),
      ...(version === undefined ? {} : { template: { ...template, spec: { ...recordAt(template, 'spec'), version } } }),
    },
  };
}

async function machineSets(ctx: ReturnType<typeof testContext>, md: StoredObject): Promise<[string | undefined, unknown][]> {
  const sets = await ctx.store.listByOwner(md.metadata.uid);
  return sets
    .filter((s) => s.kind === 'MachineSet')
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
    .map((s) => [s.metadata.labels?.[LABEL_TEMPLATE_HASH], s.spec?.replicas]);
}

async function current(ctx: ReturnType<typeof testContext>): Promise<StoredObject> {
  const md = await ctx.store.get(KEY);
  if (!md) throw new Error('the MachineDeployment is gone');
  return md;
}

describe('a MachineDeployment with spec.paused', () => {
  it('rolls out no new template but scales the MachineSet it has, and rolls out once unpaused', async () => {
    const ctx = testContext();
    await ctx.store.create(machineDeploymentObject('md', 'c1', 2));
    await runReconcile(machineDeploymentReconciler, ctx, KEY);
    const [first] = await machineSets(ctx, await current(ctx));
    const firstHash = first?.[0];
    expect(first).toEqual([firstHash, 2]);

    await ctx.store.update(paused(await current(ctx), true, 3, 'v1.32.0'));
    await runReconcile(machineDeploymentReconciler, ctx, KEY);
    const whilePaused = await current(ctx);
    expect(await machineSets(ctx, whilePaused)).toEqual([[firstHash, 3]]);
    // Not a pause of the reconcile: Cluster API's Paused condition names only the Cluster and the annotation.
    const condition = findCondition(conditionsOf(whilePaused.status), 'Paused');
    expect([condition?.status, condition?.reason]).toEqual(['False', 'NotPaused']);
    expect(whilePaused.status?.observedGeneration).toBe(whilePaused.metadata.generation);

    await ctx.store.update(paused(whilePaused, false));
    await runReconcile(machineDeploymentReconciler, ctx, KEY);
    const sets = await machineSets(ctx, await current(ctx));
    // The new template's MachineSet appears with the one surge replica; the old one waits for it.
    expect(sets).toHaveLength(2);
    expect(sets).toContainEqual([firstHash, 3]);
    expect(sets.find(([hash]) => hash !== firstHash)?.[1]).toBe(1);
  });

  it('paused mid-rollout with the current MachineSet saturated: the old one is emptied (by the desired-replicas it was given)', async () => {
    const ctx = testContext();
    await ctx.store.create(machineDeploymentObject('md', 'c1', 2));
    await runReconcile(machineDeploymentReconciler, ctx, KEY);
    const available = async (name: string, owner: StoredObject) => {
      const ownerReferences = [{ apiVersion: owner.apiVersion, kind: 'MachineSet', name: owner.metadata.name, uid: owner.metadata.uid, controller: true }];
      const machine = await ctx.store.create({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Machine', metadata: { name, namespace: 'default', labels: { 'cluster.x-k8s.io/cluster-name': 'c1' }, ownerReferences }, spec: { clusterName: 'c1' } });
      await ctx.store.updateStatus({ ...machine, status: { conditions: [{ type: 'Available', status: 'True', reason: 'Available', lastTransitionTime: '2026-01-01T00:00:00Z' }] } });
    };
    const setsNow = async () => (await ctx.store.listByOwner((await current(ctx)).metadata.uid)).filter((o) => o.kind === 'MachineSet');
    const [old] = await setsNow();
    if (!old) throw new Error('no MachineSet');
    await available('old-1', old);
    await available('old-2', old);
    await ctx.store.update(paused(await current(ctx), false, 2, 'v1.32.0'));
    await runReconcile(machineDeploymentReconciler, ctx, KEY);
    const newest = (await setsNow()).find((ms) => ms.metadata.name !== old.metadata.name);
    if (!newest) throw new Error('no new MachineSet');
    // The rollout got this far: two new Machines available, one old one left.
    await ctx.store.update({ ...newest, spec: { ...newest.spec, replicas: 2 } });
    const oldNow = (await setsNow()).find((ms) => ms.metadata.name === old.metadata.name);
    if (!oldNow) throw new Error('the old MachineSet is gone');
    await ctx.store.update({ ...oldNow, spec: { ...oldNow.spec, replicas: 1 } });
    await ctx.store.delete({ group: 'cluster.x-k8s.io', kind: 'Machine', namespace: 'default', name: 'old-2' });
    await available('new-1', newest);
    await available('new-2', newest);

    await ctx.store.update(paused(await current(ctx), true));
    await runReconcile(machineDeploymentReconciler, ctx, KEY);
    expect(await machineSets(ctx, await current(ctx))).toEqual(
      [
        [newest.metadata.labels?.[LABEL_TEMPLATE_HASH], 2],
        [old.metadata.labels?.[LABEL_TEMPLATE_HASH], 0],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  });

  it('made paused, creates no MachineSet, and still takes its finalizer', async () => {
    const ctx = testContext();
    await ctx.store.create(paused(machineDeploymentObject('md', 'c1', 2), true));
    await runReconcile(machineDeploymentReconciler, ctx, KEY);
    const md = await current(ctx);
    expect(await machineSets(ctx, md)).toEqual([]);
    expect(md.metadata.finalizers).toEqual([MACHINE_DEPLOYMENT_FINALIZER]);
  });
});
