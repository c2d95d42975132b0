import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import { keyString, type StoredObject } from '../../../../shared/contracts/object.js';
import type { ObjectChange } from '../../../../shared/ports/object-store.js';
import { lookupWithClusters } from '../../../support/router-lookup.js';

/**
 * Which changes of its MachineSets wake a MachineDeployment: not their creation (it creates them
 * and goes on with them in the same run), but every change after it, the first of which each
 * MachineSet's own reconcile makes (ADR 0137).
 */
const CORE = 'cluster.x-k8s.io';
const T = '2026-01-01T00:00:00Z';
const registry = new ReconcilerRegistry(builtinProviderRegistry().reconcilers());
const deploymentKey = keyString({ group: CORE, kind: 'MachineDeployment', namespace: 'ns', name: 'md' });

function machineSet(edit: { metadata?: Partial<StoredObject['metadata']>; status?: Record<string, unknown> } = {}): StoredObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind: 'MachineSet',
    metadata: {
      name: 'md-1',
      namespace: 'ns',
      uid: 'ms-uid',
      resourceVersion: '1',
      generation: 1,
      creationTimestamp: T,
      labels: { [`${CORE}/cluster-name`]: 'c1' },
      ownerReferences: [{ apiVersion: `${CORE}/v1beta2`, kind: 'MachineDeployment', name: 'md', uid: 'md-uid', controller: true }],
      ...edit.metadata,
    },
    spec: { clusterName: 'c1', replicas: 3 },
    ...(edit.status ? { status: edit.status } : {}),
  };
}

describe('what of its MachineSets wakes a MachineDeployment', () => {
  it.each<[string, ObjectChange, boolean]>([
    ['its creation does not', { type: 'INSERT', newObject: machineSet() }, false],
    ["its own reconcile's finalizer does", { type: 'MODIFY', oldObject: machineSet(), newObject: machineSet({ metadata: { finalizers: [`${CORE}/machineset`] } }) }, true],
    ['its first status does', { type: 'MODIFY', oldObject: machineSet(), newObject: machineSet({ status: { replicas: 0, observedGeneration: 1 } }) }, true],
    ['a counter does', { type: 'MODIFY', oldObject: machineSet({ status: { readyReplicas: 1 } }), newObject: machineSet({ status: { readyReplicas: 2 } }) }, true],
    ['its removal does', { type: 'REMOVE', oldObject: machineSet() }, true],
  ])('%s', async (_label, change, woken) => {
    const keys = (await routeChange(change, registry, await lookupWithClusters('ns', 'c1'))).map(keyString);
    expect(keys.includes(deploymentKey)).toBe(woken);
  });
});
