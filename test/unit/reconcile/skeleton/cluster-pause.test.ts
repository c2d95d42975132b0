import { describe, expect, it } from 'vitest';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import type { AnyReconciler, Scope } from '../../../../functions/reconcile/engine/skeleton/types.js';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { ANNOTATION_PAUSED, type KubeObject, LABEL_CLUSTER_NAME, type ObjectKey } from '../../../../shared/contracts/object.js';
import { clusterObject } from '../../../support/core-fixtures.js';
import { widget, widgetKey, WIDGET } from '../../../support/probe-reconciler.js';
import { testContext } from '../../../support/reconcile-context.js';

const FINALIZER = 'widget.test.capless.io';
const CLUSTER_KEY: ObjectKey = { group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: 'default', name: 'c1' };

/** A kind with a finalizer, whose phases record that they ran and whose status has a field of its own. */
function widgetReconciler(ran: string[], pausesWithCluster?: false): AnyReconciler {
  return {
    kind: WIDGET,
    ...(pausesWithCluster === false ? { pausesWithCluster } : {}),
    finalizer: FINALIZER,
    watches: [],
    createScope: (ctx, object): Scope => ({ ctx, object, conditions: [] }),
    phases: [() => void ran.push('phases')],
    deletePhases: [() => void ran.push('delete phases')],
    computeStatus: () => ({ fields: { probed: true } }),
  };
}

type ClusterState = 'absent' | 'running' | 'spec.paused' | 'annotated';
type Naming = 'spec.clusterName' | 'label' | 'ownerReference' | 'nothing';

function clusterIn(state: Exclude<ClusterState, 'absent'>): KubeObject {
  const cluster = clusterObject('c1');
  if (state === 'spec.paused') return { ...cluster, spec: { ...cluster.spec, paused: true } };
  if (state === 'annotated') return { ...cluster, metadata: { ...cluster.metadata, annotations: { [ANNOTATION_PAUSED]: '' } } };
  return cluster;
}

function widgetNaming(naming: Naming, clusterUid: string | undefined, ownPause: boolean, ownSpecPaused = false): KubeObject {
  const base = widget('w');
  const metadata = {
    ...base.metadata,
    ...(naming === 'label' ? { labels: { [LABEL_CLUSTER_NAME]: 'c1' } } : {}),
    ...(naming === 'ownerReference' && clusterUid ? { ownerReferences: [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: 'c1', uid: clusterUid }] } : {}),
    ...(ownPause ? { annotations: { [ANNOTATION_PAUSED]: '' } } : {}),
  };
  const spec = { ...base.spec, ...(naming === 'spec.clusterName' ? { clusterName: 'c1' } : {}), ...(ownSpecPaused ? { paused: true } : {}) };
  return { ...base, metadata, spec };
}

describe('an object is paused with its Cluster (Cluster API util/paused)', () => {
  it.each<{ name: string; cluster: ClusterState; naming: Naming; ownPause?: true; ownSpecPaused?: true; pausesWithCluster?: false; message?: string }>([
    { name: 'Cluster spec.paused, named by spec.clusterName', cluster: 'spec.paused', naming: 'spec.clusterName', message: 'Cluster spec.paused is set to true' },
    { name: 'Cluster spec.paused, named by the cluster-name label', cluster: 'spec.paused', naming: 'label', message: 'Cluster spec.paused is set to true' },
    { name: 'Cluster spec.paused, named by an ownerReference', cluster: 'spec.paused', naming: 'ownerReference', message: 'Cluster spec.paused is set to true' },
    { name: 'its own annotation, Cluster running', cluster: 'running', naming: 'spec.clusterName', ownPause: true, message: 'Widget has the cluster.x-k8s.io/paused annotation' },
    {
      name: 'both',
      cluster: 'spec.paused',
      naming: 'label',
      ownPause: true,
      message: 'Cluster spec.paused is set to true, Widget has the cluster.x-k8s.io/paused annotation',
    },
    // The annotation pauses the Cluster's own controller only, as in Cluster API.
    { name: 'not: the Cluster only annotated', cluster: 'annotated', naming: 'spec.clusterName' },
    { name: 'not: the Cluster running', cluster: 'running', naming: 'label' },
    { name: 'not: the Cluster absent', cluster: 'absent', naming: 'spec.clusterName' },
    { name: 'not: the object names no Cluster', cluster: 'spec.paused', naming: 'nothing' },
    // A MachineDeployment's spec.paused stops its rollouts, in its own phases; util/paused reads only the Cluster's.
    { name: "not: the object's own spec.paused", cluster: 'running', naming: 'spec.clusterName', ownSpecPaused: true },
    // An IPAM pool carries the cluster-name label for clusterctl move alone (ADR 0148).
    { name: 'not: a kind that does not pause with its Cluster', cluster: 'spec.paused', naming: 'label', pausesWithCluster: false },
    {
      name: 'a kind that does not pause with its Cluster, by its own annotation',
      cluster: 'spec.paused',
      naming: 'label',
      ownPause: true,
      pausesWithCluster: false,
      message: 'Widget has the cluster.x-k8s.io/paused annotation',
    },
  ])('$name', async ({ cluster, naming, ownPause, ownSpecPaused, pausesWithCluster, message }) => {
    const ctx = testContext();
    const created = cluster === 'absent' ? undefined : await ctx.store.create(clusterIn(cluster));
    const before = await ctx.store.create(widgetNaming(naming, created?.metadata.uid, ownPause === true, ownSpecPaused === true));
    const ran: string[] = [];
    await runReconcile(widgetReconciler(ran, pausesWithCluster), ctx, widgetKey('w'));
    const after = await ctx.store.get(widgetKey('w'));
    const paused = findCondition(conditionsOf(after?.status), 'Paused');
    if (message) {
      expect({ ran, paused: paused?.status, message: paused?.message, reason: paused?.reason }).toEqual({ ran: [], paused: 'True', message, reason: 'Paused' });
      // Left as it was: no finalizer, no status of the kind's own, no observedGeneration.
      expect(after?.metadata.finalizers).toBeUndefined();
      expect(after?.status?.probed).toBeUndefined();
      expect(after?.status?.observedGeneration).toBeUndefined();
    } else {
      expect({ ran, paused: paused?.status, reason: paused?.reason }).toEqual({ ran: ['phases'], paused: 'False', reason: 'NotPaused' });
      expect(after?.metadata.finalizers).toEqual([FINALIZER]);
      expect(after?.status?.probed).toBe(true);
    }
    expect(after?.metadata.generation).toBe(before.metadata.generation);
  });

  it('keeps the status it found and writes nothing more while the Cluster stays paused', async () => {
    const ctx = testContext();
    await ctx.store.create(clusterIn('running'));
    await ctx.store.create(widgetNaming('spec.clusterName', undefined, false));
    await runReconcile(widgetReconciler([]), ctx, widgetKey('w'));
    const running = await ctx.store.get(CLUSTER_KEY);
    if (!running) throw new Error('no Cluster');
    await ctx.store.update({ ...running, spec: { ...running.spec, paused: true } });
    await runReconcile(widgetReconciler([]), ctx, widgetKey('w'));
    const paused = await ctx.store.get(widgetKey('w'));
    expect(paused?.status?.probed).toBe(true);
    expect(paused?.status?.observedGeneration).toBe(1);
    expect(findCondition(conditionsOf(paused?.status), 'Paused')?.status).toBe('True');
    await runReconcile(widgetReconciler([]), ctx, widgetKey('w'));
    expect((await ctx.store.get(widgetKey('w')))?.metadata.resourceVersion).toBe(paused?.metadata.resourceVersion);
  });

  it('holds a deletion while the Cluster is paused: no delete phase runs and the finalizer stays', async () => {
    const ctx = testContext();
    const running = await ctx.store.create(clusterIn('running'));
    await ctx.store.create(widgetNaming('spec.clusterName', undefined, false));
    const ran: string[] = [];
    await runReconcile(widgetReconciler(ran), ctx, widgetKey('w'));
    await ctx.store.update({ ...running, spec: { ...running.spec, paused: true } });
    await ctx.store.delete(widgetKey('w'));
    await runReconcile(widgetReconciler(ran), ctx, widgetKey('w'));
    expect(ran).toEqual(['phases']);
    expect((await ctx.store.get(widgetKey('w')))?.metadata.finalizers).toEqual([FINALIZER]);
    const unpaused = await ctx.store.get(CLUSTER_KEY);
    if (!unpaused) throw new Error('no Cluster');
    await ctx.store.update({ ...unpaused, spec: { ...unpaused.spec, paused: false } });
    await runReconcile(widgetReconciler(ran), ctx, widgetKey('w'));
    expect(ran).toEqual(['phases', 'delete phases']);
    expect(await ctx.store.get(widgetKey('w'))).toBeUndefined();
  });

  it('gives no finalizer back to an object whose finalizers were taken off while paused (clusterctl move deletes the source so)', async () => {
    const ctx = testContext();
    const running = await ctx.store.create(clusterIn('running'));
    await ctx.store.create(widgetNaming('spec.clusterName', undefined, false));
    await runReconcile(widgetReconciler([]), ctx, widgetKey('w'));
    await ctx.store.update({ ...running, spec: { ...running.spec, paused: true } });
    const owned = await ctx.store.get(widgetKey('w'));
    if (!owned) throw new Error('no Widget');
    await ctx.store.update({ ...owned, metadata: { ...owned.metadata, finalizers: [] } });
    await runReconcile(widgetReconciler([]), ctx, widgetKey('w'));
    expect((await ctx.store.get(widgetKey('w')))?.metadata.finalizers ?? []).toEqual([]);
    await ctx.store.delete(widgetKey('w'));
    expect(await ctx.store.get(widgetKey('w'))).toBeUndefined();
  });
});
