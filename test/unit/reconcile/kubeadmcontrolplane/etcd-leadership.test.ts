import { describe, expect, it } from 'vitest';
import { WORKLOAD_CLUSTER_PORT } from '../../../../shared/ports/workload-cluster.js';
import { forwardEtcdLeadership, leadershipCandidates } from '../../../../functions/reconcile/kubeadm/controlplane/etcd-leadership.js';
import type { MachineFacts } from '../../../../functions/reconcile/kubeadm/controlplane/machine-facts.js';
import { createKcpScope } from '../../../../functions/reconcile/kubeadm/controlplane/scope.js';
import { type ControlPlaneMachineShape, controlPlaneMachine } from '../../../support/control-plane-machine.js';
import { testContext } from '../../../support/reconcile-context.js';
import { workloadClusterStub } from '../../../support/workload-cluster-stub.js';

/** A Machine and whether it is up to date (the control plane's facts). */
type Shape = ControlPlaneMachineShape & { upToDate?: boolean };

function facts(shapes: readonly Shape[]): MachineFacts[] {
  return shapes.map((s) => ({ name: s.name, creationTimestamp: s.created ?? '', deleting: false, ready: true, upToDate: s.upToDate ?? true, outdatedReasons: [], deleteAnnotated: false, hasNode: true }));
}

describe('the Machines that may take etcd leadership (getCandidatesForEtcdLeadership)', () => {
  it.for([
    ['the newest first', [{ name: 'a', created: '2026-01-01T00:00:00Z' }, { name: 'b', created: '2026-01-03T00:00:00Z' }, { name: 'c', created: '2026-01-02T00:00:00Z' }], ['node-b', 'node-c', 'node-a']],
    ['healthy by its MachineHealthCheck before the newest', [{ name: 'a', created: '2026-01-01T00:00:00Z', healthy: true }, { name: 'b', created: '2026-01-03T00:00:00Z', healthy: false }], ['node-a', 'node-b']],
    ['no health check counts as not healthy', [{ name: 'a', created: '2026-01-01T00:00:00Z', healthy: true }, { name: 'b', created: '2026-01-03T00:00:00Z' }], ['node-a', 'node-b']],
    ['up to date before the newest', [{ name: 'a', created: '2026-01-01T00:00:00Z' }, { name: 'b', created: '2026-01-03T00:00:00Z', upToDate: false }], ['node-a', 'node-b']],
    ['health before up to date', [{ name: 'a', healthy: true, upToDate: false }, { name: 'b', healthy: false }], ['node-a', 'node-b']],
    ['not the deleting ones, nor those without a Node', [{ name: 'a', deleting: true }, { name: 'b', node: false }, { name: 'c' }], ['node-c']],
  ] as const)('%s', ([, shapes, expected]) => {
    const leaving = controlPlaneMachine({ name: 'leaving' });
    expect(leadershipCandidates([leaving, ...shapes.map(controlPlaneMachine)], facts(shapes), leaving).map((n) => n.name)).toEqual(expected);
  });
});

interface Case {
  external?: boolean;
  node?: boolean;
  /** The Node whose etcd leads. */
  leader?: string;
  noEtcd?: boolean;
}

async function forward(c: Case): Promise<string[]> {
  const calls: string[] = [];
  const members = ['node-a', 'node-b', 'node-c'].map((name, i) => ({ id: String(100 + i), name }));
  const idOf = (name?: string) => members.find((m) => m.name === name)?.id ?? '0';
  const ctx = testContext();
  ctx.providers = {
    [WORKLOAD_CLUSTER_PORT]: workloadClusterStub({
      etcdStatus: async (_cluster, node) => {
        calls.push(`status through ${node.name}`);
        return c.noEtcd ? undefined : { memberId: idOf(node.name), leaderId: idOf(c.leader) };
      },
      listEtcdMembers: async (_cluster, node) => {
        calls.push(`list through ${node.name}`);
        return members;
      },
      moveEtcdLeader: async (_cluster, node, id) => {
        calls.push(`move leadership to ${id} through ${node.name}`);
      },
    }),
  };
  const kcp = await ctx.store.create({
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'cp', namespace: 'default' },
    spec: { version: 'v1.32.0', replicas: 3, kubeadmConfigSpec: c.external ? { clusterConfiguration: { etcd: { external: { endpoints: ['https://etcd:2379'] } } } } : {} },
  });
  const leaving = controlPlaneMachine({ name: 'a', node: c.node ?? true });
  const machines = [leaving, controlPlaneMachine({ name: 'b', created: '2026-01-01T00:00:00Z' }), controlPlaneMachine({ name: 'c', created: '2026-01-02T00:00:00Z' })];
  const scope = { ...createKcpScope(ctx, kcp), clusterName: 'c1', machines };
  await forwardEtcdLeadership(scope, leaving);
  return calls;
}

describe('etcd leadership moved off a Machine before it goes (forwardEtcdLeadership)', () => {
  it.for([
    ['its member leads: moved to the newest other member, asked of its own etcd', { leader: 'node-a' }, ['status through node-a', 'list through node-a', 'move leadership to 102 through node-a']],
    ['another member leads: nothing to move', { leader: 'node-b' }, ['status through node-a']],
    ['no leader (an election): nothing to move', {}, ['status through node-a']],
    ['its Node runs no etcd Pod: nothing to move', { leader: 'node-a', noEtcd: true }, ['status through node-a']],
    ['external etcd: etcd not asked', { leader: 'node-a', external: true }, []],
    ['its Node never registered: etcd not asked', { leader: 'node-a', node: false }, []],
  ] as const)('%s', async ([, c, expected]) => {
    expect(await forward(c)).toEqual(expected);
  });
});
