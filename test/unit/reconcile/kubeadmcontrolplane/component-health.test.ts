import { describe, expect, it } from 'vitest';
import {
  componentsOf,
  machineComponentConditions,
  type NodeView,
  staticPodCondition,
} from '../../../../functions/reconcile/kubeadm/controlplane/component-health.js';
import type { StaticPod, StaticPodContainer } from '../../../../shared/ports/workload-static-pods.js';

function pod(phase: string | undefined, conditions: Record<string, string> = {}, containers: StaticPodContainer[] = []): StaticPod {
  return {
    name: 'kube-apiserver-n1',
    ...(phase ? { phase } : {}),
    conditions: Object.entries(conditions).map(([type, status]) => ({ type, status })),
    containers,
  };
}

describe('staticPodCondition (Cluster API updateStaticPodCondition)', () => {
  it.for<[string, StaticPod | undefined, string, string, string | undefined]>([
    ['no Pod', undefined, 'False', 'DoesNotExist', 'Pod does not exist'],
    ['Pending, not scheduled', pod('Pending'), 'False', 'Provisioning', 'Waiting to be scheduled'],
    ['Pending, init containers', pod('Pending', { PodScheduled: 'True' }), 'False', 'Provisioning', 'Running init containers'],
    ['Pending, initialized', pod('Pending', { PodScheduled: 'True', Initialized: 'True' }), 'False', 'Provisioning', undefined],
    ['Running and Ready', pod('Running', { Ready: 'True' }), 'True', 'Running', undefined],
    ['Running, a container waiting', pod('Running', { Ready: 'False' }, [{ waitingReason: 'ContainerCreating' }]), 'False', 'Provisioning', 'ContainerCreating'],
    ['Running, crash looping', pod('Running', { Ready: 'False' }, [{ waitingReason: 'CrashLoopBackOff', lastExitCode: 1 }]), 'False', 'Failed', 'CrashLoopBackOff'],
    ['Running, a container ended', pod('Running', { Ready: 'False' }, [{ terminatedReason: 'Error' }]), 'False', 'Failed', 'Error'],
    ['Running, probes pending', pod('Running', {}, [{}]), 'False', 'Provisioning', 'Waiting for startup or readiness probes'],
    ['Succeeded', pod('Succeeded'), 'False', 'Failed', 'All the containers have been terminated'],
    ['Failed', pod('Failed'), 'False', 'Failed', 'All the containers have been terminated'],
    ['Unknown', pod('Unknown'), 'Unknown', 'InspectionFailed', 'Pod is reporting Unknown status'],
  ])('%s', ([, found, status, reason, message]) => {
    expect(staticPodCondition('kube-apiserver', found)).toEqual({ type: 'APIServerPodHealthy', status, reason, ...(message ? { message } : {}) });
  });
});

describe('machineComponentConditions', () => {
  const running = (name: string, pods: StaticPod[]): NodeView => ({ state: 'running', name, pods });
  const healthy = (component: string, node: string): StaticPod => ({ name: `${component}-${node}`, phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containers: [] });

  it.for<[string, NodeView, string, string, string | undefined]>([
    ['no Node yet', { state: 'noNode', waitingFor: 'Waiting for InMemoryMachine to report spec.providerID' }, 'Unknown', 'InspectionFailed', 'Waiting for InMemoryMachine to report spec.providerID'],
    ['deleting', { state: 'deleting' }, 'False', 'Deleting', 'Machine is deleting'],
    ['Node gone', { state: 'missing', name: 'n1' }, 'Unknown', 'InspectionFailed', 'Node n1 does not exist'],
    ['Node unreachable', { state: 'unreachable', name: 'n1' }, 'Unknown', 'InspectionFailed', 'Node n1 is unreachable'],
    ['Node Ready Unknown', { state: 'readyUnknown', name: 'n1' }, 'Unknown', 'InspectionFailed', 'Node Ready condition is Unknown, Pod data might be stale'],
    ['cluster down', { state: 'failed', reason: 'ConnectionDown', message: 'connection refused' }, 'Unknown', 'ConnectionDown', 'connection refused'],
  ])('%s: every component says so', ([, node, status, reason, message]) => {
    const conditions = machineComponentConditions(componentsOf(true), node);
    expect(conditions.map((c) => c.type)).toEqual(['APIServerPodHealthy', 'ControllerManagerPodHealthy', 'SchedulerPodHealthy', 'EtcdPodHealthy']);
    for (const c of conditions) expect(c).toMatchObject({ status, reason, ...(message ? { message } : {}) });
  });

  it("each component from its own Pod, by the Node's name; another Node's Pod does not count", () => {
    const conditions = machineComponentConditions(componentsOf(true), running('n1', [healthy('kube-apiserver', 'n1'), healthy('kube-scheduler', 'n1'), healthy('etcd', 'n2')]));
    expect(Object.fromEntries(conditions.map((c) => [c.type, c.reason]))).toEqual({
      APIServerPodHealthy: 'Running',
      ControllerManagerPodHealthy: 'DoesNotExist',
      SchedulerPodHealthy: 'Running',
      EtcdPodHealthy: 'DoesNotExist',
    });
  });

  it('an external etcd: no EtcdPodHealthy', () => {
    expect(machineComponentConditions(componentsOf(false), { state: 'deleting' }).map((c) => c.type)).toEqual(['APIServerPodHealthy', 'ControllerManagerPodHealthy', 'SchedulerPodHealthy']);
  });
});
