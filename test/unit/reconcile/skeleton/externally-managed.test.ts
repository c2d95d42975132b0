import { describe, expect, it } from 'vitest';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import type { AnyReconciler, Scope } from '../../../../functions/reconcile/engine/skeleton/types.js';
import { ANNOTATION_MANAGED_BY } from '../../../../shared/contracts/object.js';
import { WIDGET, widget, widgetKey } from '../../../support/probe-reconciler.js';
import { testContext } from '../../../support/reconcile-context.js';

/**
 * An InfraCluster an external system manages (Cluster API's infra-cluster contract, "Externally
 * managed infrastructure"; ADR 0150): its provider's reconcile changes nothing, deletion included.
 */
const FINALIZER = 'widget.test.capless.io';

function reconciler(ran: string[], skipsExternallyManaged: boolean): AnyReconciler {
  return {
    kind: WIDGET,
    finalizer: FINALIZER,
    ...(skipsExternallyManaged ? { skipsExternallyManaged: true as const } : {}),
    watches: [],
    createScope: (ctx, object): Scope => ({ ctx, object, conditions: [] }),
    phases: [() => void ran.push('phases')],
    deletePhases: [() => void ran.push('delete phases')],
    computeStatus: () => ({ fields: { probed: true } }),
  };
}

describe('an externally managed object', () => {
  it.each<{ name: string; skips: boolean; managed: boolean; deleting: boolean; ran: string[] }>([
    { name: 'is left alone by a kind that skips them', skips: true, managed: true, deleting: false, ran: [] },
    { name: 'is left alone while deleting, its finalizers kept', skips: true, managed: true, deleting: true, ran: [] },
    { name: 'not: the kind skips them, the object has no annotation', skips: true, managed: false, deleting: false, ran: ['phases'] },
    { name: 'not: the annotation on a kind that does not skip them', skips: false, managed: true, deleting: false, ran: ['phases'] },
  ])('$name', async ({ skips, managed, deleting, ran: expected }) => {
    const ctx = testContext();
    const base = widget('w');
    const created = await ctx.store.create({
      ...base,
      metadata: {
        ...base.metadata,
        ...(managed ? { annotations: { [ANNOTATION_MANAGED_BY]: 'external-system' } } : {}),
        ...(deleting ? { finalizers: [FINALIZER] } : {}),
      },
    });
    const before = deleting ? (await ctx.store.delete(widgetKey('w'))).object : created;
    const ran: string[] = [];
    await runReconcile(reconciler(ran, skips), ctx, widgetKey('w'));
    const after = await ctx.store.get(widgetKey('w'));
    expect(ran).toEqual(expected);
    if (expected.length === 0) {
      expect(after?.metadata.resourceVersion).toBe(before?.metadata.resourceVersion);
      expect(after?.metadata.finalizers ?? []).toEqual(deleting ? [FINALIZER] : []);
    } else {
      expect(after?.metadata.finalizers).toEqual([FINALIZER]);
      expect(after?.status?.probed).toBe(true);
    }
  });
});
