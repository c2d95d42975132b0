import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import {
  currentRevisionAnnotations,
  machineSetAnnotations,
  revisionOf,
} from '../../../../functions/reconcile/core/machinedeployment/machineset-annotations.js';
import type { RolloutStrategy } from '../../../../functions/reconcile/core/machinedeployment/rollout-plan.js';

const REVISION = 'machinedeployment.clusters.x-k8s.io/revision';
const HISTORY = 'machinedeployment.clusters.x-k8s.io/revision-history';
const ROLLING: RolloutStrategy = { type: 'RollingUpdate', maxSurge: 1, maxUnavailable: 0 };
const ON_DELETE: RolloutStrategy = { type: 'OnDelete', maxSurge: 0, maxUnavailable: 0 };

function object(name: string, annotations?: Record<string, string>): KubeObject {
  return { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineSet', metadata: { name, namespace: 'default', ...(annotations ? { annotations } : {}) } };
}

const rev = (name: string, revision: string, history?: string) => object(name, { [REVISION]: revision, ...(history ? { [HISTORY]: history } : {}) });

describe('revisionOf', () => {
  it.each<[string, Record<string, string> | undefined, number | undefined]>([
    ['none: 0', undefined, 0],
    ['a number', { [REVISION]: '12' }, 12],
    ['not a number: unreadable', { [REVISION]: 'two' }, undefined],
    ['empty: unreadable', { [REVISION]: '' }, undefined],
  ])('%s', (_case, annotations, expected) => {
    expect(revisionOf(object('ms', annotations))).toBe(expected);
  });
});

describe('the current MachineSet’s revision (ComputeRevisionAnnotations)', () => {
  it.each<[string, KubeObject | undefined, KubeObject[], Record<string, string>]>([
    ['the first one: 1', undefined, [], { [REVISION]: '1' }],
    ['a new one: one past the highest', undefined, [rev('a', '1'), rev('b', '3')], { [REVISION]: '4' }],
    ['already the highest: kept', rev('c', '4'), [rev('a', '1'), rev('b', '3')], { [REVISION]: '4' }],
    ['higher than one past the others (they were deleted): never lowered', rev('c', '9'), [rev('a', '1')], { [REVISION]: '9' }],
    ['current again: the next revision, its own kept in the history', rev('a', '1'), [rev('b', '2')], { [REVISION]: '3', [HISTORY]: '1' }],
    ['current again with a history: appended', rev('a', '3', '1'), [rev('b', '4')], { [REVISION]: '5', [HISTORY]: '1,3' }],
    ['a history is carried when nothing changes', rev('a', '5', '1,3'), [rev('b', '4')], { [REVISION]: '5', [HISTORY]: '1,3' }],
    ['an unreadable old revision counts as none', undefined, [rev('a', 'x'), rev('b', '2')], { [REVISION]: '3' }],
    ['an unreadable own revision is replaced, not kept in the history', rev('c', 'x'), [rev('b', '2')], { [REVISION]: '3' }],
    ['one written before revisions (none): gets one, no history', object('c'), [object('a')], { [REVISION]: '1' }],
  ])('%s', (_case, current, others, expected) => {
    expect(currentRevisionAnnotations(current, others)).toEqual(expected);
  });
});

describe('what every MachineSet carries of its MachineDeployment', () => {
  const md = object('md', {
    'team.example.com/owner': 'a',
    'kubectl.kubernetes.io/last-applied-configuration': '{}',
    [REVISION]: '7',
    [HISTORY]: '1',
    'machinedeployment.clusters.x-k8s.io/desired-replicas': '9',
    'machinedeployment.clusters.x-k8s.io/max-replicas': '9',
    'cluster.x-k8s.io/conversion-data': '{}',
  });
  const shared = { 'team.example.com/owner': 'a', 'machinedeployment.clusters.x-k8s.io/desired-replicas': '3' };

  it.each<[string, RolloutStrategy, KubeObject | undefined, boolean, Record<string, string>]>([
    ['a new current one, rolling', ROLLING, undefined, true, { ...shared, 'machinedeployment.clusters.x-k8s.io/max-replicas': '4', [REVISION]: '3', 'machineset.cluster.x-k8s.io/disable-machine-create': 'false' }],
    ['an old one, rolling: revision untouched, creating allowed', ROLLING, rev('a', '1'), false, { ...shared, 'machinedeployment.clusters.x-k8s.io/max-replicas': '4', 'machineset.cluster.x-k8s.io/disable-machine-create': 'false' }],
    ['an old one, OnDelete: creating disabled, no surge', ON_DELETE, rev('a', '1'), false, { ...shared, 'machinedeployment.clusters.x-k8s.io/max-replicas': '3', 'machineset.cluster.x-k8s.io/disable-machine-create': 'true' }],
    ['the current one, OnDelete: creating allowed', ON_DELETE, rev('b', '2'), true, { ...shared, 'machinedeployment.clusters.x-k8s.io/max-replicas': '3', [REVISION]: '2', 'machineset.cluster.x-k8s.io/disable-machine-create': 'false' }],
  ])('%s', (_case, strategy, ms, current, expected) => {
    const input = { md, replicas: 3, strategy, machineSets: [rev('a', '1'), rev('b', '2')] };
    expect(machineSetAnnotations(input, ms, current)).toEqual(expected);
  });
});
