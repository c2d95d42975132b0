import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import { keyString, type StoredObject } from '../../../../shared/contracts/object.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';

/**
 * Which writes of a control-plane Machine wake the KubeadmControlPlane that owns it, through the
 * built-in registry: what the control plane reads (the spec it compares, nodeRef and phase, the
 * health and remediation marks by status, metadata) does; the Machine's progress through other
 * conditions' reasons, its providerID and its bootstrap data secret do not.
 */
const CORE = 'cluster.x-k8s.io';
const CP = 'controlplane.cluster.x-k8s.io';
const T = '2026-01-01T00:00:00Z';
const registry = new ReconcilerRegistry(builtinProviderRegistry().reconcilers());
const kcpKey = keyString({ group: CP, kind: 'KubeadmControlPlane', namespace: 'ns', name: 'cp' });

type Condition = { type: string; status: string; reason: string };
const condition = (type: string, status: string, reason: string): Condition => ({ type, status, reason });
const provisioning = [condition('InfrastructureReady', 'False', 'WaitingForBootstrapData'), condition('NodeHealthy', 'Unknown', 'WaitingForProviderID')];
const configRef = { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfig', name: 'cp-1' };
const replace = (c: Condition) => [...provisioning.filter((p) => p.type !== c.type), c];

function machine(edit: { conditions?: Condition[]; spec?: Record<string, unknown>; status?: Record<string, unknown>; metadata?: Partial<StoredObject['metadata']> } = {}): StoredObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind: 'Machine',
    metadata: {
      name: 'cp-1',
      namespace: 'ns',
      uid: 'm-uid',
      resourceVersion: '1',
      generation: 1,
      creationTimestamp: T,
      labels: { [`${CORE}/cluster-name`]: 'c1', [`${CORE}/control-plane`]: '' },
      ownerReferences: [{ apiVersion: `${CP}/v1beta2`, kind: 'KubeadmControlPlane', name: 'cp', uid: 'cp-uid', controller: true }],
      ...edit.metadata,
    },
    spec: { clusterName: 'c1', version: 'v1.31.0', bootstrap: { configRef }, ...edit.spec },
    status: { phase: 'Provisioning', ...edit.status, conditions: (edit.conditions ?? provisioning).map((c) => ({ ...c, lastTransitionTime: T })) },
  };
}

describe('a KubeadmControlPlane is woken by the changes of its Machines it reads', () => {
  it.each<[string, boolean, StoredObject]>([
    ['a finalizer of its own', false, machine({ metadata: { finalizers: ['machine.cluster.x-k8s.io'] } })],
    ['an InfrastructureReady reason (the VM provisioning)', false, machine({ conditions: replace(condition('InfrastructureReady', 'False', 'VMProvisioning')) })],
    ['its bootstrap data secret', false, machine({ spec: { bootstrap: { configRef, dataSecretName: 'cp-1' } } })],
    ['its providerID', false, machine({ spec: { providerID: 'in-memory://ns/cp-1' } })],
    ['its addresses', false, machine({ status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] } })],
    ['its phase (Running makes it ready)', true, machine({ status: { phase: 'Running' } })],
    ['its nodeRef (the node joined)', true, machine({ status: { nodeRef: { name: 'cp-1' } } })],
    ['its version', true, machine({ spec: { version: 'v1.32.0' } })],
    ['its failure domain', true, machine({ spec: { failureDomain: 'fd-2' } })],
    ['NodeHealthy turning False', true, machine({ conditions: replace(condition('NodeHealthy', 'False', 'NodeNotReady')) })],
    ['a health check failing it', true, machine({ conditions: [...provisioning, condition('HealthCheckSucceeded', 'False', 'UnhealthyNode')] })],
    ['a health check asking for remediation', true, machine({ conditions: [...provisioning, condition('OwnerRemediated', 'False', 'WaitingForRemediation')] })],
    ['an annotation (delete-machine, the config spec hash)', true, machine({ metadata: { annotations: { [`${CORE}/delete-machine`]: '' } } })],
    ['its deletion', true, machine({ metadata: { deletionTimestamp: T } })],
  ])('%s → woken: %s', async (_name, woken, after) => {
    const keys = (await routeChange({ type: 'MODIFY', oldObject: machine(), newObject: after }, registry, new MemoryObjectStore())).map(keyString);
    expect(keys.includes(kcpKey)).toBe(woken);
  });
});
