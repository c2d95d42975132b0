/**
 * Cluster API's split of a Machine template (mdutil.MachineTemplateUpToDate): a change of the
 * version, the bootstrap or infrastructure reference or the failure domain needs new Machines;
 * the rest is changed in place.
 */

import { describe, expect, it } from 'vitest';
import { sameRolloutFields, withEntries, withInPlaceFields } from '../../../functions/reconcile/core/machine-template-fields.js';

const BASE = {
  clusterName: 'c1',
  version: 'v1.32.0',
  bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfigTemplate', name: 'w' } },
  infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachineTemplate', name: 'w' },
};

describe('sameRolloutFields', () => {
  it.each<[string, Record<string, unknown>, boolean]>([
    ['the same spec', {}, true],
    ['another version', { version: 'v1.33.0' }, false],
    ['another infrastructure template', { infrastructureRef: { ...BASE.infrastructureRef, name: 'w2' } }, false],
    ['another bootstrap template', { bootstrap: { configRef: { ...BASE.bootstrap.configRef, name: 'w2' } } }, false],
    ['a failure domain', { failureDomain: 'us-east-1a' }, false],
    ['an empty failure domain', { failureDomain: '' }, true],
    ['minReadySeconds', { minReadySeconds: 30 }, true],
    ['readinessGates', { readinessGates: [{ conditionType: 'X' }] }, true],
    ['taints', { taints: [{ key: 'k', effect: 'NoSchedule' }] }, true],
    ['the deletion timeouts', { deletion: { nodeDrainTimeoutSeconds: 1, nodeVolumeDetachTimeoutSeconds: 2, nodeDeletionTimeoutSeconds: 3 } }, true],
    ['a providerID (never in a template)', { providerID: 'aws:///x' }, true],
  ])('%s: %s', (_case, change, same) => {
    expect(sameRolloutFields(BASE, { ...BASE, ...change })).toBe(same);
  });
});

describe('withInPlaceFields', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>]>([
    ['sets what the source sets', BASE, { minReadySeconds: 5, deletion: { nodeDrainTimeoutSeconds: 9 } }, { ...BASE, minReadySeconds: 5, deletion: { nodeDrainTimeoutSeconds: 9 } }],
    ['drops what the source does not set', { ...BASE, taints: [{ key: 'k', effect: 'NoSchedule' }], deletion: { nodeDrainTimeoutSeconds: 9 } }, {}, BASE],
    ['keeps the rollout fields of the target', BASE, { version: 'v9.9.9', minReadySeconds: 1 }, { ...BASE, minReadySeconds: 1 }],
  ])('%s', (_case, target, source, expected) => {
    expect(withInPlaceFields(target, source)).toEqual(expected);
  });

  it('does not share the source values', () => {
    const source = { taints: [{ key: 'k', effect: 'NoSchedule' }] };
    const result = withInPlaceFields({}, source);
    expect(result.taints).toEqual(source.taints);
    expect(result.taints).not.toBe(source.taints);
  });
});

describe('withEntries', () => {
  it('sets the wanted entries over the others and keeps the rest', () => {
    expect(withEntries({ a: '1', b: '2' }, { b: '3', c: '4' })).toEqual({ a: '1', b: '3', c: '4' });
    expect(withEntries(undefined, { c: '4' })).toEqual({ c: '4' });
  });
});
