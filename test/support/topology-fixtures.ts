/**
 * A small ClusterClass (Dev* in-memory templates, kubeadm templates, one patch, two
 * MachineDeployment classes) and a topology Cluster using it, in a fresh memory store with the
 * class marked reconciled: the input of topology unit tests.
 */

import { admitCreate } from '../../shared/contracts/admission/admit.js';
import type { KubeObject } from '../../shared/contracts/object.js';
import { MemoryObjectStore } from '../../shared/store/memory-store.js';
import { ctx } from '../contracts/admission-fixtures.js';

export const NS = 'prop';
const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta2';
const quick = { provisioning: { startupDuration: '1s', startupJitter: '0.2' } };

export function classObjects(): KubeObject[] {
  const meta = (name: string) => ({ name, namespace: NS });
  return [
    { apiVersion: INFRA, kind: 'DevClusterTemplate', metadata: meta('cluster'), spec: { template: { spec: { backend: { inMemory: {} } } } } },
    {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmControlPlaneTemplate',
      metadata: meta('cp'),
      spec: { template: { spec: { kubeadmConfigSpec: { clusterConfiguration: { apiServer: { certSANs: ['localhost'] } } } } } },
    },
    { apiVersion: INFRA, kind: 'DevMachineTemplate', metadata: meta('machine'), spec: { template: { spec: { backend: { inMemory: { vm: quick } } } } } },
    {
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmConfigTemplate',
      metadata: meta('bootstrap'),
      spec: { template: { spec: { joinConfiguration: { nodeRegistration: { criSocket: 'unix:///var/run/containerd/containerd.sock' } } } } },
    },
    {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'ClusterClass',
      metadata: meta('cc'),
      spec: {
        infrastructure: { templateRef: { apiVersion: INFRA, kind: 'DevClusterTemplate', name: 'cluster' } },
        controlPlane: {
          templateRef: { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlaneTemplate', name: 'cp' },
          machineInfrastructure: { templateRef: { apiVersion: INFRA, kind: 'DevMachineTemplate', name: 'machine' } },
          healthCheck: { checks: { unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }] } },
        },
        workers: {
          machineDeployments: ['a', 'b'].map((cls) => ({
            class: cls,
            bootstrap: { templateRef: { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfigTemplate', name: 'bootstrap' } },
            infrastructure: { templateRef: { apiVersion: INFRA, kind: 'DevMachineTemplate', name: 'machine' } },
            ...(cls === 'a' ? { healthCheck: { checks: { nodeStartupTimeoutSeconds: 600 } } } : {}),
          })),
        },
        variables: [{ name: 'tag', required: false, schema: { openAPIV3Schema: { type: 'string', default: 'v1' } } }],
        patches: [
          {
            name: 'tag',
            definitions: [
              {
                selector: { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlaneTemplate', matchResources: { controlPlane: true } },
                jsonPatches: [{ op: 'add', path: '/spec/template/spec/kubeadmConfigSpec/clusterConfiguration/etcd', valueFrom: { template: 'local:\n  imageTag: {{ .tag }}-{{ .builtin.cluster.name }}' } }],
              },
            ],
          },
        ],
      },
    },
  ];
}

export interface TopologyInput {
  name: string;
  cpReplicas: number | undefined;
  tag: string;
  mds: Array<{ name: string; class: string; replicas: number | undefined }>;
}

export async function setUpTopologyCluster(topology: TopologyInput, store = new MemoryObjectStore()) {
  for (const object of classObjects()) await store.create(admitCreate(object, ctx));
  const cc = await store.get({ group: 'cluster.x-k8s.io', kind: 'ClusterClass', namespace: NS, name: 'cc' });
  if (!cc) throw new Error('no class');
  const ok = (type: string) => ({ type, status: 'True', reason: type, lastTransitionTime: '2026-01-01T00:00:00Z' });
  await store.updateStatus({ ...cc, status: { observedGeneration: cc.metadata.generation, conditions: [ok('VariablesReady'), ok('RefVersionsUpToDate')] } });
  const cluster = await store.create(
    admitCreate(
      {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'Cluster',
        metadata: { name: topology.name, namespace: NS },
        spec: {
          topology: {
            classRef: { name: 'cc' },
            version: 'v1.33.0',
            // Empty objects and lists are left out, as Cluster API's CRD (minProperties, minItems) requires.
            ...(topology.cpReplicas === undefined ? {} : { controlPlane: { replicas: topology.cpReplicas } }),
            ...(topology.mds.length === 0
              ? {}
              : { workers: { machineDeployments: topology.mds.map((md) => ({ name: md.name, class: md.class, ...(md.replicas === undefined ? {} : { replicas: md.replicas }) })) } }),
            variables: [{ name: 'tag', value: topology.tag }],
          },
        },
      },
      ctx,
    ),
  );
  return { store, cluster };
}

