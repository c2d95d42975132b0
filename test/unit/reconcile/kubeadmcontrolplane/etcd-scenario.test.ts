import { describe, expect, it } from 'vitest';
import { KCP_PRE_TERMINATE_HOOK } from '../../../../functions/reconcile/kubeadm/controlplane/pre-terminate-hook.js';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { stringAt } from '../../../../shared/contracts/json.js';
import { isDeleting, type StoredObject } from '../../../../shared/contracts/object.js';
import type { EtcdMember, EtcdNode, WorkloadCluster, WorkloadClusterRef } from '../../../../shared/ports/workload-cluster.js';
import { simulatedMemberId } from '../../../../shared/workload-cluster/in-memory-etcd.js';
import { InMemoryWorkloadCluster } from '../../../../shared/workload-cluster/in-memory-workload-cluster.js';
import { cpMachines, KCP_KEY, NS, nodeOf, setSpec, setup } from '../../../support/kcp-converge.js';

/** A stacked etcd that also lists a member no Machine owns (left by a Machine replaced before ADR 0164), until it is removed. */
const STALE_MEMBER: EtcdMember = { id: '4242', name: 'ip-10-0-0-9.ec2.internal' };
class WithStaleEtcdMember extends InMemoryWorkloadCluster {
  stalePresent = true;
  override readingThrough(): WorkloadCluster {
    return this;
  }
  override async listEtcdMembers(cluster: WorkloadClusterRef, node: EtcdNode): Promise<EtcdMember[] | undefined> {
    const members = await super.listEtcdMembers(cluster, node);
    return members && (this.stalePresent ? [...members, STALE_MEMBER] : members);
  }
  override async removeEtcdMember(cluster: WorkloadClusterRef, node: EtcdNode, memberId: string): Promise<void> {
    if (memberId === STALE_MEMBER.id) this.stalePresent = false;
    else await super.removeEtcdMember(cluster, node, memberId);
  }
}

describe('KubeadmControlPlane and etcd (converge harness, in-memory provider)', () => {
  it('scaling down, removes each deleted Machine’s etcd member through another Node before its infrastructure goes, then lets it go', async () => {
    const { store, run, workload } = await setup(3);
    expect((await run()).errors).toEqual([]);
    const c1 = { namespace: NS, name: 'c1' };
    const before = await cpMachines(store);
    expect(before.map((m) => m.metadata.annotations?.[KCP_PRE_TERMINATE_HOOK])).toEqual(['', '', '']);
    expect((await workload.listEtcdMembers(c1, nodeOf(before[0])))?.map((m) => m.name).sort()).toEqual(before.map((m) => nodeOf(m).name).sort());

    await setSpec(store, { replicas: 1 });
    const violations: string[] = [];
    const stats = await run(async () => {
      const infra = new Set((await store.list({ group: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachine', namespace: NS })).items.map((m) => m.metadata.name));
      for (const machine of before) {
        const member = workload.objects.etcd.members(c1, [nodeOf(machine)]);
        if (!infra.has(machine.metadata.name) && member.length > 0) violations.push(`${machine.metadata.name}: infrastructure gone, etcd member left`);
      }
    });
    expect(stats.errors).toEqual([]);
    expect(violations).toEqual([]);
    const left = await cpMachines(store);
    expect(left).toHaveLength(1);
    expect(await workload.listEtcdMembers(c1, nodeOf(left[0]))).toEqual([{ id: simulatedMemberId(nodeOf(left[0]).providerID), name: nodeOf(left[0]).name }]);
    const gone = before.filter((m) => m.metadata.name !== left[0]?.metadata.name);
    expect(gone.flatMap((m) => workload.objects.etcd.members(c1, [nodeOf(m)]))).toEqual([]);

    // The last one: its deletion (the control plane's) takes the hook off, no member is removed.
    await store.delete(KCP_KEY);
    expect((await run()).errors).toEqual([]);
    expect(await cpMachines(store)).toEqual([]);
    expect(workload.objects.etcd.members(c1, [nodeOf(left[0])])).toHaveLength(1);
  });

  it('removes an etcd member no Machine owns once every Machine has its Node, and keeps the Machines’ members', async () => {
    let stale: WithStaleEtcdMember | undefined;
    const { store, run, workload } = await setup(3, { workload: (store) => (stale = new WithStaleEtcdMember(store)) });
    const said = new Set<string>();
    expect(
      (
        await run(async () => {
          const healthy = findCondition(conditionsOf((await store.get(KCP_KEY))?.status), 'EtcdClusterHealthy');
          if (healthy) said.add(`${healthy.status}: ${healthy.message ?? ''}`);
        })
      ).errors,
    ).toEqual([]);
    expect(stale?.stalePresent).toBe(false);
    // EtcdClusterHealthy said so while the member was there, and is True once it is gone.
    expect(said).toContain(`False: * Etcd member ${STALE_MEMBER.name} does not have a corresponding Machine`);
    expect(findCondition(conditionsOf((await store.get(KCP_KEY))?.status), 'EtcdClusterHealthy')?.status).toBe('True');
    const machines = await cpMachines(store);
    const [first] = machines;
    if (!first) throw new Error('no control-plane Machine');
    const through = { name: stringAt(first, 'status', 'nodeRef', 'name') ?? '', providerID: stringAt(first, 'spec', 'providerID') ?? '' };
    const members = await workload.listEtcdMembers({ namespace: NS, name: 'c1' }, through);
    expect(members?.map((m) => m.name).sort()).toEqual(machines.map((m) => stringAt(m, 'status', 'nodeRef', 'name')).sort());
  });

  it('in a rollout, moves etcd leadership off each Machine before deleting it: a deleting Machine’s member never leads', async () => {
    const { store, run, workload } = await setup(3);
    expect((await run()).errors).toEqual([]);
    const c1 = { namespace: NS, name: 'c1' };
    const leaderOf = async (machines: readonly StoredObject[]) => {
      for (const machine of machines.filter((m) => stringAt(m, 'status', 'nodeRef', 'name'))) {
        const status = await workload.etcdStatus(c1, nodeOf(machine));
        const members = await workload.listEtcdMembers(c1, nodeOf(machine));
        if (status && members) return members.find((m) => m.id === status.leaderId)?.name;
      }
      return undefined;
    };
    const before = await cpMachines(store);
    const firstLeader = await leaderOf(before);
    expect(before.map((m) => nodeOf(m).name)).toContain(firstLeader);

    await setSpec(store, { version: 'v1.32.0' });
    const violations: string[] = [];
    const stats = await run(async () => {
      const machines = await cpMachines(store);
      const leader = await leaderOf(machines);
      for (const machine of machines.filter(isDeleting)) if (nodeOf(machine).name === leader) violations.push(`${machine.metadata.name} deleting while its member leads`);
    });
    expect(stats.errors).toEqual([]);
    expect(violations).toEqual([]);
    const after = await cpMachines(store);
    expect(after.map((m) => m.metadata.name).filter((name) => before.some((b) => b.metadata.name === name))).toEqual([]);
    expect(after.map((m) => nodeOf(m).name)).toContain(await leaderOf(after));
  });
});
