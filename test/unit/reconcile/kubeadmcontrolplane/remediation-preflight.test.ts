import { describe, expect, it } from 'vitest';
import {
  planRemediation,
  quorumSurvives,
  type RemediationCandidate,
  type RemediationPolicy,
} from '../../../../functions/reconcile/kubeadm/controlplane/remediation-preflight.js';

const NOW = new Date('2026-01-01T12:00:00Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000).toISOString();

function cp(name: string, facts: Partial<RemediationCandidate> = {}): RemediationCandidate {
  return { name, creationTimestamp: ago(7200), marked: false, healthyMember: true, deleting: false, upToDate: true, ...facts };
}
const sick = (name: string, extra: Partial<RemediationCandidate> = {}) => cp(name, { marked: true, healthyMember: false, ...extra });

const POLICY: RemediationPolicy = { retryPeriodSeconds: 0, minHealthyPeriodSeconds: 3600 };

describe('planRemediation: the KCP remediation preflight', () => {
  it.each<[string, RemediationCandidate[], number, Partial<RemediationPolicy>, ReturnType<typeof planRemediation>]>([
    ['nothing marked', [cp('a'), cp('b'), cp('c')], 3, {}, { type: 'none' }],
    ['one of three unhealthy: remediate it', [cp('a'), sick('b'), cp('c')], 3, {}, { type: 'remediate', machine: 'b', retryCount: 0 }],
    [
      'two of three unhealthy: etcd would lose quorum',
      [cp('a'), sick('b'), sick('c')],
      3,
      {},
      { type: 'blocked', reason: 'EtcdQuorumAtRisk', machine: 'b', message: expect.stringContaining('etcd losing quorum (1 of 3 members healthy)') },
    ],
    ['one of five unhealthy and one not yet joined', [cp('a'), cp('b'), cp('c'), sick('d'), cp('e', { healthyMember: false })], 5, {}, { type: 'remediate', machine: 'd', retryCount: 0 }],
    ['a single replica is never remediated', [sick('a')], 1, {}, { type: 'blocked', reason: 'TooFewReplicas', machine: 'a', message: expect.any(String) }],
    ['not during a rollout', [cp('a', { upToDate: false }), sick('b'), cp('c')], 3, {}, { type: 'blocked', reason: 'RolloutInProgress', machine: 'b', message: expect.any(String) }],
    ['not while another machine is deleted', [cp('a'), sick('b'), cp('c'), cp('d', { deleting: true })], 3, {}, { type: 'blocked', reason: 'MachineDeleting', machine: 'b', message: expect.any(String) }],
    ['the oldest marked machine first', [cp('a'), sick('b', { creationTimestamp: ago(60) }), sick('c', { creationTimestamp: ago(600) }), cp('d'), cp('e')], 5, {}, { type: 'remediate', machine: 'c', retryCount: 0 }],
    [
      'a replacement that fails again counts a retry',
      [cp('a'), sick('b', { remediationFor: { machine: 'old', timestamp: ago(600), retryCount: 1 } }), cp('c')],
      3,
      {},
      { type: 'remediate', machine: 'b', retryCount: 2 },
    ],
    [
      'maxRetry reached',
      [cp('a'), sick('b', { remediationFor: { machine: 'old', timestamp: ago(600), retryCount: 2 } }), cp('c')],
      3,
      { maxRetry: 2 },
      { type: 'blocked', reason: 'MaxRetryReached', machine: 'b', message: expect.any(String) },
    ],
    [
      'within retryPeriod',
      [cp('a'), sick('b', { remediationFor: { machine: 'old', timestamp: ago(60), retryCount: 0 } }), cp('c')],
      3,
      { retryPeriodSeconds: 300 },
      { type: 'blocked', reason: 'RetryPeriodNotElapsed', machine: 'b', message: expect.any(String) },
    ],
    [
      'healthy longer than minHealthyPeriod: a new count',
      [cp('a'), sick('b', { remediationFor: { machine: 'old', timestamp: ago(7200), retryCount: 5 } }), cp('c')],
      3,
      { maxRetry: 2 },
      { type: 'remediate', machine: 'b', retryCount: 0 },
    ],
  ])('%s', (_name, machines, replicas, policy, expected) => {
    expect(planRemediation(machines, replicas, { ...POLICY, ...policy }, NOW)).toEqual(expected);
  });
});

describe('quorumSurvives', () => {
  it.each<[string, RemediationCandidate[], string, boolean]>([
    ['3 members, the victim unhealthy', [cp('a'), sick('b'), cp('c')], 'b', true],
    ['3 members, two unhealthy', [cp('a'), sick('b'), sick('c')], 'b', false],
    ['3 members, removing a healthy one while one is unhealthy', [cp('a'), sick('b'), cp('c')], 'a', false],
    ['5 members, two unhealthy', [cp('a'), cp('b'), cp('c'), sick('d'), sick('e')], 'd', true],
    ['2 members', [cp('a'), sick('b')], 'b', true],
  ])('%s', (_name, members, victim, survives) => {
    expect(quorumSurvives(members, victim)).toBe(survives);
  });
});
