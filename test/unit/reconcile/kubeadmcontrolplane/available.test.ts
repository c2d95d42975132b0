import { describe, expect, it } from 'vitest';
import { type AvailabilityInputs, availableCondition, type MachineHealth } from '../../../../functions/reconcile/kubeadm/controlplane/available.js';
import type { EtcdMember } from '../../../../shared/ports/workload-cluster.js';

const NOW = new Date('2026-03-01T00:10:00Z');
const healthy = (nodeName: string): MachineHealth => ({ provisioned: true, nodeName, componentsHealthy: true, etcdMemberHealthy: true });
const sick = (nodeName: string, etcdMemberHealthy = false): MachineHealth => ({ provisioned: true, nodeName, componentsHealthy: false, etcdMemberHealthy });
const members = (...names: string[]): EtcdMember[] => names.map((name, i) => ({ id: String(i + 1), name }));
const base: AvailabilityInputs = {
  initialized: true,
  now: NOW,
  deleting: false,
  certificatesAvailable: true,
  health: { machines: [healthy('n1'), healthy('n2'), healthy('n3')], etcd: { matching: true, members: members('n1', 'n2', 'n3') } },
};

describe('availableCondition (Cluster API setAvailableCondition)', () => {
  it.for<[string, Partial<AvailabilityInputs>, string, string, string]>([
    ['all healthy', {}, 'True', 'Available', ''],
    ['not initialized', { initialized: false }, 'False', 'NotAvailable', 'Control plane not yet initialized'],
    ['certificates missing', { certificatesAvailable: false }, 'False', 'NotAvailable', '* Control plane certificates are not available'],
    [
      'etcd members not listed just after initialization',
      { initializedSince: '2026-03-01T00:09:30Z', health: { machines: [healthy('n1')], etcd: { matching: false } } },
      'False',
      'NotAvailable',
      'Waiting for etcd to report the list of members',
    ],
    ['etcd members not listed long after', { initializedSince: '2026-03-01T00:00:00Z', health: { machines: [healthy('n1')], etcd: { matching: false } } }, 'Unknown', 'InspectionFailed', 'Failed to get etcd members'],
    [
      'members and Machines do not match',
      { health: { machines: [healthy('n1')], etcd: { matching: false, members: members('n1', 'n7') } } },
      'False',
      'NotAvailable',
      'The list of etcd members does not match the list of Machines and Nodes',
    ],
    [
      'one of three members unhealthy: still a quorum, said in the message',
      { health: { machines: [healthy('n1'), healthy('n2'), sick('n3')], etcd: { matching: true, members: members('n1', 'n2', 'n3') } } },
      'True',
      'Available',
      '* 2 of 3 etcd members are healthy, at least 2 healthy member required for etcd quorum\n* 2 of 3 Machines have healthy control plane components, at least 1 required',
    ],
    [
      'two of three members unhealthy: no quorum',
      { health: { machines: [healthy('n1'), sick('n2'), sick('n3')], etcd: { matching: true, members: members('n1', 'n2', 'n3') } } },
      'False',
      'NotAvailable',
      '* 1 of 3 etcd members is healthy, at least 2 healthy member required for etcd quorum',
    ],
    [
      'no Machine with healthy components',
      { health: { machines: [sick('n1', true)], etcd: { matching: true, members: members('n1') } } },
      'False',
      'NotAvailable',
      '* There are no Machines with healthy control plane components, at least 1 required',
    ],
    [
      'an external etcd: components alone',
      { health: { machines: [healthy('n1'), sick('n2')] } },
      'True',
      'Available',
      '* 1 of 2 Machines has healthy control plane components, at least 1 required',
    ],
    [
      'a learner does not vote',
      { health: { machines: [healthy('n1'), healthy('n2')], etcd: { matching: true, members: [...members('n1'), { id: '9', name: 'n2', isLearner: true }] } } },
      'True',
      'Available',
      '',
    ],
    ['not inspected', { health: undefined }, 'Unknown', 'InspectionFailed', 'The workload cluster was not inspected'],
  ])('%s', ([, overrides, status, reason, message]) => {
    const inputs = { ...base, ...overrides };
    if ('health' in overrides && overrides.health === undefined) delete inputs.health;
    expect(availableCondition(inputs)).toEqual({ type: 'Available', status, reason, ...(message ? { message } : {}) });
  });
});
