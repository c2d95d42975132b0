import { describe, expect, it } from 'vitest';
import { TransientError } from '../../../../shared/errors/index.js';
import { WORKLOAD_CLUSTER_PORT, WorkloadClusterAccessDeniedError, WorkloadClusterUnavailableError } from '../../../../shared/ports/workload-cluster.js';
import { reconcileEtcdMembers, unexpectedEtcdMembers } from '../../../../functions/reconcile/kubeadm/controlplane/etcd-members.js';
import { createKcpScope } from '../../../../functions/reconcile/kubeadm/controlplane/scope.js';
import { type ControlPlaneMachineShape, controlPlaneMachine } from '../../../support/control-plane-machine.js';
import { testContext } from '../../../support/reconcile-context.js';
import { workloadClusterStub } from '../../../support/workload-cluster-stub.js';


interface Case {
  machines: readonly ControlPlaneMachineShape[];
  /** Member names (IDs 100, 101 … in order). */
  members: readonly string[];
  external?: boolean;
  initialized?: boolean;
  noEtcdOn?: readonly string[];
  downOn?: readonly string[];
  denied?: boolean;
}

async function run(c: Case) {
  const calls: string[] = [];
  const ctx = testContext();
  ctx.providers = {
    [WORKLOAD_CLUSTER_PORT]: workloadClusterStub({
      listEtcdMembers: async (_cluster, node) => {
        calls.push(`list through ${node.name}`);
        if (c.downOn?.includes(node.name)) throw new WorkloadClusterUnavailableError('ConnectionDown', `etcd on ${node.name} does not answer`);
        if (c.denied) throw new WorkloadClusterAccessDeniedError(403, `listing etcd members through ${node.name}: forbidden`);
        if (c.noEtcdOn?.includes(node.name)) return undefined;
        return c.members.map((name, i) => ({ id: String(100 + i), name }));
      },
      etcdStatus: async (_cluster, node) => {
        calls.push(`status through ${node.name}`);
        if (c.downOn?.includes(node.name)) throw new WorkloadClusterUnavailableError('ConnectionDown', `etcd on ${node.name} does not answer`);
        const index = c.members.indexOf(node.name);
        return index < 0 ? undefined : { memberId: String(100 + index), leaderId: '100' };
      },
      removeEtcdMember: async (_cluster, node, id) => {
        calls.push(`remove ${id} through ${node.name}`);
      },
    }),
  };
  const kcp = await ctx.store.create({
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'cp', namespace: 'default' },
    spec: { version: 'v1.32.0', replicas: 3, kubeadmConfigSpec: c.external ? { clusterConfiguration: { etcd: { external: { endpoints: ['https://etcd:2379'] } } } } : {} },
  });
  const scope = { ...createKcpScope(ctx, kcp), clusterName: 'c1', initialized: c.initialized ?? true, machines: c.machines.map(controlPlaneMachine) };
  const result = await reconcileEtcdMembers(scope).catch((error: unknown) => error);
  return { calls, result };
}

const three = [{ name: 'a' }, { name: 'b' }, { name: 'c' }];
/** Each of the three Machines' etcd asked whether it answers (the quorum check). */
const statuses = ['status through node-a', 'status through node-b', 'status through node-c'];

describe('etcd members no Machine owns (reconcileEtcdMembers)', () => {
  it.for([
    ['every member is a Machine’s: nothing removed', { machines: three, members: ['node-a', 'node-b', 'node-c'] }, ['list through node-a'], undefined],
    [
      'a member left by a Machine that went: the others answer, so it is removed through the first Node, looked at again in a second',
      { machines: three, members: ['node-a', 'node-old', 'node-b', 'node-c'] },
      ['list through node-a', ...statuses, 'remove 101 through node-a'],
      1,
    ],
    [
      'two left: the first by name only, the next in the next run',
      { machines: three, members: ['node-z', 'node-a', 'node-b', 'node-c', 'node-old'] },
      ['list through node-a', ...statuses, 'remove 104 through node-a'],
      1,
    ],
    [
      'one Machine’s member does not answer: the three left still have a quorum answering (2)',
      { machines: three, members: ['node-a', 'node-b', 'node-c', 'node-x'], downOn: ['node-c'] },
      ['list through node-a', ...statuses, 'remove 103 through node-a'],
      1,
    ],
    ['an unnamed member (a learner never started) goes first', { machines: three, members: ['node-a', 'node-b', 'node-c', 'node-old', ''] }, ['list through node-a', 'remove 104 through node-a'], 1],
    ['a deleting Machine’s member is the pre-terminate hook’s: kept, and not asked through', { machines: [{ name: 'a', deleting: true }, { name: 'b' }, { name: 'c' }], members: ['node-a', 'node-b', 'node-c'] }, ['list through node-b'], undefined],
    ['a Machine without its Node yet may own the unknown member: wait', { machines: [...three, { name: 'd', node: false }], members: ['node-a', 'node-b', 'node-c', 'node-d'] }, [], undefined],
    [
      'a Node whose etcd does not answer is passed over',
      { machines: [...three, { name: 'd' }], members: ['node-a', 'node-b', 'node-c', 'node-d', 'node-old'], downOn: ['node-a'] },
      ['list through node-a', 'list through node-b', ...statuses, 'status through node-d', 'remove 104 through node-b'],
      1,
    ],
    ['no Node runs an etcd Pod: nothing to do', { machines: three, members: ['node-old'], noEtcdOn: ['node-a', 'node-b', 'node-c'] }, ['list through node-a', 'list through node-b', 'list through node-c'], undefined],
    ['the workload cluster refuses capless: nothing to do now', { machines: three, members: ['node-old'], denied: true }, ['list through node-a', 'list through node-b', 'list through node-c'], undefined],
    ['external etcd: etcd not asked', { machines: three, members: ['node-old'], external: true }, [], undefined],
    ['not initialized yet: etcd not asked', { machines: three, members: ['node-old'], initialized: false }, [], undefined],
    ['no Machines: etcd not asked', { machines: [], members: ['node-old'] }, [], undefined],
  ] as const)('%s', async ([, c, calls, requeue]) => {
    const outcome = await run(c);
    expect(outcome.calls).toEqual(calls);
    expect(outcome.result).toEqual(requeue === undefined ? undefined : { requeueAfterSeconds: requeue });
  });

  it('a removal that could lose quorum is not made: a transient error naming the member', async () => {
    // Five members, two of them no Machine's and one Machine's not answering: four left with two answering.
    const outcome = await run({ machines: three, members: ['node-a', 'node-b', 'node-c', 'node-x', 'node-y'], downOn: ['node-b', 'node-c'] });
    expect(outcome.calls).toEqual(['list through node-a', ...statuses]);
    expect(outcome.result).toBeInstanceOf(TransientError);
    expect(String(outcome.result)).toMatch(/etcd member node-x does not have a corresponding Machine, .* quorum loss/);
  });

  it('orders the members no expected Node owns by name, unnamed first', () => {
    const members = [
      { id: '3', name: 'node-z' },
      { id: '1', name: 'node-a' },
      { id: '2', name: '' },
      { id: '4', name: 'node-m' },
    ];
    expect(unexpectedEtcdMembers(members, new Set(['node-a'])).map((m) => m.id)).toEqual(['2', '4', '3']);
  });
});
