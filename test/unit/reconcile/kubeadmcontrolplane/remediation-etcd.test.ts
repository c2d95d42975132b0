import { describe, expect, it } from 'vitest';
import { remediateControlPlane } from '../../../../functions/reconcile/kubeadm/controlplane/remediation.js';
import { createKcpScope } from '../../../../functions/reconcile/kubeadm/controlplane/scope.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { WORKLOAD_CLUSTER_PORT, WorkloadClusterUnavailableError } from '../../../../shared/ports/workload-cluster.js';
import { controlPlaneMachine } from '../../../support/control-plane-machine.js';
import { testContext } from '../../../support/reconcile-context.js';
import { workloadClusterStub } from '../../../support/workload-cluster-stub.js';

const REMEDIATION_IN_PROGRESS = 'controlplane.cluster.x-k8s.io/remediation-in-progress';

interface Case {
  /** Nodes whose etcd does not answer. */
  downOn?: readonly string[];
  external?: boolean;
}

function marked(machine: StoredObject): StoredObject {
  const conditions = [{ type: 'OwnerRemediated', status: 'False', reason: 'WaitingForRemediation', lastTransitionTime: '2026-01-01T00:00:00Z' }];
  return { ...machine, status: { ...machine.status, conditions } };
}

async function remediate(c: Case) {
  const calls: string[] = [];
  const members = ['node-a', 'node-b', 'node-c'].map((name, i) => ({ id: String(100 + i), name }));
  const ctx = testContext();
  ctx.providers = {
    [WORKLOAD_CLUSTER_PORT]: workloadClusterStub({
      listEtcdMembers: async (_cluster, node) => {
        calls.push(`list through ${node.name}`);
        if (c.downOn?.includes(node.name)) throw new WorkloadClusterUnavailableError('ConnectionDown', 'no answer');
        return members;
      },
      etcdStatus: async (_cluster, node) => {
        calls.push(`status through ${node.name}`);
        if (c.downOn?.includes(node.name)) throw new WorkloadClusterUnavailableError('ConnectionDown', 'no answer');
        return { memberId: members.find((m) => m.name === node.name)?.id ?? '0', leaderId: '101' };
      },
    }),
  };
  const kcp = await ctx.store.create({
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'cp', namespace: 'default' },
    spec: { version: 'v1.32.0', replicas: 3, kubeadmConfigSpec: c.external ? { clusterConfiguration: { etcd: { external: { endpoints: ['https://etcd:2379'], caFile: 'a', certFile: 'b', keyFile: 'c' } } } } : {} },
  });
  const machines: StoredObject[] = [];
  for (const m of [marked(controlPlaneMachine({ name: 'a' })), controlPlaneMachine({ name: 'b' }), controlPlaneMachine({ name: 'c' })]) {
    const { metadata, ...rest } = m;
    const created = await ctx.store.create({ ...rest, metadata: { name: metadata.name, namespace: metadata.namespace } });
    machines.push(await ctx.store.updateStatus({ ...created, status: m.status }));
  }
  const facts = machines.map((m) => ({ name: m.metadata.name, creationTimestamp: m.metadata.creationTimestamp ?? '', deleting: false, ready: true, upToDate: true, outdatedReasons: [], deleteAnnotated: false, hasNode: true }));
  const cluster = await ctx.store.create({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', namespace: 'default' }, spec: {} });
  const scope = { ...createKcpScope(ctx, kcp), cluster, clusterName: 'c1', initialized: true, machines, facts };
  await remediateControlPlane(scope);
  const stored = await ctx.store.get({ group: 'cluster.x-k8s.io', kind: 'Machine', namespace: 'default', name: 'a' });
  const after = await ctx.store.get({ group: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', namespace: 'default', name: 'cp' });
  return { calls, blocked: scope.remediationBlocked, deleted: !stored || stored.metadata.deletionTimestamp !== undefined, annotated: after?.metadata.annotations?.[REMEDIATION_IN_PROGRESS] !== undefined };
}

describe('a control-plane Machine remediated only while etcd keeps its quorum (targetEtcdClusterHealthy)', () => {
  it('the other members answer: remediated', async () => {
    const outcome = await remediate({});
    expect(outcome).toMatchObject({ blocked: undefined, deleted: true, annotated: true });
    expect(outcome.calls.slice(0, 3)).toEqual(['list through node-b', 'status through node-b', 'status through node-c']);
  });

  it('another member does not answer: its removal would leave one of two, so it waits, saying why', async () => {
    const outcome = await remediate({ downOn: ['node-c'] });
    expect(outcome).toMatchObject({ deleted: false, annotated: false });
    expect(outcome.blocked).toBe("KCP can't remediate this machine because this could result in etcd losing quorum (1 of the 2 other etcd members answer)");
  });

  it.for<[string, Case]>([
    ['etcd cannot be asked at all: the Machines’ health decides (remediated)', { downOn: ['node-b', 'node-c'] }],
    ['external etcd: not asked', { external: true }],
  ])('%s', async ([, c]) => {
    const outcome = await remediate(c);
    expect(outcome).toMatchObject({ blocked: undefined, deleted: true, annotated: true });
  });
});
