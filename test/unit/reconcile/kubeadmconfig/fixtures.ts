/** Objects for KubeadmConfig reconciler tests, written into a real MemoryObjectStore. */

import { LABEL_CLUSTER_NAME, type StoredObject, keyOf, ownerReferenceTo } from '../../../../shared/contracts/object.js';
import { silentLogger } from '../../../../shared/ports/logger.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import type { ReconcileContext } from '../../../../functions/reconcile/engine/skeleton/types.js';
import { FakeClock } from '../../../support/fake-clock.js';

export const NS = 'default';
export const CLUSTER = 'c1';
/** ECDSA keeps key generation fast in tests. */
export const FAST_CLUSTER_CONFIGURATION = { encryptionAlgorithm: 'ECDSA-P256' };

export interface Env {
  store: MemoryObjectStore;
  clock: FakeClock;
  ctx: ReconcileContext;
}

export function newEnv(): Env {
  const clock = new FakeClock('2026-03-01T00:00:00Z');
  const store = new MemoryObjectStore({ clock });
  const ctx: ReconcileContext = {
    store,
    clock,
    logger: silentLogger,
    queue: { enqueue: async () => {}, enqueueMany: async () => {} },
  };
  return { store, clock, ctx };
}

export async function setStatus(store: ObjectStore, obj: StoredObject, status: Record<string, unknown>): Promise<StoredObject> {
  const fresh = (await store.get(keyOf(obj))) ?? obj;
  return store.updateStatus({ ...fresh, status: { ...fresh.status, ...status } });
}

export async function createCluster(
  store: ObjectStore,
  options: { provisioned?: boolean; initialized?: boolean; controlPlaneRef?: boolean } = {},
): Promise<StoredObject> {
  const cluster = await store.create({
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: CLUSTER, namespace: NS, labels: { [LABEL_CLUSTER_NAME]: CLUSTER } },
    spec: {
      controlPlaneEndpoint: { host: '10.0.0.10', port: 6443 },
      clusterNetwork: { pods: { cidrBlocks: ['192.168.0.0/16'] }, services: { cidrBlocks: ['10.96.0.0/12'] } },
      ...(options.controlPlaneRef
        ? { controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', name: 'cp' } }
        : {}),
    },
  });
  return setStatus(store, cluster, {
    initialization: {
      infrastructureProvisioned: options.provisioned ?? true,
      controlPlaneInitialized: options.initialized ?? false,
    },
  });
}

export async function createMachineWithConfig(
  store: ObjectStore,
  name: string,
  options: { controlPlane: boolean; spec?: Record<string, unknown>; version?: string },
): Promise<{ machine: StoredObject; config: StoredObject }> {
  const labels: Record<string, string> = { [LABEL_CLUSTER_NAME]: CLUSTER };
  if (options.controlPlane) labels['cluster.x-k8s.io/control-plane'] = '';
  const machine = await store.create({
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: { name, namespace: NS, labels },
    spec: {
      clusterName: CLUSTER,
      version: options.version ?? 'v1.31.2',
      bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfig', name } },
    },
  });
  const config = await store.create({
    apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmConfig',
    metadata: { name, namespace: NS, labels: { [LABEL_CLUSTER_NAME]: CLUSTER }, ownerReferences: [ownerReferenceTo(machine)] },
    spec: options.spec ?? {
      format: 'cloud-config',
      clusterConfiguration: FAST_CLUSTER_CONFIGURATION,
      initConfiguration: { nodeRegistration: { name: '{{ v1.local_hostname }}' } },
      joinConfiguration: { nodeRegistration: { name: '{{ v1.local_hostname }}' } },
    },
  });
  return { machine, config };
}

export function secretKey(name: string) {
  return { group: '', kind: 'Secret', namespace: NS, name };
}

export function configKey(name: string) {
  return { group: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfig', namespace: NS, name };
}
