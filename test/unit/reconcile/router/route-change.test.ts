import { beforeEach, describe, expect, it } from 'vitest';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import type { AnyReconciler, Watch } from '../../../../functions/reconcile/engine/skeleton/types.js';
import { type GroupKind, type KubeObject, keyString, type StoredObject } from '../../../../shared/contracts/object.js';
import type { ObjectChange } from '../../../../shared/ports/object-store.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';

const CORE = 'cluster.x-k8s.io';
const INFRA = 'infrastructure.cluster.x-k8s.io';
const CLUSTER: GroupKind = { group: CORE, kind: 'Cluster' };
const MACHINE: GroupKind = { group: CORE, kind: 'Machine' };
const MACHINE_SET: GroupKind = { group: CORE, kind: 'MachineSet' };
const INFRA_MACHINE: GroupKind = { group: INFRA, kind: 'InMemoryMachine' };
const CLUSTER_LABEL = 'cluster.x-k8s.io/cluster-name';

function fake(kind: GroupKind, watches: Watch[] = []): AnyReconciler {
  return {
    kind,
    watches,
    createScope: (ctx, object) => ({ ctx, object, conditions: [] }),
    phases: [],
    deletePhases: [],
    computeStatus: () => ({ fields: {} }),
  };
}

/** Registered reconcilers and what they watch: data only, as in production. */
const registry = new ReconcilerRegistry([
  fake(CLUSTER, [{ kind: MACHINE, by: 'clusterLabel' }]),
  fake(MACHINE_SET, [{ kind: MACHINE, by: 'owner' }]),
  fake(MACHINE, [
    { kind: INFRA_MACHINE, by: 'referrer', field: 'spec.infrastructureRef' },
    { kind: CLUSTER, by: 'referrer', field: 'spec.clusterName' },
  ]),
]);

let store: MemoryObjectStore;
let cluster: StoredObject;
let machineSet: StoredObject;
let machine: StoredObject;
let otherMachine: StoredObject;
let infraMachine: StoredObject;
let unlabelledInfra: StoredObject;
let unlabelledMachine: StoredObject;

const labels = { [CLUSTER_LABEL]: 'c1' };

beforeEach(async () => {
  store = new MemoryObjectStore();
  cluster = await store.create({ apiVersion: `${CORE}/v1beta2`, kind: 'Cluster', metadata: { name: 'c1' }, spec: {} });
  machineSet = await store.create({
    apiVersion: `${CORE}/v1beta2`,
    kind: 'MachineSet',
    metadata: { name: 'ms1', labels },
    spec: { clusterName: 'c1' },
  });
  infraMachine = await store.create({
    apiVersion: `${INFRA}/v1beta2`,
    kind: 'InMemoryMachine',
    metadata: { name: 'im1', labels },
    spec: {},
  });
  unlabelledInfra = await store.create({
    apiVersion: `${INFRA}/v1beta2`,
    kind: 'InMemoryMachine',
    metadata: { name: 'im2' },
    spec: {},
  });
  machine = await store.create(
    machineObject('m1', { labels, ownerReferences: [ownerRef(machineSet)] }, { apiGroup: INFRA, kind: 'InMemoryMachine', name: 'im1' }),
  );
  otherMachine = await store.create(machineObject('m2', { labels }, { apiGroup: INFRA, kind: 'InMemoryMachine', name: 'other' }));
  unlabelledMachine = await store.create(
    machineObject('m3', {}, { apiVersion: `${INFRA}/v1beta2`, kind: 'InMemoryMachine', name: 'im2' }),
  );
});

function machineObject(name: string, meta: Partial<KubeObject['metadata']>, infrastructureRef: Record<string, string>): KubeObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind: 'Machine',
    metadata: { name, ...meta },
    spec: { clusterName: 'c1', infrastructureRef },
  };
}

function ownerRef(owner: StoredObject) {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true };
}

function modified(before: StoredObject, change: (o: StoredObject) => StoredObject): ObjectChange {
  const after = change(structuredClone(before));
  return { type: 'MODIFY', oldObject: before, newObject: { ...after, metadata: { ...after.metadata, resourceVersion: 'next' } } };
}

const keys = (names: string[]) => names.sort();
const named = (o: { kind: string; name: string }) => `${o.kind}/${o.name}`;

describe('Function: routeChange', () => {
  it.each<[string, () => ObjectChange, string[]]>([
    ['INSERT of a reconciled kind routes to itself and its watchers', () => ({ type: 'INSERT', newObject: machine }), ['Cluster/c1', 'Machine/m1', 'MachineSet/ms1']],
    ['REMOVE routes to its watchers, not to itself (its reconcile would find it gone)', () => ({ type: 'REMOVE', oldObject: machine }), ['Cluster/c1', 'MachineSet/ms1']],
    ['MODIFY of spec (generation bump) routes to itself', () => modified(machine, (o) => ({ ...o, metadata: { ...o.metadata, generation: 2 } })), ['Cluster/c1', 'Machine/m1', 'MachineSet/ms1']],
    ['status-only MODIFY does not re-trigger itself but does trigger watchers', () => modified(machine, (o) => ({ ...o, status: { phase: 'Running' } })), ['Cluster/c1', 'MachineSet/ms1']],
    ['MODIFY of labels routes to itself', () => modified(machine, (o) => ({ ...o, metadata: { ...o.metadata, labels: { ...labels, x: 'y' } } })), ['Cluster/c1', 'Machine/m1', 'MachineSet/ms1']],
    ['MODIFY of annotations routes to itself', () => modified(machine, (o) => ({ ...o, metadata: { ...o.metadata, annotations: { a: 'b' } } })), ['Cluster/c1', 'Machine/m1', 'MachineSet/ms1']],
    ['MODIFY of finalizers routes to itself', () => modified(machine, (o) => ({ ...o, metadata: { ...o.metadata, finalizers: ['f'] } })), ['Cluster/c1', 'Machine/m1', 'MachineSet/ms1']],
    ['MODIFY setting deletionTimestamp routes to itself', () => modified(machine, (o) => ({ ...o, metadata: { ...o.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } })), ['Cluster/c1', 'Machine/m1', 'MachineSet/ms1']],
    ['MODIFY of ownerReferences routes to itself and the old and new owners', () => modified(machine, (o) => ({ ...o, metadata: { ...o.metadata, ownerReferences: [] } })), ['Cluster/c1', 'Machine/m1', 'MachineSet/ms1']],
    ['owner watch ignores owners of other kinds', () => ({ type: 'INSERT', newObject: otherMachine }), ['Cluster/c1', 'Machine/m2']],
    ['referrer watch: an infra machine routes to the machine whose infrastructureRef names it', () => modified(infraMachine, (o) => ({ ...o, status: { ready: true } })), ['Machine/m1']],
    ['referrer watch without a cluster label falls back to a namespace list (apiVersion refs)', () => modified(unlabelledInfra, (o) => ({ ...o, status: { ready: true } })), ['Machine/m3']],
    ['referrer watch on spec.clusterName: a Cluster routes to its machines', () => modified(cluster, (o) => ({ ...o, status: { phase: 'Provisioned' } })), ['Machine/m1', 'Machine/m2']],
    ['a kind nobody reconciles or watches routes nowhere', () => ({ type: 'INSERT', newObject: { ...machineSet, kind: 'ConfigMap', apiVersion: 'v1' } }), []],
    ['a change with no object routes nowhere', () => ({ type: 'MODIFY' }), []],
  ])('%s', async (_title, makeChange, expected) => {
    const requests = await routeChange(makeChange(), registry, store);
    expect(keys(requests.map(named))).toEqual(keys(expected));
  });

  it('never names one object twice', async () => {
    const requests = await routeChange({ type: 'INSERT', newObject: machine }, registry, store);
    expect(new Set(requests.map(keyString)).size).toBe(requests.length);
  });

  it('routes with the object key: group, kind, namespace, name', async () => {
    const requests = await routeChange({ type: 'INSERT', newObject: unlabelledMachine }, registry, store);
    expect(requests).toEqual([{ group: CORE, kind: 'Machine', namespace: 'default', name: 'm3' }]);
  });
});
