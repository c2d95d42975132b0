/**
 * One drain pass's plan and its condition message (Cluster API's EvictPods and
 * EvictionResult.ConditionMessage): drain order, terminating Pods, Pods waited for, and the
 * message's stable shape.
 */
import { describe, expect, it } from 'vitest';
import type { WorkloadPod } from '../../../../../shared/ports/workload-cluster.js';
import { type EvictionResult, drainCompleted, drainConditionMessage, planEvictions, podList } from '../../../../../functions/reconcile/core/machine/drain/evictions.js';
import type { PodDrainStatus } from '../../../../../functions/reconcile/core/machine/drain/pod-filters.js';

const pod = (name: string, fields: Partial<WorkloadPod> = {}): WorkloadPod => ({ namespace: 'default', name, labels: {}, annotations: {}, localStorage: false, persistentVolumeClaims: [], ...fields });
const drain = (order?: number): PodDrainStatus => ({ behavior: 'Drain', reason: 'Okay', ...(order !== undefined ? { order } : {}) });
const names = (pods: readonly WorkloadPod[]) => pods.map((p) => p.name);

const empty = (): EvictionResult => ({ deletionTimestampSet: [], failed: new Map(), evictLater: [], waitCompletedNow: [], waitCompletedLater: [], notFound: [], ignored: [] });

describe('planEvictions', () => {
  it('evicts the lowest order first, sorted by namespace/name; terminating Pods are waited for; skipped ones ignored', () => {
    const plan = planEvictions([
      { pod: pod('z-web'), status: drain() },
      { pod: pod('a-web'), status: drain(0) },
      { pod: pod('db'), status: drain(10) },
      { pod: pod('leaving', { deletionTimestamp: '2026-12-03T10:00:00Z' }), status: drain() },
      { pod: pod('agent'), status: { behavior: 'Skip', reason: 'Skip' } },
      { pod: pod('job'), status: { behavior: 'WaitCompleted', reason: 'WaitCompleted' } },
      { pod: pod('late-job'), status: { behavior: 'WaitCompleted', reason: 'WaitCompleted', order: 20 } },
    ]);
    expect(names(plan.evictNow)).toEqual(['a-web', 'z-web']);
    expect(names(plan.evictLater)).toEqual(['db']);
    expect(names(plan.terminating)).toEqual(['leaving']);
    expect(names(plan.waitCompletedNow)).toEqual(['job']);
    expect(names(plan.waitCompletedLater)).toEqual(['late-job']);
    expect(names(plan.ignored)).toEqual(['agent']);
  });

  it('a negative order goes before the default', () => {
    const plan = planEvictions([{ pod: pod('web'), status: drain() }, { pod: pod('first'), status: drain(-5) }]);
    expect(names(plan.evictNow)).toEqual(['first']);
    expect(names(plan.evictLater)).toEqual(['web']);
  });
});

describe('drainConditionMessage', () => {
  it('is empty once nothing is left to wait for (Pods not found or ignored do not count)', () => {
    expect(drainCompleted({ ...empty(), notFound: [pod('gone')], ignored: [pod('agent')] })).toBe(true);
    expect(drainConditionMessage(empty(), '2026-12-03T10:00:00Z')).toBe('');
  });

  it('names the Pods by what the drain waits on, three at most per line', () => {
    const result: EvictionResult = {
      ...empty(),
      deletionTimestampSet: [pod('a'), pod('b'), pod('c'), pod('d'), pod('e')],
      failed: new Map([
        ["Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 2 healthy pods and has 2 currently", [pod('web-1')]],
        ['Internal error occurred: boom', [pod('x'), pod('y')]],
      ]),
      waitCompletedNow: [pod('job')],
      evictLater: [pod('db')],
      waitCompletedLater: [pod('late-job')],
    };
    expect(drainConditionMessage(result, '2026-12-03T10:00:00Z')).toBe(
      [
        'Drain not completed yet (started at 2026-12-03T10:00:00Z):',
        '* Pods default/a, default/b, default/c, ... (2 more): deletionTimestamp set, but still not removed from the Node',
        "* Pod default/web-1: cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 2 healthy pods and has 2 currently",
        '* Pods default/x, default/y: failed to evict Pod, Internal error occurred: boom',
        '* Pod default/job: waiting for completion',
        'After above Pods have been removed from the Node, the following Pods will be evicted: default/db',
        'After above Pods have been removed from the Node, waiting for the following Pods to complete without eviction: default/late-job',
      ].join('\n'),
    );
  });

  it('lists five failure reasons and counts the Pods of the others', () => {
    const failed = new Map(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((reason, i) => [`reason ${reason}`, i === 6 ? [pod(`p${i}`), pod('q')] : [pod(`p${i}`)]]));
    const lines = drainConditionMessage({ ...empty(), failed }, '2026-12-03T10:00:00Z').split('\n');
    expect(lines).toHaveLength(7);
    expect(lines[1]).toBe('* Pod default/p0: failed to evict Pod, reason a');
    expect(lines[6]).toBe('* 3 Pods with other issues');
  });

  it('podList shortens after n', () => {
    expect(podList([pod('a'), pod('b')], 1)).toBe('default/a, ... (1 more)');
  });
});
