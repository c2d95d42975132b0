import { describe, expect, it } from 'vitest';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { valueAt } from '../../../../shared/contracts/json.js';
import { type EtcdNode, type StaticPod, WORKLOAD_CLUSTER_PORT, type WorkloadCluster, WorkloadClusterUnavailableError, type WorkloadClusterRef } from '../../../../shared/ports/workload-cluster.js';
import { PROVIDER_LOOKUP_PORT } from '../../../../shared/contracts/providers/provider-lookup.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { COMPONENTS_NOT_HEALTHY_REQUEUE_SECONDS, WORKLOAD_UNREACHABLE_REQUEUE_SECONDS } from '../../../../functions/reconcile/kubeadm/controlplane/control-plane-health.js';
import { kubeadmControlPlaneReconciler } from '../../../../functions/reconcile/kubeadm/controlplane/reconciler.js';
import { testContext } from '../../../support/reconcile-context.js';
import type { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { simulatedMemberId } from '../../../../shared/workload-cluster/in-memory-etcd.js';
import { InMemoryWorkloadCluster } from '../../../../shared/workload-cluster/in-memory-workload-cluster.js';
import { cpMachines, KCP_KEY, kcp, nodeOf, setup } from '../../../support/kcp-converge.js';

const COMPONENTS = ['APIServerPodHealthy', 'ControllerManagerPodHealthy', 'SchedulerPodHealthy', 'EtcdPodHealthy', 'EtcdMemberHealthy'];

/** The simulated clusters, with the kube-scheduler on the Nodes named in `crashing` crash looping. */
class CrashingScheduler extends InMemoryWorkloadCluster {
  constructor(
    store: MemoryObjectStore,
    readonly crashing: Set<string>,
  ) {
    super(store);
  }

  override readingThrough(): WorkloadCluster {
    return this;
  }

  override async listStaticPods(cluster: WorkloadClusterRef, node: EtcdNode): Promise<StaticPod[]> {
    const pods = await super.listStaticPods(cluster, node);
    if (!this.crashing.has(node.name)) return pods;
    return pods.map((pod) =>
      pod.name === `kube-scheduler-${node.name}` ? { ...pod, conditions: [{ type: 'Ready', status: 'False' }], containers: [{ waitingReason: 'CrashLoopBackOff', lastExitCode: 1 }] } : pod,
    );
  }
}

async function componentConditions(store: MemoryObjectStore) {
  return Object.fromEntries(
    (await cpMachines(store)).map((m) => [m.metadata.name, COMPONENTS.map((type) => findCondition(conditionsOf(m.status), type)).map((c) => `${c?.status}/${c?.reason}`)]),
  );
}

describe('KubeadmControlPlane control plane health (converge harness, in-memory provider)', () => {
  it('marks each control-plane Machine’s static Pods Running and the control plane’s components Healthy', async () => {
    const { store, run } = await setup(3);
    expect((await run()).errors).toEqual([]);
    const machines = await componentConditions(store);
    expect(Object.keys(machines)).toHaveLength(3);
    for (const conditions of Object.values(machines)) expect(conditions).toEqual(['True/Running', 'True/Running', 'True/Running', 'True/Running', 'True/Healthy']);
    // Cluster API's mandatory readiness gates: each Machine is Ready once its components are (ADR 0176).
    for (const machine of await cpMachines(store)) {
      expect(valueAt(machine, 'spec', 'readinessGates')).toEqual(COMPONENTS.map((conditionType) => ({ conditionType })));
      expect(findCondition(conditionsOf(machine.status), 'Ready')?.status).toBe('True');
    }
    const conditions = conditionsOf((await kcp(store))?.status);
    expect(findCondition(conditions, 'ControlPlaneComponentsHealthy')).toMatchObject({ status: 'True', reason: 'Healthy' });
    expect(findCondition(conditions, 'EtcdClusterHealthy')).toMatchObject({ status: 'True', reason: 'Healthy' });
  });

  it('says which Machine’s component fails, on the Machine and in the control plane, and clears it once the Pod recovers', async () => {
    const crashing = new Set<string>();
    const { store, run, clock } = await setup(3, { workload: (s) => new CrashingScheduler(s, crashing) });
    expect((await run()).errors).toEqual([]);
    const [sick] = await cpMachines(store);
    crashing.add(nodeOf(sick).name);
    clock.advanceSeconds(20);
    expect((await run()).errors).toEqual([]);
    const scheduler = findCondition(conditionsOf((await store.get({ group: 'cluster.x-k8s.io', kind: 'Machine', namespace: 'default', name: sick?.metadata.name ?? '' }))?.status), 'SchedulerPodHealthy');
    expect(scheduler).toMatchObject({ status: 'False', reason: 'Failed', message: 'CrashLoopBackOff' });
    const sickNow = await store.get({ group: 'cluster.x-k8s.io', kind: 'Machine', namespace: 'default', name: sick?.metadata.name ?? '' });
    expect(findCondition(conditionsOf(sickNow?.status), 'Ready')).toMatchObject({ status: 'False', message: 'SchedulerPodHealthy: Failed' });
    expect(findCondition(conditionsOf((await kcp(store))?.status), 'ControlPlaneComponentsHealthy')).toMatchObject({
      status: 'False',
      reason: 'NotHealthy',
      message: `* Machine ${sick?.metadata.name}:\n  * SchedulerPodHealthy: CrashLoopBackOff`,
    });
    // Two Machines still run every component: the control plane stays Available and says so.
    expect(findCondition(conditionsOf((await kcp(store))?.status), 'Available')).toMatchObject({
      status: 'True',
      reason: 'Available',
      message: '* 2 of 3 Machines have healthy control plane components, at least 1 required',
    });

    crashing.clear();
    clock.advanceSeconds(20);
    expect((await run()).errors).toEqual([]);
    expect(findCondition(conditionsOf((await kcp(store))?.status), 'ControlPlaneComponentsHealthy')).toMatchObject({ status: 'True', reason: 'Healthy' });
  });

  it('says which Machine’s etcd member has an alarm raised, on the Machine and in EtcdClusterHealthy', async () => {
    const { store, run, clock, workload } = await setup(3);
    expect((await run()).errors).toEqual([]);
    const [sick] = await cpMachines(store);
    workload.objects.etcd.raiseAlarm({ namespace: 'default', name: 'c1' }, { memberId: simulatedMemberId(nodeOf(sick).providerID), alarm: 'NOSPACE' });
    clock.advanceSeconds(20);
    expect((await run()).errors).toEqual([]);
    const machine = await store.get({ group: 'cluster.x-k8s.io', kind: 'Machine', namespace: 'default', name: sick?.metadata.name ?? '' });
    expect(findCondition(conditionsOf(machine?.status), 'EtcdMemberHealthy')).toMatchObject({ status: 'False', reason: 'NotHealthy', message: 'Etcd reports alarms: NOSPACE' });
    expect(findCondition(conditionsOf((await kcp(store))?.status), 'EtcdClusterHealthy')).toMatchObject({
      status: 'False',
      reason: 'NotHealthy',
      message: `* Machine ${sick?.metadata.name}:\n  * EtcdMemberHealthy: Etcd reports alarms: NOSPACE`,
    });
    expect(findCondition(conditionsOf((await kcp(store))?.status), 'ControlPlaneComponentsHealthy')?.status).toBe('True');
  });

  it.for<[string, boolean, number]>([
    ['a component not healthy: the control plane looks again in 20 s', false, COMPONENTS_NOT_HEALTHY_REQUEUE_SECONDS],
    ['the workload cluster not answering: in 5 minutes', true, WORKLOAD_UNREACHABLE_REQUEUE_SECONDS],
  ])('%s', async ([, down, requeue]) => {
    const crashing = new Set<string>();
    const { store, run, clock, registry, workload } = await setup(1, { workload: (s) => new CrashingScheduler(s, crashing) });
    expect((await run()).errors).toEqual([]);
    const [machine] = await cpMachines(store);
    crashing.add(nodeOf(machine).name);
    if (down) {
      workload.findNodeByProviderID = async () => {
        throw new WorkloadClusterUnavailableError('ConnectionDown', 'dial tcp 10.0.0.10:6443: connect: connection refused');
      };
    }
    const ctx = testContext({ store, clock, providers: { [WORKLOAD_CLUSTER_PORT]: workload, [PROVIDER_LOOKUP_PORT]: registry } });
    const result = await runReconcile(kubeadmControlPlaneReconciler, ctx, KCP_KEY);
    expect(result.requeueAfterSeconds).toBe(requeue);
  });
});
