/**
 * A KubeadmControlPlane on the in-memory provider, reconciled by the converge harness with every
 * built-in reconciler: the Cluster `c1`, its InMemoryCluster and machine template, and the control
 * plane `cp` (v1.31.2, rolling update with a surge of one).
 */
import { builtinProviderRegistry } from '../../functions/reconcile/engine/providers/builtin.js';
import { stringAt } from '../../shared/contracts/json.js';
import type { StoredObject } from '../../shared/contracts/object.js';
import { WORKLOAD_CLUSTER_PORT } from '../../shared/ports/workload-cluster.js';
import { MemoryObjectStore } from '../../shared/store/memory-store.js';
import { InMemoryWorkloadCluster } from '../../shared/workload-cluster/in-memory-workload-cluster.js';
import { converge } from './converge.js';
import { FakeClock } from './fake-clock.js';

export const NS = 'default';
export const KCP_KEY = { group: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', namespace: NS, name: 'cp' };

export interface KcpSetupOptions {
  /** The simulated workload clusters. @default an InMemoryWorkloadCluster over the store */
  workload?: (store: MemoryObjectStore) => InMemoryWorkloadCluster;
  /** The control plane's kubeadmConfigSpec. @default cloud-config, ECDSA-P256 keys */
  kubeadmConfigSpec?: Record<string, unknown>;
}

export async function setup(replicas: number, options: KcpSetupOptions = {}) {
  const clock = new FakeClock('2026-03-01T00:00:00Z');
  const store = new MemoryObjectStore({ clock });
  const workload = options.workload ? options.workload(store) : new InMemoryWorkloadCluster(store);
  await store.create({
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'InMemoryCluster',
    metadata: { name: 'c1', namespace: NS },
    spec: { controlPlaneEndpoint: { host: '10.0.0.10', port: 6443 } },
  });
  await store.create({
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'InMemoryMachineTemplate',
    metadata: { name: 'tpl', namespace: NS },
    spec: { template: { spec: { startupSeconds: 0 } } },
  });
  await store.create({
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'cp', namespace: NS },
    spec: {
      replicas,
      version: 'v1.31.2',
      rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } },
      machineTemplate: { spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachineTemplate', name: 'tpl' } } },
      kubeadmConfigSpec: options.kubeadmConfigSpec ?? { format: 'cloud-config', clusterConfiguration: { encryptionAlgorithm: 'ECDSA-P256' } },
    },
  });
  await store.create({
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: 'c1', namespace: NS },
    spec: {
      infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryCluster', name: 'c1' },
      controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', name: 'cp' },
    },
  });
  const registry = builtinProviderRegistry();
  const run = (afterRound?: () => Promise<void>) =>
    converge(registry, store, { clock, maxRounds: 200, providers: { [WORKLOAD_CLUSTER_PORT]: workload }, ...(afterRound ? { afterRound } : {}) });
  return { store, run, clock, registry, workload };
}

export async function kcp(store: MemoryObjectStore): Promise<StoredObject | undefined> {
  return store.get(KCP_KEY);
}

export async function cpMachines(store: MemoryObjectStore): Promise<StoredObject[]> {
  const { items } = await store.list({ group: 'cluster.x-k8s.io', kind: 'Machine', namespace: NS });
  return items.filter((m) => m.metadata.labels?.['cluster.x-k8s.io/control-plane'] !== undefined);
}

export async function setSpec(store: MemoryObjectStore, patch: Record<string, unknown>): Promise<void> {
  const current = await kcp(store);
  if (!current) throw new Error('kcp missing');
  await store.update({ ...current, spec: { ...current.spec, ...patch } });
}

/** A control-plane Machine's Node, as etcd calls go through it. */
export function nodeOf(machine: StoredObject | undefined): { name: string; providerID: string } {
  return { name: stringAt(machine, 'status', 'nodeRef', 'name') ?? '', providerID: stringAt(machine, 'spec', 'providerID') ?? '' };
}
