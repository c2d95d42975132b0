import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import { keyString, type StoredObject } from '../../../../shared/contracts/object.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';

/**
 * Which writes of a Machine wake the MachineSet that owns it, through the built-in registry
 * (ADR 0135): what the MachineSet reads (counted conditions' status, remediation, missing clones,
 * the scale-down order, deletion) does; a Machine's progress does not.
 */
const CORE = 'cluster.x-k8s.io';
const T = '2026-01-01T00:00:00Z';
const registry = new ReconcilerRegistry(builtinProviderRegistry().reconcilers());
const machineSetKey = keyString({ group: CORE, kind: 'MachineSet', namespace: 'ns', name: 'ms' });

type Condition = { type: string; status: string; reason: string; message?: string };
const condition = (type: string, status: string, reason: string, message?: string): Condition => ({ type, status, reason, ...(message ? { message } : {}) });

function machine(edit: { conditions?: Condition[]; status?: Record<string, unknown>; metadata?: Partial<StoredObject['metadata']> } = {}): StoredObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind: 'Machine',
    metadata: {
      name: 'm',
      namespace: 'ns',
      uid: 'm-uid',
      resourceVersion: '1',
      generation: 1,
      creationTimestamp: T,
      labels: { [`${CORE}/cluster-name`]: 'c1' },
      ownerReferences: [{ apiVersion: `${CORE}/v1beta2`, kind: 'MachineSet', name: 'ms', uid: 'ms-uid', controller: true }],
      ...edit.metadata,
    },
    spec: { clusterName: 'c1' },
    status: { phase: 'Provisioning', ...edit.status, conditions: (edit.conditions ?? []).map((c) => ({ ...c, lastTransitionTime: T })) },
  };
}

const provisioning = [
  condition('Ready', 'False', 'NotReady'),
  condition('BootstrapConfigReady', 'False', 'WaitingForDataSecret'),
  condition('InfrastructureReady', 'False', 'NotProvisioned'),
];
const replace = (c: Condition) => [...provisioning.filter((p) => p.type !== c.type), c];

describe('a MachineSet is woken by the Machine changes it reads, not by their progress', () => {
  it.each<[string, StoredObject, boolean]>([
    ['its phase and addresses', machine({ conditions: provisioning, status: { phase: 'Running', addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] } }), false],
    ['its nodeRef', machine({ conditions: provisioning, status: { nodeRef: { name: 'n1' } } }), false],
    ['a bootstrap config that became ready', machine({ conditions: replace(condition('BootstrapConfigReady', 'True', 'Ready')) }), false],
    ['the wording of Ready', machine({ conditions: replace(condition('Ready', 'False', 'NotReady', 'waiting for the node')) }), false],
    ['a finalizer of its own', machine({ conditions: provisioning, metadata: { finalizers: ['machine.cluster.x-k8s.io'] } }), false],
    ['Ready turning True', machine({ conditions: replace(condition('Ready', 'True', 'Ready')) }), true],
    ['Available appearing', machine({ conditions: [...provisioning, condition('Available', 'True', 'Available')] }), true],
    ['UpToDate appearing', machine({ conditions: [...provisioning, condition('UpToDate', 'False', 'NotUpToDate')] }), true],
    ['its bootstrap config reported missing', machine({ conditions: replace(condition('BootstrapConfigReady', 'False', 'BootstrapConfigDoesNotExist')) }), true],
    ['its InfraMachine reported missing', machine({ conditions: replace(condition('InfrastructureReady', 'False', 'InfrastructureDoesNotExist')) }), true],
    ['a MachineHealthCheck asking its owner to remediate', machine({ conditions: [...provisioning, condition('OwnerRemediated', 'False', 'WaitingForRemediation')] }), true],
    ['the delete-machine annotation', machine({ conditions: provisioning, metadata: { annotations: { [`${CORE}/delete-machine`]: '' } } }), true],
    ['its deletion', machine({ conditions: provisioning, metadata: { deletionTimestamp: T } }), true],
    ['its owner reference', machine({ conditions: provisioning, metadata: { ownerReferences: [] } }), true],
  ])('%s → %s', async (_name, after, woken) => {
    const keys = (await routeChange({ type: 'MODIFY', oldObject: machine({ conditions: provisioning }), newObject: after }, registry, new MemoryObjectStore())).map(keyString);
    expect(keys.includes(machineSetKey)).toBe(woken);
  });

  it('a remediation taken in hand (OwnerRemediated → MachineDeleting) wakes it', async () => {
    const asked = machine({ conditions: [...provisioning, condition('OwnerRemediated', 'False', 'WaitingForRemediation')] });
    const inHand = machine({ conditions: [...provisioning, condition('OwnerRemediated', 'False', 'MachineDeleting')] });
    const keys = (await routeChange({ type: 'MODIFY', oldObject: asked, newObject: inHand }, registry, new MemoryObjectStore())).map(keyString);
    expect(keys).toContain(machineSetKey);
  });
});
