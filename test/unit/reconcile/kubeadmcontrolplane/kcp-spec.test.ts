import { describe, expect, it } from 'vitest';
import { readKcpSpec } from '../../../../functions/reconcile/kubeadm/controlplane/kcp-spec.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';

const POD_GATES = ['APIServerPodHealthy', 'ControllerManagerPodHealthy', 'SchedulerPodHealthy'];
const ETCD_GATES = ['EtcdPodHealthy', 'EtcdMemberHealthy'];

function kcp(templateGates: unknown[] | undefined, externalEtcd = false): KubeObject {
  return {
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'cp' },
    spec: {
      version: 'v1.31.2',
      machineTemplate: { spec: { infrastructureRef: { apiGroup: 'x', kind: 'Y', name: 'z' }, ...(templateGates ? { readinessGates: templateGates } : {}) } },
      kubeadmConfigSpec: externalEtcd ? { clusterConfiguration: { etcd: { external: { endpoints: ['https://etcd:2379'] } } } } : {},
    },
  };
}

describe('readKcpSpec: the readiness gates of the control plane’s Machines (Cluster API MandatoryMachineReadinessGates)', () => {
  it.for<[string, unknown[] | undefined, boolean, unknown[]]>([
    ['a stacked etcd: the Pod and etcd gates', undefined, false, [...POD_GATES, ...ETCD_GATES].map((conditionType) => ({ conditionType }))],
    ['an external etcd: the Pod gates only', undefined, true, POD_GATES.map((conditionType) => ({ conditionType }))],
    [
      'the template’s after them, one per condition type',
      [{ conditionType: 'example.com/Attached', polarity: 'Negative' }, { conditionType: 'SchedulerPodHealthy' }],
      true,
      [...POD_GATES.map((conditionType) => ({ conditionType })), { conditionType: 'example.com/Attached', polarity: 'Negative' }],
    ],
  ])('%s', ([, templateGates, external, expected]) => {
    expect(readKcpSpec(kcp(templateGates, external)).machineSpecExtras.readinessGates).toEqual(expected);
  });
});
