/**
 * MachineDeployments and MachineSets hold their finalizers until what they control is gone
 * (Cluster API's `cluster.x-k8s.io/machinedeployment` and `cluster.x-k8s.io/machineset`), so a
 * reconcile that read the owner before its deletion finds its members and creates none again
 * (ADR 0115's known defect).
 */

import { describe, expect, it } from 'vitest';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { type ObjectKey, type StoredObject, isDeleting, keyOf } from '../../../../shared/contracts/object.js';
import { MACHINE_DEPLOYMENT_FINALIZER, machineDeploymentReconciler } from '../../../../functions/reconcile/core/machinedeployment/reconciler.js';
import { MACHINE_SET_FINALIZER, machineSetReconciler } from '../../../../functions/reconcile/core/machineset/reconciler.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import type { AnyReconciler } from '../../../../functions/reconcile/engine/skeleton/types.js';
import { machineDeploymentObject, workerTemplates } from '../../../support/core-fixtures.js';
import { testContext } from '../../../support/reconcile-context.js';

const MD_KEY: ObjectKey = { group: 'cluster.x-k8s.io', kind: 'MachineDeployment', namespace: 'default', name: 'md' };

/** An MD reconciled once (its MachineSet created) and that MachineSet reconciled once (its Machines created). */
async function deployment() {
  const ctx = testContext();
  for (const template of workerTemplates('md')) await ctx.store.create(template);
  const md = await ctx.store.create(machineDeploymentObject('md', 'c1', 2));
  await runReconcile(machineDeploymentReconciler, ctx, MD_KEY);
  const [ms] = await ctx.store.listByOwner(md.metadata.uid);
  if (!ms) throw new Error('no MachineSet created');
  await runReconcile(machineSetReconciler, ctx, keyOf(ms));
  const machines = (await ctx.store.listByOwner(ms.metadata.uid)).filter((o) => o.kind === 'Machine');
  return { ctx, md, ms: (await ctx.store.get(keyOf(ms))) ?? ms, machines };
}

describe('owners that wait for what they control', () => {
  it('carry their finalizers: the MachineDeployment from its first reconcile, the MachineSet from its creation', async () => {
    const { ctx, ms } = await deployment();
    expect((await ctx.store.get(MD_KEY))?.metadata.finalizers).toContain(MACHINE_DEPLOYMENT_FINALIZER);
    expect(ms.metadata.finalizers).toEqual([MACHINE_SET_FINALIZER]);
  });

  it.each<[string, 'MachineDeployment' | 'MachineSet', string, string]>([
    ['a MachineDeployment deletes its MachineSets and waits', 'MachineDeployment', 'MachineSet', 'WaitingForMachineSetsDeletion'],
    ['a MachineSet deletes its Machines and waits', 'MachineSet', 'Machine', 'WaitingForMachinesDeletion'],
  ])('%s, then lets go when they are gone', async (_name, ownerKind, memberKind, reason) => {
    const { ctx, md, ms } = await deployment();
    const owner: StoredObject = ownerKind === 'MachineDeployment' ? md : ms;
    const reconciler: AnyReconciler = ownerKind === 'MachineDeployment' ? machineDeploymentReconciler : machineSetReconciler;
    const members = async () => (await ctx.store.listByOwner(owner.metadata.uid)).filter((o) => o.kind === memberKind);
    expect((await members()).length).toBeGreaterThan(0);

    await ctx.store.delete(keyOf(owner));
    await runReconcile(reconciler, ctx, keyOf(owner));
    const waiting = await ctx.store.get(keyOf(owner));
    expect(waiting && isDeleting(waiting)).toBe(true);
    expect(findCondition(conditionsOf(waiting?.status), 'Deleting')).toMatchObject({ status: 'True', reason });
    // Every member is deleted: gone, or held by its own finalizer.
    for (const member of await members()) expect(isDeleting(member)).toBe(true);

    for (const member of await members()) {
      await ctx.store.update({ ...member, metadata: { ...member.metadata, finalizers: [] } });
      await ctx.store.delete(keyOf(member)).catch(() => {});
    }
    expect(await members()).toEqual([]);
    await runReconcile(reconciler, ctx, keyOf(owner));
    expect(await ctx.store.get(keyOf(owner))).toBeUndefined();
  });

  it('a MachineDeployment read before its deletion finds its deleting MachineSet and creates no other', async () => {
    const { ctx, md, ms } = await deployment();
    // The MachineSet's deletion landed (the Cluster's deletion deletes it directly); the
    // MachineDeployment is still as an in-flight reconcile read it.
    await ctx.store.delete(keyOf(ms));
    expect(isDeleting((await ctx.store.get(keyOf(ms))) ?? ms)).toBe(true);
    await runReconcile(machineDeploymentReconciler, ctx, MD_KEY);
    const sets = (await ctx.store.listByOwner(md.metadata.uid)).filter((o) => o.kind === 'MachineSet');
    expect(sets.map((s) => s.metadata.name)).toEqual([ms.metadata.name]);
    // Nor does it scale the deleting MachineSet.
    expect(sets[0]?.spec?.replicas).toBe(ms.spec?.replicas);
  });
});
