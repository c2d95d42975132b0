import { describe, expect, it } from 'vitest';
import { clusterReconciler } from '../../../../functions/reconcile/core/cluster/reconciler.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { devMachineReconciler } from '../../../../functions/reconcile/infrastructure/dev/machine-reconciler.js';
import { inMemoryMachineReconciler } from '../../../../functions/reconcile/infrastructure/inmemory/machine/reconciler.js';
import { kubeadmConfigReconciler } from '../../../../functions/reconcile/kubeadm/bootstrap/reconciler.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import { keyString, type StoredObject } from '../../../../shared/contracts/object.js';
import type { ObjectChange } from '../../../../shared/ports/object-store.js';
import { lookupWithClusters } from '../../../support/router-lookup.js';

const registry = new ReconcilerRegistry([inMemoryMachineReconciler, devMachineReconciler, kubeadmConfigReconciler, clusterReconciler]);
const meta = { namespace: 'ns1', uid: 'u', resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z', labels: { 'cluster.x-k8s.io/cluster-name': 'c1' } };

function machine(spec: Record<string, unknown> = {}, extra: Partial<StoredObject['metadata']> = {}): StoredObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: { name: 'm1', ...meta, ...extra },
    spec: {
      clusterName: 'c1',
      bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfig', name: 'kc1' } },
      infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachine', name: 'im1' },
      ...spec,
    },
  };
}

function machineSet(extra: Partial<StoredObject['metadata']> = {}, status: Record<string, unknown> = {}): StoredObject {
  return { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineSet', metadata: { name: 'ms1', ...meta, ...extra }, spec: { clusterName: 'c1', replicas: 3 }, status };
}

const IMM = 'infrastructure.cluster.x-k8s.io/InMemoryMachine/ns1/im1';
const CLUSTER = 'cluster.x-k8s.io/Cluster/ns1/c1';

describe('what wakes an infrastructure machine, a bootstrap config and the Cluster', () => {
  it.each<[string, ObjectChange, string[]]>([
    ["a Machine's creation wakes neither its infrastructure machine nor its config: they wait to be adopted", { type: 'INSERT', newObject: machine() }, []],
    [
      'its bootstrap data arriving wakes the infrastructure machine',
      { type: 'MODIFY', oldObject: machine(), newObject: machine({ bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfig', name: 'kc1' }, dataSecretName: 's' } }) },
      [IMM],
    ],
    ["its deletion wakes neither: they read nothing of it, and the Machine's deletion deletes them", { type: 'MODIFY', oldObject: machine(), newObject: machine({}, { deletionTimestamp: '2026-01-02T00:00:00Z' }) }, []],
    ['its removal wakes neither (its deletion deleted them first), only the Cluster, which waits for worker Machines to go', { type: 'REMOVE', oldObject: machine() }, [CLUSTER]],
    ["a MachineSet's own finalizer does not wake the Cluster", { type: 'MODIFY', oldObject: machineSet(), newObject: machineSet({ finalizers: ['cluster.x-k8s.io/machineset'] }) }, []],
    ["a MachineSet's status does", { type: 'MODIFY', oldObject: machineSet(), newObject: machineSet({}, { readyReplicas: 1 }) }, [CLUSTER]],
    ['a new MachineSet does', { type: 'INSERT', newObject: machineSet() }, [CLUSTER]],
  ])('%s', async (_label, change, expected) => {
    const requests = await routeChange(change, registry, await lookupWithClusters('ns1', 'c1'));
    expect(requests.map(keyString).filter((key) => !key.startsWith('cluster.x-k8s.io/Machine')).sort()).toEqual(expected.sort());
  });
});
