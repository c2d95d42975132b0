import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/contracts/object.js';
import type { WorkloadCluster } from '../../../shared/ports/workload-cluster.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { InMemoryWorkloadCluster, inMemoryProviderID } from '../../../shared/workload-cluster/in-memory-workload-cluster.js';
import { PerClusterWorkloadCluster } from '../../../shared/workload-cluster/per-cluster-workload-cluster.js';

/** A WorkloadCluster that only says it was asked. */
function recorder(name: string, calls: string[]): WorkloadCluster {
  const asked = <T>(answer: T) => async () => {
    calls.push(name);
    return answer;
  };
  return {
    findNodeByProviderID: asked(undefined),
    applyObjects: asked([]),
    patchNode: asked(undefined),
    deleteNode: asked(undefined),
    listPodsOnNode: asked([]),
    listNamespaces: asked([]),
    daemonSetExists: asked(false),
    listVolumeAttachments: asked([]),
    listPersistentVolumes: asked([]),
    apiServerCertificateExpiry: asked(undefined),
    listEtcdMembers: asked(undefined),
    removeEtcdMember: asked(undefined),
    etcdStatus: asked(undefined),
    listEtcdAlarms: asked(undefined),
    moveEtcdLeader: asked(undefined),
    listStaticPods: asked([]),
    readConfigMap: asked(undefined),
    writeConfigMapData: asked(undefined),
    readContainerImage: asked(undefined),
    setContainerImage: asked(undefined),
    evictPod: asked({ result: 'NotFound' as const }),
  };
}

const INFRA = 'infrastructure.cluster.x-k8s.io';
const cluster = (infrastructureRef?: { kind: string; name: string }): KubeObject => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Cluster',
  metadata: { name: 'c1', namespace: 'default' },
  spec: infrastructureRef ? { infrastructureRef: { apiGroup: INFRA, ...infrastructureRef } } : {},
});
const devCluster = (backend: Record<string, unknown>): KubeObject => ({ apiVersion: `${INFRA}/v1beta2`, kind: 'DevCluster', metadata: { name: 'c1', namespace: 'default' }, spec: { backend } });

describe('PerClusterWorkloadCluster', () => {
  it.each([
    ['in-memory://default/m1', 'simulated'],
    ['dev-in-memory://default/m1', 'simulated'],
    ['aws:///us-east-1a/i-0123456789abcdef0', 'real'],
    ['docker:////c1-md-0', 'real'],
  ])('finds the Node of %s in the %s cluster', async (providerID, expected) => {
    const calls: string[] = [];
    const workload = new PerClusterWorkloadCluster(new MemoryObjectStore(), recorder('simulated', calls), recorder('real', calls));
    await workload.findNodeByProviderID({ namespace: 'default', name: 'c1' }, providerID);
    expect(calls).toEqual([expected]);
  });

  it.each([
    ['in-memory://default/m1', 'simulated'],
    ['aws:///us-east-1a/i-0123456789abcdef0', 'real'],
  ])('asks etcd and the static Pods through the Node of %s in the %s cluster', async (providerID, expected) => {
    const calls: string[] = [];
    const workload = new PerClusterWorkloadCluster(new MemoryObjectStore(), recorder('simulated', calls), recorder('real', calls));
    await workload.listEtcdMembers({ namespace: 'default', name: 'c1' }, { name: 'n1', providerID });
    await workload.removeEtcdMember({ namespace: 'default', name: 'c1' }, { name: 'n1', providerID }, '1');
    await workload.etcdStatus({ namespace: 'default', name: 'c1' }, { name: 'n1', providerID });
    await workload.moveEtcdLeader({ namespace: 'default', name: 'c1' }, { name: 'n1', providerID }, '2');
    await workload.listStaticPods({ namespace: 'default', name: 'c1' }, { name: 'n1', providerID });
    await workload.listEtcdAlarms({ namespace: 'default', name: 'c1' }, { name: 'n1', providerID });
    expect(calls).toEqual([expected, expected, expected, expected, expected, expected]);
  });

  it.each<[string, KubeObject[], string]>([
    ['an InMemoryCluster', [cluster({ kind: 'InMemoryCluster', name: 'c1' })], 'simulated'],
    ['a DevCluster with backend.inMemory', [cluster({ kind: 'DevCluster', name: 'c1' }), devCluster({ inMemory: {} })], 'simulated'],
    ['a DevCluster with backend.docker', [cluster({ kind: 'DevCluster', name: 'c1' }), devCluster({ docker: {} })], 'real'],
    ['an AWSCluster', [cluster({ kind: 'AWSCluster', name: 'c1' })], 'real'],
    ['no infrastructure yet', [cluster()], 'real'],
  ])('applies objects to a Cluster on %s through the %s cluster', async (_name, objects, expected) => {
    const store = new MemoryObjectStore();
    for (const object of objects) await store.create(object);
    const calls: string[] = [];
    const workload = new PerClusterWorkloadCluster(store, recorder('simulated', calls), recorder('real', calls));
    await workload.applyObjects({ namespace: 'default', name: 'c1' }, [], { mode: 'CreateOnly' });
    expect(calls).toEqual([expected]);
  });

  describe('readingThrough', () => {
    const providerID = inMemoryProviderID('default', 'm1');
    const inMemoryMachine: KubeObject = {
      apiVersion: `${INFRA}/v1beta2`,
      kind: 'InMemoryMachine',
      metadata: { name: 'm1', namespace: 'default' },
      spec: { providerID },
      status: { simulatedNode: { name: 'm1', ready: true } },
    };

    it.each<[string, (workload: PerClusterWorkloadCluster, through: MemoryObjectStore) => WorkloadCluster, string | undefined]>([
      ['as built, it reads its own store', (workload) => workload, undefined],
      ['reading through another store, it finds the Node there', (workload, through) => workload.readingThrough(through), 'm1'],
    ])('%s', async (_name, bind, expected) => {
      const own = new MemoryObjectStore();
      const through = new MemoryObjectStore();
      await through.create(inMemoryMachine);
      const workload = new PerClusterWorkloadCluster(own, new InMemoryWorkloadCluster(own), recorder('real', []));
      const node = await bind(workload, through).findNodeByProviderID({ namespace: 'default', name: 'c1' }, providerID);
      expect(node?.name).toBe(expected);
    });

    it('routes applied objects by the Cluster it reads through the given store, and keeps a half that reads nothing', async () => {
      const through = new MemoryObjectStore();
      await through.create(cluster({ kind: 'InMemoryCluster', name: 'c1' }));
      const calls: string[] = [];
      const real = recorder('real', calls);
      const workload = new PerClusterWorkloadCluster(new MemoryObjectStore(), recorder('simulated', calls), real).readingThrough(through);
      await workload.applyObjects({ namespace: 'default', name: 'c1' }, [], { mode: 'CreateOnly' });
      await workload.findNodeByProviderID({ namespace: 'default', name: 'c1' }, 'aws:///us-east-1a/i-0123456789abcdef0');
      expect(calls).toEqual(['simulated', 'real']);
    });
  });
});
