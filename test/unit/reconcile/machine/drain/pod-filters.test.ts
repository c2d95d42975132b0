/**
 * Cluster API's drain filters (core/reconcilers/machine/drain/filters.go), row by row: what a drain
 * does with each kind of Pod, and the warnings it gathers on the way.
 */
import { describe, expect, it } from 'vitest';
import type { WorkloadPod } from '../../../../../shared/ports/workload-cluster.js';
import type { DrainRule } from '../../../../../functions/reconcile/core/machine/drain/drain-rules.js';
import { type DrainFacts, filterPods } from '../../../../../functions/reconcile/core/machine/drain/pod-filters.js';

const NOW = new Date('2026-12-03T10:00:00Z');

const pod = (fields: Partial<WorkloadPod> = {}): WorkloadPod => ({
  namespace: 'default',
  name: 'p',
  labels: {},
  annotations: {},
  controller: { kind: 'ReplicaSet', name: 'web-abc' },
  phase: 'Running',
  localStorage: false,
  persistentVolumeClaims: [],
  ...fields,
});

const facts = (fields: Partial<DrainFacts> = {}): DrainFacts => ({
  now: NOW,
  skipWaitForDeleteTimeoutSeconds: 0,
  existingDaemonSets: new Set(['kube-system/agent']),
  rules: [],
  namespaces: new Map<string, Record<string, string>>([
    ['default', { 'kubernetes.io/metadata.name': 'default' }],
    ['monitoring', { team: 'obs' }],
  ]),
  ...fields,
});

const rule = (name: string, behavior: string, extra: Partial<DrainRule> = {}): DrainRule => ({ name, behavior, pods: [], ...extra });

describe('drain filters: what happens to each Pod', () => {
  it.for([
    ['a ReplicaSet Pod is evicted', pod(), facts(), { behavior: 'Drain', reason: 'Okay' }],
    ['a running DaemonSet Pod is left', pod({ namespace: 'kube-system', controller: { kind: 'DaemonSet', name: 'agent' } }), facts(), { behavior: 'Skip', reason: 'Warning', message: 'ignoring DaemonSet-managed Pod' }],
    ['an orphaned DaemonSet Pod is evicted with a warning', pod({ controller: { kind: 'DaemonSet', name: 'gone' } }), facts(), { behavior: 'Drain', reason: 'Warning', message: 'evicting orphaned DaemonSet-managed Pod' }],
    ['a finished DaemonSet Pod is evicted', pod({ controller: { kind: 'DaemonSet', name: 'agent' }, namespace: 'kube-system', phase: 'Succeeded' }), facts(), { behavior: 'Drain', reason: 'Okay' }],
    ['a static Pod mirror is left', pod({ annotations: { 'kubernetes.io/config.mirror': 'abc' }, controller: { kind: 'Node', name: 'n1' } }), facts(), { behavior: 'Skip', reason: 'Skip' }],
    ['a Pod with an emptyDir is evicted with a warning', pod({ localStorage: true }), facts(), { behavior: 'Drain', reason: 'Warning', message: 'evicting Pod with local storage' }],
    ['a bare Pod with an emptyDir gathers both warnings', pod({ localStorage: true, controller: undefined }), facts(), { behavior: 'Drain', reason: 'Warning', message: 'evicting Pod with local storage, evicting Pod that has no controller' }],
    ['a finished bare Pod is evicted without a warning', pod({ controller: undefined, phase: 'Failed' }), facts(), { behavior: 'Drain', reason: 'Okay' }],
    ['drain=skip leaves it', pod({ labels: { 'cluster.x-k8s.io/drain': 'Skip' } }), facts(), { behavior: 'Skip', reason: 'Skip' }],
    ['drain=wait-completed waits for it', pod({ labels: { 'cluster.x-k8s.io/drain': 'wait-completed' } }), facts(), { behavior: 'WaitCompleted', reason: 'WaitCompleted' }],
    ['drain=anything-else evicts it', pod({ labels: { 'cluster.x-k8s.io/drain': 'maybe' } }), facts(), { behavior: 'Drain', reason: 'Okay' }],
    ['a Pod terminating for 2 s on an unreachable Node is no longer waited for', pod({ deletionTimestamp: '2026-12-03T09:59:58Z' }), facts({ skipWaitForDeleteTimeoutSeconds: 1 }), { behavior: 'Skip', reason: 'Skip' }],
    ['a Pod terminating for 1 s is still waited for', pod({ deletionTimestamp: '2026-12-03T09:59:59Z' }), facts({ skipWaitForDeleteTimeoutSeconds: 1 }), { behavior: 'Drain', reason: 'Okay' }],
    ['a Pod terminating long ago on a reachable Node is waited for', pod({ deletionTimestamp: '2026-12-01T00:00:00Z' }), facts(), { behavior: 'Drain', reason: 'Okay' }],
  ] as const)('%s', ([, input, given, status], context) => {
    const { items, errors } = filterPods([input], given);
    context.expect(errors).toEqual([]);
    context.expect(items[0]?.status).toEqual(status);
  });
});

describe('drain filters: MachineDrainRules', () => {
  const rules = [
    rule('a-monitoring-last', 'Drain', { order: 100, pods: [{ namespaceSelector: { matchLabels: { team: 'obs' } } }] }),
    rule('b-skip-batch', 'Skip', { pods: [{ selector: { matchLabels: { app: 'batch' } } }] }),
    rule('c-wait-jobs', 'WaitCompleted', { pods: [{ selector: { matchExpressions: [{ key: 'job', operator: 'Exists' }] } }] }),
  ];

  it.for([
    ['the first rule by name that matches decides: order from the rule', pod({ namespace: 'monitoring', labels: { app: 'batch' } }), { behavior: 'Drain', reason: 'Okay', order: 100 }],
    ['a Skip rule', pod({ labels: { app: 'batch' } }), { behavior: 'Skip', reason: 'Skip' }],
    ['a WaitCompleted rule', pod({ labels: { job: 'x' } }), { behavior: 'WaitCompleted', reason: 'WaitCompleted' }],
    ['no rule matches: drained, order 0', pod({ labels: { app: 'web' } }), { behavior: 'Drain', reason: 'Okay' }],
    ['the drain label wins over the rules', pod({ labels: { app: 'web', 'cluster.x-k8s.io/drain': 'skip' }, namespace: 'monitoring' }), { behavior: 'Skip', reason: 'Skip' }],
    ['a warning is kept when a Drain rule decides', pod({ namespace: 'monitoring', controller: undefined }), { behavior: 'Drain', reason: 'Warning', order: 100, message: 'evicting Pod that has no controller' }],
  ] as const)('%s', ([, input, status], context) => {
    const { items } = filterPods([input], facts({ rules }));
    context.expect(items[0]?.status).toEqual(status);
  });

  it('a Pod in a Namespace that is not there is an error that names it; without rules nothing is asked', () => {
    const stray = pod({ namespace: 'vanished', name: 'x' });
    expect(filterPods([stray, pod({ namespace: 'vanished', name: 'y' })], facts({ rules })).errors).toEqual(['Pods with error "Pod Namespace does not exist": vanished/x, vanished/y']);
    expect(filterPods([stray], facts()).errors).toEqual([]);
  });

  it('a rule of unknown behavior is an error', () => {
    expect(filterPods([pod()], facts({ rules: [rule('odd', 'Sometimes')] })).errors).toEqual(['Pods with error "MachineDrainRule \\"odd\\" has unknown spec.drain.behavior: \\"Sometimes\\"": default/p']);
  });
});
