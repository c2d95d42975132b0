import { describe, expect, it } from 'vitest';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import {
  LABEL_TEMPLATE_HASH,
  machineSetName,
  newMachineSet,
  rolloutStrategyOf,
  templateHash,
} from '../../../../functions/reconcile/core/machinedeployment/machineset-factory.js';
import { machineDeploymentPhase } from '../../../../functions/reconcile/core/machinedeployment/status.js';
import { machineDeploymentReconciler } from '../../../../functions/reconcile/core/machinedeployment/reconciler.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { machineDeploymentObject } from '../../../support/core-fixtures.js';
import { CountingStore } from '../../../support/counting-store.js';
import { testContext } from '../../../support/reconcile-context.js';

function stored(obj: ReturnType<typeof machineDeploymentObject>): StoredObject {
  return {
    ...obj,
    metadata: { ...obj.metadata, namespace: 'default', uid: 'md-uid', resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
  };
}

describe('machineDeploymentPhase', () => {
  it.each<[number, number, string]>([
    [3, 1, 'ScalingUp'],
    [1, 3, 'ScalingDown'],
    [2, 2, 'Running'],
    [0, 0, 'Running'],
  ])('desired %i, current %i → %s', (desired, current, phase) => {
    expect(machineDeploymentPhase(desired, current)).toBe(phase);
  });
});

describe('templateHash', () => {
  it.each<[string, string, boolean]>([
    ['same version, same hash', 'v1.31.0', true],
    ['version change, new hash', 'v1.32.0', false],
  ])('%s', (_name, version, same) => {
    const a = templateHash(stored(machineDeploymentObject('md', 'c1', 2)));
    const b = templateHash(stored(machineDeploymentObject('md', 'c1', 5, version)));
    expect(a === b).toBe(same);
    expect(a).toMatch(/^[0-9a-f]{10}$/);
  });
});

describe('rolloutStrategyOf', () => {
  it.each<[string, unknown, unknown]>([
    ['defaults', undefined, { type: 'RollingUpdate', maxSurge: 1, maxUnavailable: 0 }],
    ['percentages', { type: 'RollingUpdate', rollingUpdate: { maxSurge: '50%', maxUnavailable: '50%' } }, { type: 'RollingUpdate', maxSurge: 2, maxUnavailable: 2 }],
    ['both resolving to zero: one may be unavailable', { rollingUpdate: { maxSurge: 0, maxUnavailable: '10%' } }, { type: 'RollingUpdate', maxSurge: 0, maxUnavailable: 1 }],
    ['never more unavailable than replicas', { rollingUpdate: { maxSurge: 0, maxUnavailable: 9 } }, { type: 'RollingUpdate', maxSurge: 0, maxUnavailable: 4 }],
    ['OnDelete surges nothing', { type: 'OnDelete', rollingUpdate: { maxSurge: 3 } }, { type: 'OnDelete', maxSurge: 0, maxUnavailable: 0 }],
  ])('%s', (_name, strategy, expected) => {
    const md = stored(machineDeploymentObject('md', 'c1', 4));
    md.spec = { ...md.spec, rollout: strategy === undefined ? undefined : { strategy } };
    expect(rolloutStrategyOf(md, 4)).toEqual(expected);
  });

  it('a MachineDeployment of no replicas takes nothing down', () => {
    const md = stored(machineDeploymentObject('md', 'c1', 0));
    md.spec = { ...md.spec, rollout: { strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: '50%' } } } };
    expect(rolloutStrategyOf(md, 0)).toEqual({ type: 'RollingUpdate', maxSurge: 0, maxUnavailable: 0 });
  });
});

describe('newMachineSet', () => {
  it('names, labels, selects and owns by template hash', () => {
    const md = stored(machineDeploymentObject('md', 'c1', 2));
    const ms = newMachineSet(md, 'abcdef0123', 1);
    expect(ms.metadata.name).toBe(machineSetName(md, 'abcdef0123'));
    expect(ms.metadata.labels?.[LABEL_TEMPLATE_HASH]).toBe('abcdef0123');
    expect(ms.metadata.ownerReferences).toEqual([expect.objectContaining({ uid: 'md-uid', controller: true })]);
    expect(ms.spec).toMatchObject({
      replicas: 1,
      clusterName: 'c1',
      selector: { matchLabels: { 'cluster.x-k8s.io/deployment-name': 'md', [LABEL_TEMPLATE_HASH]: 'abcdef0123' } },
      template: { metadata: { labels: { [LABEL_TEMPLATE_HASH]: 'abcdef0123' } }, spec: { version: 'v1.31.0' } },
    });
  });
});

describe('machineDeploymentReconciler', () => {
  it('creates one MachineSet for the template, and a second run writes nothing', async () => {
    const ctx = testContext();
    const counting = new CountingStore(ctx.store);
    const md = await ctx.store.create(machineDeploymentObject('md', 'c1', 2));
    const key = { group: 'cluster.x-k8s.io', kind: 'MachineDeployment', namespace: 'default', name: 'md' };
    await runReconcile(machineDeploymentReconciler, { ...ctx, store: counting }, key);
    const sets = await ctx.store.listByOwner(md.metadata.uid);
    expect(sets.map((s) => [s.kind, s.spec?.replicas])).toEqual([['MachineSet', 2]]);
    const before = counting.counts.writes;
    await runReconcile(machineDeploymentReconciler, { ...ctx, store: counting }, key);
    expect(counting.counts.writes).toBe(before);
  });
});
