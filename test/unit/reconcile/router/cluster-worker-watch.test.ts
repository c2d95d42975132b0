import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import { keyString, type StoredObject } from '../../../../shared/contracts/object.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { CountingLookup, lookupWithClusters } from '../../../support/router-lookup.js';

/**
 * Which writes of a MachineSet or MachineDeployment wake their Cluster, through the built-in
 * registry: what the Cluster reads (spec, metadata, a MachineSet's replica counters, which move
 * with the Machines it counts) does; conditions and a MachineDeployment's status (the sum of its
 * MachineSets') do not.
 */
const CORE = 'cluster.x-k8s.io';
const T = '2026-01-01T00:00:00Z';
const registry = new ReconcilerRegistry(builtinProviderRegistry().reconcilers());
const clusterKey = keyString({ group: CORE, kind: 'Cluster', namespace: 'ns', name: 'c1' });

const counters = { replicas: 3, readyReplicas: 1, availableReplicas: 1, upToDateReplicas: 3 };
const conditions = [{ type: 'MachinesReady', status: 'False', reason: 'NotReady', message: '1 of 3 Machines ready', lastTransitionTime: T }];

function worker(kind: 'MachineSet' | 'MachineDeployment', edit: { spec?: Record<string, unknown>; status?: Record<string, unknown>; metadata?: Partial<StoredObject['metadata']> } = {}): StoredObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind,
    metadata: { name: 'w', namespace: 'ns', uid: 'w-uid', resourceVersion: '1', generation: 1, creationTimestamp: T, labels: { [`${CORE}/cluster-name`]: 'c1' }, ...edit.metadata },
    spec: { clusterName: 'c1', replicas: 3, ...edit.spec },
    status: { selector: 'a=b', observedGeneration: 1, ...counters, conditions, ...edit.status },
  };
}

const conditionsNow = (message: string) => [{ ...conditions[0], message }];

describe("a Cluster is woken by the MachineSet and MachineDeployment changes it reads", () => {
  it.each<[string, boolean, 'MachineSet' | 'MachineDeployment', StoredObject]>([
    ['a MachineSet counting one more Machine ready', true, 'MachineSet', worker('MachineSet', { status: { readyReplicas: 2 } })],
    ['a MachineSet counting one Machine fewer (one deleting)', true, 'MachineSet', worker('MachineSet', { status: { replicas: 2 } })],
    ['a MachineSet counting one more Machine available', true, 'MachineSet', worker('MachineSet', { status: { availableReplicas: 2 } })],
    ['a MachineSet counting one Machine fewer up to date', true, 'MachineSet', worker('MachineSet', { status: { upToDateReplicas: 2 } })],
    ['a MachineSet scaled', true, 'MachineSet', worker('MachineSet', { spec: { replicas: 4 } })],
    ['a MachineSet deleting', true, 'MachineSet', worker('MachineSet', { metadata: { deletionTimestamp: T } })],
    ['a MachineSet losing its MachineDeployment owner', true, 'MachineSet', worker('MachineSet', { metadata: { ownerReferences: [] } })],
    ["a MachineSet's condition message", false, 'MachineSet', worker('MachineSet', { status: { conditions: conditionsNow('2 of 3 Machines ready') } })],
    ["a MachineSet's observedGeneration", false, 'MachineSet', worker('MachineSet', { status: { observedGeneration: 2 } })],
    ['a MachineDeployment scaled', true, 'MachineDeployment', worker('MachineDeployment', { spec: { replicas: 4 } })],
    ["a MachineDeployment's template version (a topology upgrade)", true, 'MachineDeployment', worker('MachineDeployment', { spec: { template: { spec: { version: 'v1.31.0' } } } })],
    ['a MachineDeployment annotated to defer its upgrade', true, 'MachineDeployment', worker('MachineDeployment', { metadata: { annotations: { 'topology.cluster.x-k8s.io/defer-upgrade': '' } } })],
    ['a MachineDeployment deleting', true, 'MachineDeployment', worker('MachineDeployment', { metadata: { deletionTimestamp: T } })],
    ["a MachineDeployment's counters (its MachineSets' sum)", false, 'MachineDeployment', worker('MachineDeployment', { status: { readyReplicas: 2, availableReplicas: 2 } })],
    ["a MachineDeployment's conditions", false, 'MachineDeployment', worker('MachineDeployment', { status: { conditions: conditionsNow('rolling out') } })],
    ['a finalizer', false, 'MachineDeployment', worker('MachineDeployment', { metadata: { finalizers: ['cluster.x-k8s.io/machinedeployment'] } })],
  ])('%s → woken: %s', async (_name, woken, kind, after) => {
    const keys = (await routeChange({ type: 'MODIFY', oldObject: worker(kind), newObject: after }, registry, await lookupWithClusters('ns', 'c1'))).map(keyString);
    expect(keys.includes(clusterKey)).toBe(woken);
  });

  it.each(['MachineSet', 'MachineDeployment'] as const)('a new or removed %s wakes it', async (kind) => {
    for (const change of [{ type: 'INSERT' as const, newObject: worker(kind) }, { type: 'REMOVE' as const, oldObject: worker(kind) }]) {
      expect((await routeChange(change, registry, await lookupWithClusters('ns', 'c1'))).map(keyString)).toContain(clusterKey);
    }
  });

  it.each(['MachineSet', 'MachineDeployment'] as const)('a %s applied before its Cluster wakes no Cluster (the Cluster reads it when it is created)', async (kind) => {
    for (const change of [{ type: 'INSERT' as const, newObject: worker(kind) }, { type: 'MODIFY' as const, oldObject: worker(kind), newObject: worker(kind, { spec: { replicas: 4 } }) }]) {
      expect((await routeChange(change, registry, new MemoryObjectStore())).map(keyString)).not.toContain(clusterKey);
    }
  });
});

describe('a part its Cluster owns wakes it without looking the Cluster up (it adopted the part, so it was there)', () => {
  const clusterOwner = { apiVersion: `${CORE}/v1beta2`, kind: 'Cluster', name: 'c1', uid: 'c1-uid' };
  it.for([
    ['owned by the Cluster its label names: no lookup', [clusterOwner], []],
    ['owned by a Cluster of another name: looked up', [{ ...clusterOwner, name: 'c2' }], ['get Cluster c1']],
    ['owned by a kind named Cluster of another group: looked up', [{ ...clusterOwner, apiVersion: 'example.com/v1' }], ['get Cluster c1']],
    ['no owner: looked up', [], ['get Cluster c1']],
  ] as const)('%s', async ([, ownerReferences, calls]) => {
    const lookup = new CountingLookup(await lookupWithClusters('ns', 'c1'));
    const part = worker('MachineDeployment', { metadata: { ownerReferences: [...ownerReferences] } });
    const keys = (await routeChange({ type: 'MODIFY', oldObject: part, newObject: { ...part, spec: { ...part.spec, replicas: 4 } } }, registry, lookup)).map(keyString);
    expect(keys).toContain(clusterKey);
    expect(lookup.calls.filter((call) => call.startsWith('get Cluster'))).toEqual(calls);
  });
});
