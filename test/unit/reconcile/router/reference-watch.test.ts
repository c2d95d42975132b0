import { describe, expect, it } from 'vitest';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { referencedKey } from '../../../../functions/reconcile/router/references.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import type { AnyReconciler, ReferrerField } from '../../../../functions/reconcile/engine/skeleton/types.js';
import { type GroupKind, keyString, type ObjectKey, type StoredObject } from '../../../../shared/contracts/object.js';
import type { ListQuery, ListResult } from '../../../../shared/ports/object-store.js';

const CORE = 'cluster.x-k8s.io';
const INFRA = 'infrastructure.cluster.x-k8s.io';
const MACHINE: GroupKind = { group: CORE, kind: 'Machine' };
const INFRA_MACHINE: GroupKind = { group: INFRA, kind: 'InMemoryMachine' };
const CLUSTER: GroupKind = { group: CORE, kind: 'Cluster' };

function machine(spec: Record<string, unknown>): StoredObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind: 'Machine',
    metadata: { name: 'm1', namespace: 'ns', uid: 'u1', resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec,
  };
}

describe('referencedKey', () => {
  it.each<[string, Record<string, unknown>, ReferrerField, GroupKind, string | undefined]>([
    ['apiGroup ref of the kind', { infrastructureRef: { apiGroup: INFRA, kind: 'InMemoryMachine', name: 'im1' } }, 'spec.infrastructureRef', INFRA_MACHINE, 'im1'],
    ['v1beta1 apiVersion ref', { infrastructureRef: { apiVersion: `${INFRA}/v1beta1`, kind: 'InMemoryMachine', name: 'im2' } }, 'spec.infrastructureRef', INFRA_MACHINE, 'im2'],
    ['ref without a group', { infrastructureRef: { kind: 'InMemoryMachine', name: 'im3' } }, 'spec.infrastructureRef', INFRA_MACHINE, 'im3'],
    ['another kind', { infrastructureRef: { apiGroup: INFRA, kind: 'DockerMachine', name: 'd1' } }, 'spec.infrastructureRef', INFRA_MACHINE, undefined],
    ['another group', { infrastructureRef: { apiGroup: 'example.com', kind: 'InMemoryMachine', name: 'x' } }, 'spec.infrastructureRef', INFRA_MACHINE, undefined],
    ['no ref', {}, 'spec.infrastructureRef', INFRA_MACHINE, undefined],
    ['ref without a name', { infrastructureRef: { apiGroup: INFRA, kind: 'InMemoryMachine' } }, 'spec.infrastructureRef', INFRA_MACHINE, undefined],
    ['clusterName names a Cluster', { clusterName: 'c1' }, 'spec.clusterName', CLUSTER, 'c1'],
    ['clusterName for a non-Cluster kind', { clusterName: 'c1' }, 'spec.clusterName', INFRA_MACHINE, undefined],
  ])('%s', (_name, spec, field, kind, expected) => {
    const key = referencedKey(machine(spec), field, kind);
    expect(key?.name).toBe(expected);
    if (key) expect(key).toEqual({ ...kind, namespace: 'ns', name: expected });
  });
});

/** A lookup that fails the test if the router touches the store: a `reference` watch needs none. */
const noStore = {
  get: (): Promise<StoredObject | undefined> => Promise.reject(new Error('store read')),
  listByCluster: (): Promise<StoredObject[]> => Promise.reject(new Error('store read')),
  list: (_q: ListQuery): Promise<ListResult> => Promise.reject(new Error('store read')),
};

function watcher(kind: GroupKind, watches: AnyReconciler['watches']): AnyReconciler {
  return { kind, watches, createScope: (ctx, object) => ({ ctx, object, conditions: [] }), phases: [], deletePhases: [], computeStatus: () => ({ fields: {} }) };
}

describe('routeChange with a reference watch', () => {
  const registry = new ReconcilerRegistry([
    watcher(INFRA_MACHINE, [{ kind: MACHINE, by: 'reference', field: 'spec.infrastructureRef' }]),
  ]);
  const ref = (name: string) => ({ infrastructureRef: { apiGroup: INFRA, kind: 'InMemoryMachine', name } });
  const keys = (requests: ObjectKey[]) => requests.map(keyString).sort();
  const infra = (name: string) => keyString({ ...INFRA_MACHINE, namespace: 'ns', name });

  it.each<[string, StoredObject | undefined, StoredObject | undefined, string[]]>([
    ['a new Machine wakes the InfraMachine it names', undefined, machine(ref('im1')), [infra('im1')]],
    ['a changed Machine wakes it', machine(ref('im1')), machine({ ...ref('im1'), bootstrap: { dataSecretName: 's' } }), [infra('im1')]],
    ['a re-pointed Machine wakes the old and the new one', machine(ref('im1')), machine(ref('im2')), [infra('im1'), infra('im2')]],
    ['a removed Machine wakes it', machine(ref('im1')), undefined, [infra('im1')]],
    ['a Machine naming another kind wakes nothing', undefined, machine({}), []],
  ])('%s', async (_name, oldObject, newObject, expected) => {
    const type = !oldObject ? 'INSERT' : !newObject ? 'REMOVE' : 'MODIFY';
    const requests = await routeChange({ type, ...(oldObject ? { oldObject } : {}), ...(newObject ? { newObject } : {}) }, registry, noStore);
    expect(keys(requests)).toEqual(expected);
  });
});
