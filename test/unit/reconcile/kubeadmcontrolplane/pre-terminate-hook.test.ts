import { describe, expect, it } from 'vitest';
import { TransientError } from '../../../../shared/errors/index.js';
import type { KubeObject, StoredObject } from '../../../../shared/contracts/object.js';
import { WORKLOAD_CLUSTER_PORT, WorkloadClusterUnavailableError } from '../../../../shared/ports/workload-cluster.js';
import { KCP_PRE_TERMINATE_HOOK, preTerminateHookPhase } from '../../../../functions/reconcile/kubeadm/controlplane/pre-terminate-hook.js';
import { createKcpScope } from '../../../../functions/reconcile/kubeadm/controlplane/scope.js';
import { testContext } from '../../../support/reconcile-context.js';
import { workloadClusterStub } from '../../../support/workload-cluster-stub.js';

const T = '2026-01-01T00:00:00Z';
const OTHER_HOOK = 'pre-terminate.delete.hook.machine.cluster.x-k8s.io/backup';

interface MachineShape {
  name: string;
  deleting?: string;
  hooks?: readonly string[];
  waiting?: boolean;
  node?: boolean;
}

function machine(shape: MachineShape): KubeObject {
  const hooks = shape.hooks ?? [KCP_PRE_TERMINATE_HOOK];
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: { name: shape.name, namespace: 'default', finalizers: ['machine.cluster.x-k8s.io'], annotations: Object.fromEntries(hooks.map((h) => [h, ''])) },
    spec: { clusterName: 'c1', providerID: `aws:///us-east-1a/i-${shape.name}` },
    status: {
      ...(shape.node === false ? {} : { nodeRef: { name: `node-${shape.name}` } }),
      ...(shape.waiting ? { conditions: [{ type: 'Deleting', status: 'True', reason: 'WaitingForPreTerminateHook', lastTransitionTime: T }] } : {}),
    },
  };
}

interface Case {
  machines: readonly MachineShape[];
  version?: string;
  externalEtcd?: boolean;
  /** Members etcd lists (names), through any Node. */
  members?: readonly string[];
  /** Nodes that run no etcd Pod. */
  noEtcdOn?: readonly string[];
  /** The leader's Node; none when unset. */
  leader?: string;
  /** Nodes whose etcd Pod does not answer. */
  downOn?: readonly string[];
  /** etcd refuses every leadership transfer. */
  refusesTransfer?: boolean;
}

async function run(c: Case) {
  const calls: string[] = [];
  const idOf = (name: string) => String(100 + (c.members ?? []).indexOf(name));
  const ctx = testContext();
  ctx.providers = {
    [WORKLOAD_CLUSTER_PORT]: workloadClusterStub({
      listEtcdMembers: async (_cluster, node) => {
        calls.push(`list through ${node.name}`);
        if (c.noEtcdOn?.includes(node.name)) return undefined;
        return (c.members ?? []).map((name, i) => ({ id: String(100 + i), name }));
      },
      removeEtcdMember: async (_cluster, node, id) => {
        calls.push(`remove ${id} through ${node.name}`);
      },
      etcdStatus: async (_cluster, node) => {
        calls.push(`status through ${node.name}`);
        if (c.downOn?.includes(node.name)) throw new WorkloadClusterUnavailableError('ConnectionDown', `etcd on ${node.name} does not answer`);
        if (c.noEtcdOn?.includes(node.name)) return undefined;
        return { memberId: idOf(node.name), leaderId: c.leader ? idOf(c.leader) : '0' };
      },
      moveEtcdLeader: async (_cluster, node, id) => {
        calls.push(`move leadership to ${id} through ${node.name}`);
        if (c.refusesTransfer) throw new WorkloadClusterUnavailableError('ConnectionDown', 'etcdserver: not leader');
      },
    }),
  };
  const stored: StoredObject[] = [];
  for (const shape of c.machines) {
    let m = await ctx.store.create(machine(shape));
    m = await ctx.store.updateStatus({ ...m, status: machine(shape).status });
    if (shape.deleting) {
      ctx.clock.advanceTo(Date.parse(shape.deleting));
      m = (await ctx.store.delete({ group: 'cluster.x-k8s.io', kind: 'Machine', namespace: 'default', name: shape.name })).object;
    }
    stored.push(m);
  }
  const kcp = await ctx.store.create({
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'cp', namespace: 'default' },
    spec: { version: c.version ?? 'v1.31.2', replicas: 3, kubeadmConfigSpec: c.externalEtcd ? { clusterConfiguration: { etcd: { external: { endpoints: ['https://etcd:2379'] } } } } : {} },
  });
  const scope = { ...createKcpScope(ctx, kcp), clusterName: 'c1', machines: stored };
  const result = await preTerminateHookPhase(scope).catch((error: unknown) => error);
  const hooked = async (name: string) => (await ctx.store.get({ group: 'cluster.x-k8s.io', kind: 'Machine', namespace: 'default', name }))?.metadata.annotations?.[KCP_PRE_TERMINATE_HOOK] !== undefined;
  return { calls, result, hooked };
}

const first = '2026-01-01T00:01:00Z';
const later = '2026-01-01T00:02:00Z';

describe('the KubeadmControlPlane pre-terminate hook (reconcilePreTerminateHook)', () => {
  it.for([
    ['no deleting Machine: nothing to do', { machines: [{ name: 'a' }, { name: 'b' }] }, [], { a: true, b: true }, undefined],
    ['a deleting Machine not yet at the hook: wait', { machines: [{ name: 'a', deleting: first }, { name: 'b' }] }, [], { a: true }, 30],
    [
      'at the hook: its member removed through another Node, then the hook off',
      { machines: [{ name: 'a', deleting: first, waiting: true }, { name: 'b' }, { name: 'c' }], members: ['node-a', 'node-b', 'node-c'] },
      ['status through node-a', 'list through node-b', 'status through node-b', 'status through node-c', 'remove 100 through node-b'],
      { a: false, b: true },
      30,
    ],
    ['no member of its Node (already removed): the hook off', { machines: [{ name: 'a', deleting: first, waiting: true }, { name: 'b' }], members: ['node-b'] }, ['status through node-a', 'list through node-b'], { a: false }, 30],
    ['the first deleted goes first (not the first by name)', { machines: [{ name: 'b', deleting: first, waiting: true }, { name: 'a', deleting: later, waiting: true }, { name: 'c' }], members: ['node-a', 'node-b', 'node-c'] }, ['status through node-b', 'list through node-c', 'status through node-a', 'status through node-c', 'remove 101 through node-c'], { a: true, b: false }, 30],
    ['another deleting Machine already without the hook: wait for it', { machines: [{ name: 'a', deleting: first, waiting: true }, { name: 'b', deleting: first, hooks: [] }, { name: 'c' }] }, [], { a: true }, 30],
    ['v1.31+: other pre-terminate hooks first', { machines: [{ name: 'a', deleting: first, waiting: true, hooks: [KCP_PRE_TERMINATE_HOOK, OTHER_HOOK] }, { name: 'b' }] }, [], { a: true }, 30],
    [
      'before v1.31 it does not wait for other hooks',
      { version: 'v1.30.6', machines: [{ name: 'a', deleting: first, waiting: true, hooks: [KCP_PRE_TERMINATE_HOOK, OTHER_HOOK] }, { name: 'b' }], members: ['node-a', 'node-b'] },
      ['status through node-a', 'list through node-b', 'status through node-b', 'remove 100 through node-b'],
      { a: false },
      30,
    ],
    ['the last control-plane Machine: no member to remove, the hook off', { machines: [{ name: 'a', deleting: first, waiting: true }] }, [], { a: false }, 30],
    ['external etcd: the hook off', { externalEtcd: true, machines: [{ name: 'a', deleting: first, waiting: true }, { name: 'b' }] }, [], { a: false }, 30],
    ['its Node never registered: the hook off', { machines: [{ name: 'a', deleting: first, waiting: true, node: false }, { name: 'b' }] }, [], { a: false }, 30],
    [
      'a Node without an etcd Pod is passed over for the next',
      { machines: [{ name: 'a', deleting: first, waiting: true }, { name: 'b' }, { name: 'c' }, { name: 'd' }], members: ['node-a', 'node-c', 'node-d'], noEtcdOn: ['node-b'] },
      ['status through node-a', 'list through node-b', 'list through node-c', 'status through node-c', 'status through node-d', 'remove 100 through node-c'],
      { a: false },
      30,
    ],
    ['no other Node runs an etcd Pod: not stacked etcd, the hook off', { machines: [{ name: 'a', deleting: first, waiting: true }, { name: 'b' }], noEtcdOn: ['node-b'] }, ['status through node-a', 'list through node-b'], { a: false }, 30],
    ['no other Node to ask etcd through: wait, the hook stays', { machines: [{ name: 'a', deleting: first, waiting: true }, { name: 'b', node: false }] }, ['status through node-a'], { a: true }, 30],
    [
      'its member leads: the leadership moved to another member first, then the member removed',
      { machines: [{ name: 'a', deleting: first, waiting: true }, { name: 'b' }, { name: 'c' }], members: ['node-a', 'node-b', 'node-c'], leader: 'node-a' },
      ['status through node-a', 'list through node-a', 'move leadership to 101 through node-a', 'list through node-b', 'status through node-b', 'status through node-c', 'remove 100 through node-b'],
      { a: false },
      30,
    ],
    [
      'another member leads: nothing to move',
      { machines: [{ name: 'a', deleting: first, waiting: true }, { name: 'b' }], members: ['node-a', 'node-b'], leader: 'node-b' },
      ['status through node-a', 'list through node-b', 'status through node-b', 'remove 100 through node-b'],
      { a: false },
      30,
    ],
    [
      'its etcd does not answer (a failed Machine): it leads no one, its member removed',
      { machines: [{ name: 'a', deleting: first, waiting: true }, { name: 'b' }], members: ['node-a', 'node-b'], leader: 'node-a', downOn: ['node-a'] },
      ['status through node-a', 'list through node-b', 'status through node-b', 'remove 100 through node-b'],
      { a: false },
      30,
    ],
    [
      'removing its member would cost etcd its quorum (another member down): wait, the member and the hook stay',
      { machines: [{ name: 'a', deleting: first, waiting: true }, { name: 'b' }, { name: 'c' }], members: ['node-a', 'node-b', 'node-c'], downOn: ['node-c'] },
      ['status through node-a', 'list through node-b', 'status through node-b', 'status through node-c'],
      { a: true },
      30,
    ],
  ] as const)('%s', async ([, c, calls, hooks, requeue]) => {
    const outcome = await run(c);
    expect(outcome.calls).toEqual(calls);
    for (const [name, hooked] of Object.entries(hooks)) expect(await outcome.hooked(name)).toBe(hooked);
    expect(outcome.result).toEqual(requeue === undefined ? undefined : { requeueAfterSeconds: requeue });
  });

  it('a leader no other member will take over from: a transient error, its member and the hook kept', async () => {
    const outcome = await run({ machines: [{ name: 'a', deleting: first, waiting: true }, { name: 'b' }, { name: 'c' }], members: ['node-a', 'node-b', 'node-c'], leader: 'node-a', refusesTransfer: true });
    expect(outcome.result).toBeInstanceOf(TransientError);
    expect(outcome.calls).toEqual(['status through node-a', 'list through node-a', 'move leadership to 101 through node-a', 'move leadership to 102 through node-a']);
    expect(await outcome.hooked('a')).toBe(true);
  });
});
