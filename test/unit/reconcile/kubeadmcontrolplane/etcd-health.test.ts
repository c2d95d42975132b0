import { describe, expect, it } from 'vitest';
import { type EtcdMachine, type EtcdView, etcdHealth } from '../../../../functions/reconcile/kubeadm/controlplane/etcd-health.js';
import type { EtcdMember } from '../../../../shared/ports/workload-cluster.js';

const member = (name: string, id: string, isLearner = false): EtcdMember => ({ id, name, ...(isLearner ? { isLearner } : {}) });
const running = (name: string, nodeName: string): EtcdMachine => ({ name, nodeName, node: { state: 'running', name: nodeName, pods: [] } });
const listed = (members: EtcdMember[], alarms: { memberId: string; alarm: string }[] = []): EtcdView => ({ state: 'listed', members, alarms });
const NOW = new Date('2026-03-01T00:10:00Z');
const THREE = [member('n1', '1'), member('n2', '2'), member('n3', '3')];

describe('etcdHealth (Cluster API updateManagedEtcdConditions, compareMachinesAndMembers)', () => {
  it.for<[string, EtcdMachine, EtcdView, string]>([
    ['a voting member with no alarm', running('m1', 'n1'), listed(THREE), 'True/Healthy/'],
    ['an alarm on its member', running('m1', 'n1'), listed(THREE, [{ memberId: '1', alarm: 'NOSPACE' }, { memberId: '2', alarm: 'CORRUPT' }]), 'False/NotHealthy/Etcd reports alarms: NOSPACE'],
    ['a learner', running('m1', 'n1'), listed([member('n1', '1', true), member('n2', '2')]), 'False/NotHealthy/Waiting for learner etcd member to be promoted'],
    ['no member for its Node', running('m4', 'n4'), listed(THREE), "False/NotHealthy/Etcd doesn't have an etcd member for Node n4"],
    ['no Node yet', { name: 'm5', node: { state: 'noNode', waitingFor: 'Waiting for InMemoryMachine to report spec.providerID' } }, listed(THREE), 'Unknown/InspectionFailed/Waiting for InMemoryMachine to report spec.providerID'],
    ['deleting, its member still there', { name: 'm1', nodeName: 'n1', node: { state: 'deleting' } }, listed(THREE), 'False/Deleting/Machine is deleting'],
    ['deleting, its member gone', { name: 'm9', nodeName: 'n9', node: { state: 'deleting' } }, listed(THREE), "False/NotHealthy/Etcd doesn't have an etcd member for Node n9"],
    ['etcd did not answer', running('m1', 'n1'), { state: 'failed', reason: 'ConnectionDown', message: 'Failed to connect to etcd through Nodes n1' }, 'Unknown/ConnectionDown/Failed to connect to etcd through Nodes n1'],
  ])('%s → %s', ([, machine, view, expected]) => {
    const condition = etcdHealth([machine], view, NOW).machines.get(machine.name);
    expect(`${condition?.status}/${condition?.reason}/${condition?.message ?? ''}`).toBe(expected);
  });

  it('a member no Machine’s Node is named after is the control plane’s error; a member not yet named says its ID', () => {
    const health = etcdHealth([running('m1', 'n1'), running('m2', 'n2')], listed([...THREE, member('', '77')]), NOW);
    expect(health.errors).toEqual(['Etcd member n3 does not have a corresponding Machine', 'Etcd member 77 (Name not yet assigned) does not have a corresponding Machine']);
  });

  it('nothing is compared when etcd was not listed', () => {
    expect(etcdHealth([{ name: 'm9', nodeName: 'n9', node: { state: 'deleting' } }], { state: 'failed', reason: 'InspectionFailed', message: 'x' }, NOW)).toEqual({
      machines: new Map([['m9', { type: 'EtcdMemberHealthy', status: 'False', reason: 'Deleting', message: 'Machine is deleting' }]]),
      errors: [],
      matching: false,
    });
  });

  const young = (name: string, nodeName: string): EtcdMachine => ({ name, nodeName, node: { state: 'running', name: nodeName, pods: [], createdAt: '2026-03-01T00:09:30Z' } });
  it.for<[string, EtcdMachine[], EtcdMember[], boolean]>([
    ['every Node with its member', [running('m1', 'n1'), running('m2', 'n2'), running('m3', 'n3')], THREE, true],
    ['a Node older than two minutes without a member', [running('m1', 'n1'), running('m4', 'n4')], [member('n1', '1')], false],
    ['a Node joined 30 s ago without a member yet', [running('m1', 'n1'), young('m4', 'n4')], [member('n1', '1')], true],
    ['a deleting Machine’s Node without a member', [running('m1', 'n1'), { name: 'm9', nodeName: 'n9', node: { state: 'deleting' } }], [member('n1', '1')], true],
    ['a member without a Machine', [running('m1', 'n1')], [member('n1', '1'), member('n7', '7')], false],
    ['a member without a Machine while one provisions', [running('m1', 'n1'), { name: 'm2', node: { state: 'noNode', waitingFor: 'x' } }], [member('n1', '1'), member('', '7')], true],
  ])('members and Machines match: %s → %s', ([, machines, members, expected]) => {
    expect(etcdHealth(machines, listed(members), NOW).matching).toBe(expected);
  });
});
