/**
 * The ObjectStore conformance suite: every implementation (memory, DynamoDB on dynalite, DynamoDB
 * Local) must pass it unchanged. Semantics are those documented on shared/ports/object-store.ts.
 */

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type GroupKind,
  keyOf,
  LABEL_CLUSTER_NAME,
  type KubeObject,
  type ObjectKey,
  type OwnerReference,
  type StoredObject,
} from '../../shared/contracts/object.js';
import {
  AlreadyExistsError,
  ApiError,
  BadRequestError,
  ConflictError,
  InvalidError,
  NotFoundError,
  TooLargeError,
} from '../../shared/errors/index.js';
import type { ChangeSource, LabelSelectorTerm, ObjectChange, ObjectStore } from '../../shared/ports/object-store.js';
import { parseLabelSelector } from '../../shared/store/label-selector.js';

export interface StoreUnderTest {
  store: ObjectStore & ChangeSource;
  cleanup(): Promise<void>;
}

const GROUP = 'cluster.x-k8s.io';
const API_VERSION = `${GROUP}/v1beta2`;
/** The 50-writer tests do a few hundred round trips against an emulator on a busy machine. */
const CONTENTION_TIMEOUT_MS = 180_000;

function machine(name: string, extra: Partial<KubeObject['metadata']> = {}, spec: Record<string, unknown> = { version: 'v1.31.0' }): KubeObject {
  return { apiVersion: API_VERSION, kind: 'Machine', metadata: { name, namespace: 'ns1', ...extra }, spec };
}

function machineKey(name: string, namespace = 'ns1'): ObjectKey {
  return { group: GROUP, kind: 'Machine', namespace, name };
}

function ownedBy(owner: StoredObject): OwnerReference {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

/** Randomised exponential backoff (full jitter), as controllers do; keeps 50 contenders from spinning. */
function backOff(attempt: number): Promise<void> {
  const ceilingMs = Math.min(8000, 20 * 2 ** Math.min(attempt, 9));
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceilingMs));
}

/** One read-modify-write of spec.count; false when it lost the race. */
async function tryIncrement(store: ObjectStore): Promise<boolean> {
  const current = await store.get(machineKey('counter'));
  if (!current) throw new Error('counter vanished');
  try {
    await store.update({ ...current, spec: { count: Number(current.spec?.count) + 1 } });
    return true;
  } catch (error) {
    if (error instanceof ConflictError) return false;
    throw error;
  }
}

export function describeObjectStoreConformance(name: string, makeStore: () => Promise<StoreUnderTest>): void {
  describe(`ObjectStore conformance: ${name}`, () => {
    let store: ObjectStore & ChangeSource;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await makeStore());
    });
    afterEach(async () => {
      await cleanup();
    });

    describe('create and get', () => {
      it('assigns uid, resourceVersion, generation 1 and creationTimestamp, and get returns the same object', async () => {
        const created = await store.create(machine('m1'));
        expect(created.metadata).toMatchObject({ name: 'm1', namespace: 'ns1', generation: 1 });
        expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
        expect(created.metadata.resourceVersion).not.toBe('');
        expect(created.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        expect(await store.get(machineKey('m1'))).toEqual(created);
      });

      it('defaults the namespace to "default" and ignores a client-set deletionTimestamp', async () => {
        const created = await store.create({
          apiVersion: API_VERSION,
          kind: 'Cluster',
          metadata: { name: 'c1', deletionTimestamp: '2020-01-01T00:00:00Z' },
        });
        expect(created.metadata.namespace).toBe('default');
        expect(created.metadata.deletionTimestamp).toBeUndefined();
        expect(await store.get({ group: GROUP, kind: 'Cluster', namespace: 'default', name: 'c1' })).toEqual(created);
      });

      it('rejects a duplicate with AlreadyExistsError and keeps the first', async () => {
        const first = await store.create(machine('m1'));
        expect(await caught(store.create(machine('m1', {}, { other: true })))).toBeInstanceOf(AlreadyExistsError);
        expect(await store.get(machineKey('m1'))).toEqual(first);
      });

      it('keeps objects of different kinds, groups and namespaces apart', async () => {
        await store.create(machine('same'));
        await store.create(machine('same', { namespace: 'ns2' }));
        await store.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'same', namespace: 'ns1' }, data: { a: 'YQ==' } });
        expect((await store.get(machineKey('same', 'ns2')))?.metadata.namespace).toBe('ns2');
        expect((await store.get({ group: '', kind: 'Secret', namespace: 'ns1', name: 'same' }))?.data).toEqual({ a: 'YQ==' });
        expect(await store.get({ group: 'other.io', kind: 'Machine', namespace: 'ns1', name: 'same' })).toBeUndefined();
      });

      it('returns undefined for a missing object', async () => {
        expect(await store.get(machineKey('nope'))).toBeUndefined();
      });
    });

    describe('validation before writing', () => {
      it.each([
        ['uppercase', 'Foo'],
        ['slash', 'a/b'],
        ['empty labels', '..'],
        ['leading dash', '-a'],
        ['254 characters', 'a'.repeat(254)],
      ])('rejects the name %s with InvalidError on metadata.name and writes nothing', async (_label, badName) => {
        const error = await caught(store.create(machine(badName)));
        expect(error).toBeInstanceOf(InvalidError);
        expect(error instanceof ApiError ? error.causes.map((c) => c.field) : []).toContain('metadata.name');
        expect((await store.list({ group: GROUP, kind: 'Machine' })).items).toEqual([]);
      });

      it('accepts a 253-character dotted name', async () => {
        const longName = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
        expect(longName).toHaveLength(253);
        expect((await store.create(machine(longName))).metadata.name).toBe(longName);
      });

      it('rejects a bad namespace with InvalidError on metadata.namespace', async () => {
        const error = await caught(store.create(machine('m1', { namespace: 'Bad_NS' })));
        expect(error).toBeInstanceOf(InvalidError);
        expect(error instanceof ApiError ? error.causes.map((c) => c.field) : []).toContain('metadata.namespace');
      });

      it('rejects a 401 KB object with TooLargeError naming size and limit, and writes nothing', async () => {
        const big = machine('big', {}, { blob: 'x'.repeat(401 * 1024) });
        const error = await caught(store.create(big));
        expect(error).toBeInstanceOf(TooLargeError);
        expect(error instanceof Error ? error.message : '').toMatch(/\d+ bytes.*limit is \d+ bytes/);
        expect(await store.get(machineKey('big'))).toBeUndefined();
      });

      it('rejects an update that grows past the limit and changes nothing', async () => {
        const created = await store.create(machine('m1'));
        const error = await caught(store.update({ ...created, spec: { blob: 'x'.repeat(401 * 1024) } }));
        expect(error).toBeInstanceOf(TooLargeError);
        expect(await store.get(machineKey('m1'))).toEqual(created);
      });

      it('stores an object just under the limit', async () => {
        const created = await store.create(machine('m1', {}, { blob: 'x'.repeat(380 * 1024) }));
        expect((await store.get(machineKey('m1')))?.spec).toEqual(created.spec);
      });
    });

    describe('update and optimistic concurrency', () => {
      it('fails a stale write with ConflictError and changes nothing', async () => {
        const created = await store.create(machine('m1'));
        const current = await store.update({ ...created, metadata: { ...created.metadata, labels: { a: 'b' } } });
        const error = await caught(store.update({ ...created, spec: { version: 'v1.32.0' } }));
        expect(error).toBeInstanceOf(ConflictError);
        expect(await store.get(machineKey('m1'))).toEqual(current);
      });

      it('requires a resourceVersion (InvalidError on metadata.resourceVersion)', async () => {
        const created = await store.create(machine('m1'));
        const { resourceVersion: _rv, ...meta } = created.metadata;
        const error = await caught(store.update({ ...created, metadata: meta }));
        expect(error).toBeInstanceOf(InvalidError);
        expect(error instanceof ApiError ? error.causes.map((c) => c.field) : []).toContain('metadata.resourceVersion');
      });

      it('throws NotFoundError when the object is gone', async () => {
        const created = await store.create(machine('m1'));
        await store.delete(machineKey('m1'));
        expect(await caught(store.update(created))).toBeInstanceOf(NotFoundError);
        expect(await caught(store.updateStatus(created))).toBeInstanceOf(NotFoundError);
      });

      it('changes resourceVersion on every write', async () => {
        const created = await store.create(machine('m1'));
        const a = await store.update({ ...created, metadata: { ...created.metadata, labels: { x: '1' } } });
        const b = await store.updateStatus({ ...a, status: { phase: 'Pending' } });
        const versions = new Set([created, a, b].map((o) => o.metadata.resourceVersion));
        expect(versions.size).toBe(3);
      });

      it('bumps generation only when spec changes', async () => {
        const created = await store.create(machine('m1'));
        const metaOnly = await store.update({ ...created, metadata: { ...created.metadata, annotations: { note: 'x' } } });
        expect(metaOnly.metadata.generation).toBe(1);
        const sameSpecReordered = await store.update({ ...metaOnly, spec: { ...metaOnly.spec } });
        expect(sameSpecReordered.metadata.generation).toBe(1);
        const specChange = await store.update({ ...sameSpecReordered, spec: { version: 'v1.32.0' } });
        expect(specChange.metadata.generation).toBe(2);
        expect(await store.get(machineKey('m1'))).toEqual(specChange);
      });

      it('bumps a Secret generation when data changes', async () => {
        const secret = await store.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1', namespace: 'ns1' }, type: 'Opaque', data: { k: 'YQ==' } });
        const labelled = await store.update({ ...secret, metadata: { ...secret.metadata, labels: { a: 'b' } } });
        expect(labelled.metadata.generation).toBe(1);
        const changed = await store.update({ ...labelled, data: { k: 'Yg==' } });
        expect(changed.metadata.generation).toBe(2);
        expect(changed.data).toEqual({ k: 'Yg==' });
      });

      it('ignores status on update and keeps the stored status', async () => {
        const created = await store.create(machine('m1'));
        const withStatus = await store.updateStatus({ ...created, status: { phase: 'Running' } });
        const updated = await store.update({ ...withStatus, spec: { version: 'v2' }, status: { phase: 'Hacked' } });
        expect(updated.status).toEqual({ phase: 'Running' });
        expect((await store.get(machineKey('m1')))?.status).toEqual({ phase: 'Running' });
      });

      it('changes only status on updateStatus, without a generation bump', async () => {
        const created = await store.create(machine('m1', { labels: { a: 'b' } }));
        const updated = await store.updateStatus({
          ...created,
          metadata: { ...created.metadata, labels: { a: 'changed' } },
          spec: { version: 'changed' },
          status: { phase: 'Provisioned' },
        });
        expect(updated.status).toEqual({ phase: 'Provisioned' });
        expect(updated.spec).toEqual(created.spec);
        expect(updated.metadata.labels).toEqual({ a: 'b' });
        expect(updated.metadata.generation).toBe(1);
        expect(await store.get(machineKey('m1'))).toEqual(updated);
      });

      it('fails a stale updateStatus with ConflictError and changes nothing', async () => {
        const created = await store.create(machine('m1'));
        const current = await store.updateStatus({ ...created, status: { phase: 'A' } });
        expect(await caught(store.updateStatus({ ...created, status: { phase: 'B' } }))).toBeInstanceOf(ConflictError);
        expect(await store.get(machineKey('m1'))).toEqual(current);
      });

      it('keeps uid and creationTimestamp from the stored copy', async () => {
        const created = await store.create(machine('m1'));
        const updated = await store.update({
          ...created,
          metadata: { ...created.metadata, uid: 'forged', creationTimestamp: '2000-01-01T00:00:00Z' },
        });
        expect(updated.metadata.uid).toBe(created.metadata.uid);
        expect(updated.metadata.creationTimestamp).toBe(created.metadata.creationTimestamp);
      });

      it('lets exactly one of 50 concurrent writers with the same resourceVersion land', async () => {
        const created = await store.create(machine('hot', {}, { writer: -1 }));
        const outcomes = await Promise.allSettled(
          Array.from({ length: 50 }, (_, writer) => store.update({ ...created, spec: { writer } })),
        );
        const landed = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
        const failed = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
        expect(landed).toHaveLength(1);
        expect(failed).toHaveLength(49);
        for (const error of failed) expect(error).toBeInstanceOf(ConflictError);
        expect(await store.get(machineKey('hot'))).toEqual(landed[0]);
        expect(landed[0]?.metadata.generation).toBe(2);
      }, CONTENTION_TIMEOUT_MS);

      it('loses no increment when 50 writers retry read-modify-write on conflict', async () => {
        await store.create(machine('counter', {}, { count: 0 }));
        const increment = async (): Promise<void> => {
          for (let attempt = 0; attempt < 500; attempt++) {
            if (await tryIncrement(store)) return;
            await backOff(attempt);
          }
          throw new Error('gave up after 500 attempts');
        };
        await Promise.all(Array.from({ length: 50 }, increment));
        const final = await store.get(machineKey('counter'));
        expect(final?.spec?.count).toBe(50);
        expect(final?.metadata.generation).toBe(51);
      }, CONTENTION_TIMEOUT_MS);
    });

    describe('updateWithStatus: metadata, spec and status in one write', () => {
      it.each([
        { what: 'spec, labels and status', spec: { version: 'v2' }, labels: { a: 'b' }, generation: 2 },
        { what: 'labels and status, same spec', spec: { version: 'v1.31.0' }, labels: { a: 'b' }, generation: 1 },
        { what: 'status only', spec: { version: 'v1.31.0' }, labels: undefined, generation: 1 },
      ])('writes $what as one MODIFY, generation $generation', async ({ spec, labels, generation }) => {
        const created = await store.create(machine('m1'));
        const running = await store.updateStatus({ ...created, status: { phase: 'Pending' } });
        const changes: ObjectChange[] = [];
        const stop = store.onChange((change) => changes.push(change));
        const written = await store.updateWithStatus({
          ...running,
          metadata: { ...running.metadata, ...(labels ? { labels } : {}), uid: 'forged' },
          spec,
          status: { phase: 'Running', nodeRef: { name: 'n1' } },
        });
        stop();
        expect(written.spec).toEqual(spec);
        expect(written.metadata.labels).toEqual(labels);
        expect(written.status).toEqual({ phase: 'Running', nodeRef: { name: 'n1' } });
        expect(written.metadata.generation).toBe(generation);
        expect(written.metadata.uid).toBe(created.metadata.uid);
        expect(written.metadata.resourceVersion).not.toBe(running.metadata.resourceVersion);
        expect(await store.get(machineKey('m1'))).toEqual(written);
        expect(changes).toEqual([{ type: 'MODIFY', oldObject: running, newObject: written }]);
      });

      it.each([
        { what: 'a stale resourceVersion', error: ConflictError, stale: true },
        { what: 'a removed object', error: NotFoundError, stale: false },
      ])('refuses $what and changes nothing', async ({ error, stale }) => {
        const created = await store.create(machine('m1'));
        const current = stale ? await store.updateStatus({ ...created, status: { phase: 'A' } }) : undefined;
        if (!stale) await store.delete(machineKey('m1'));
        const attempt = store.updateWithStatus({ ...created, spec: { version: 'v2' }, status: { phase: 'B' } });
        expect(await caught(attempt)).toBeInstanceOf(error);
        expect(await store.get(machineKey('m1'))).toEqual(current);
      });

      it('removes a deleting object whose last finalizer it drops, as update does', async () => {
        const created = await store.create(machine('m1', { finalizers: ['f.io/x'] }));
        const { object: deleting } = await store.delete(machineKey('m1'));
        const changes: ObjectChange[] = [];
        const stop = store.onChange((change) => changes.push(change));
        await store.updateWithStatus({ ...deleting, metadata: { ...deleting.metadata, finalizers: [] }, status: { phase: 'Deleted' } });
        stop();
        expect(await store.get(keyOf(created))).toBeUndefined();
        expect(changes.map((c) => c.type)).toEqual(['REMOVE']);
      });

      it('refuses a new finalizer on a deleting object (InvalidError on metadata.finalizers)', async () => {
        await store.create(machine('m1', { finalizers: ['f.io/x'] }));
        const { object: deleting } = await store.delete(machineKey('m1'));
        const finalizers = ['f.io/x', 'f.io/late'];
        const error = await caught(store.updateWithStatus({ ...deleting, metadata: { ...deleting.metadata, finalizers }, status: {} }));
        expect(error).toBeInstanceOf(InvalidError);
        expect(error instanceof ApiError ? error.causes.map((c) => c.field) : []).toContain('metadata.finalizers');
        expect(await store.get(machineKey('m1'))).toEqual(deleting);
      });
    });

    describe('delete and finalizers', () => {
      it('removes an object without finalizers', async () => {
        const created = await store.create(machine('m1'));
        const result = await store.delete(machineKey('m1'));
        expect(result.removed).toBe(true);
        expect(result.object.metadata.uid).toBe(created.metadata.uid);
        expect(await store.get(machineKey('m1'))).toBeUndefined();
      });

      it('throws NotFoundError for a missing object', async () => {
        expect(await caught(store.delete(machineKey('nope')))).toBeInstanceOf(NotFoundError);
      });

      it('honours a resourceVersion precondition', async () => {
        const created = await store.create(machine('m1'));
        await store.update({ ...created, metadata: { ...created.metadata, labels: { a: 'b' } } });
        const error = await caught(store.delete(machineKey('m1'), { resourceVersion: created.metadata.resourceVersion }));
        expect(error).toBeInstanceOf(ConflictError);
        expect(await store.get(machineKey('m1'))).toBeDefined();
      });

      it('sets deletionTimestamp while finalizers remain, and removes on the update that clears them', async () => {
        await store.create(machine('m1', { finalizers: ['a.io/one', 'b.io/two'] }));
        const result = await store.delete(machineKey('m1'));
        expect(result.removed).toBe(false);
        expect(result.object.metadata.deletionTimestamp).toBeDefined();
        const deleting = await store.get(machineKey('m1'));
        expect(deleting).toEqual(result.object);

        const again = await store.delete(machineKey('m1'));
        expect(again).toEqual({ object: result.object, removed: false });

        const oneLeft = await store.update({ ...result.object, metadata: { ...result.object.metadata, finalizers: ['b.io/two'] } });
        expect(oneLeft.metadata.deletionTimestamp).toBe(result.object.metadata.deletionTimestamp);
        expect(await store.get(machineKey('m1'))).toEqual(oneLeft);

        await store.update({ ...oneLeft, metadata: { ...oneLeft.metadata, finalizers: [] } });
        expect(await store.get(machineKey('m1'))).toBeUndefined();
      });

      it('refuses new finalizers on a deleting object and keeps deletionTimestamp', async () => {
        await store.create(machine('m1', { finalizers: ['a.io/one'] }));
        const { object } = await store.delete(machineKey('m1'));
        const error = await caught(store.update({ ...object, metadata: { ...object.metadata, finalizers: ['a.io/one', 'c.io/new'] } }));
        expect(error).toBeInstanceOf(InvalidError);
        expect(error instanceof ApiError ? error.causes.map((c) => c.field) : []).toContain('metadata.finalizers');
        const { deletionTimestamp: _dt, ...withoutDeletion } = object.metadata;
        const cleared = await store.update({ ...object, metadata: { ...withoutDeletion, labels: { x: 'y' } } });
        expect(cleared.metadata.deletionTimestamp).toBe(object.metadata.deletionTimestamp);
      });
    });

    describe('garbage collection', () => {
      async function family(): Promise<{ owner: StoredObject; children: StoredObject[] }> {
        const owner = await store.create({ apiVersion: API_VERSION, kind: 'MachineSet', metadata: { name: 'ms', namespace: 'ns1' }, spec: {} });
        const children = [
          await store.create(machine('child-a', { ownerReferences: [ownedBy(owner)] })),
          await store.create(machine('child-b', { ownerReferences: [ownedBy(owner)] })),
        ];
        return { owner, children };
      }

      it('deletes dependents in the background', async () => {
        await family();
        await store.delete({ group: GROUP, kind: 'MachineSet', namespace: 'ns1', name: 'ms' });
        expect((await store.list({ group: GROUP, kind: 'Machine' })).items).toEqual([]);
      });

      it('orphans dependents with Orphan and strips the ownerReference', async () => {
        await family();
        await store.delete({ group: GROUP, kind: 'MachineSet', namespace: 'ns1', name: 'ms' }, { propagationPolicy: 'Orphan' });
        const left = (await store.list({ group: GROUP, kind: 'Machine' })).items;
        expect(left.map((m) => m.metadata.name)).toEqual(['child-a', 'child-b']);
        for (const child of left) expect(child.metadata.ownerReferences ?? []).toEqual([]);
      });

      it('honours the dependents’ own finalizers', async () => {
        const owner = await store.create({ apiVersion: API_VERSION, kind: 'MachineSet', metadata: { name: 'ms', namespace: 'ns1' }, spec: {} });
        await store.create(machine('child', { ownerReferences: [ownedBy(owner)], finalizers: ['machine.cluster.x-k8s.io'] }));
        await store.delete({ group: GROUP, kind: 'MachineSet', namespace: 'ns1', name: 'ms' });
        const child = await store.get(machineKey('child'));
        expect(child?.metadata.deletionTimestamp).toBeDefined();
      });

      it('collects a three-level chain, including when the top is removed by clearing its finalizer', async () => {
        const top = await store.create({ apiVersion: API_VERSION, kind: 'MachineDeployment', metadata: { name: 'md', namespace: 'ns1', finalizers: ['f.io/x'] }, spec: {} });
        const middle = await store.create({ apiVersion: API_VERSION, kind: 'MachineSet', metadata: { name: 'ms', namespace: 'ns1', ownerReferences: [ownedBy(top)] }, spec: {} });
        await store.create(machine('leaf-a', { ownerReferences: [ownedBy(middle)] }));
        await store.create(machine('leaf-b', { ownerReferences: [ownedBy(middle)] }));
        const { object } = await store.delete({ group: GROUP, kind: 'MachineDeployment', namespace: 'ns1', name: 'md' });
        expect((await store.list({ group: GROUP, kind: 'Machine' })).items).toHaveLength(2);
        await store.update({ ...object, metadata: { ...object.metadata, finalizers: [] } });
        expect(await store.get({ group: GROUP, kind: 'MachineDeployment', namespace: 'ns1', name: 'md' })).toBeUndefined();
        expect(await store.get({ group: GROUP, kind: 'MachineSet', namespace: 'ns1', name: 'ms' })).toBeUndefined();
        expect((await store.list({ group: GROUP, kind: 'Machine' })).items).toEqual([]);
      });

      it('keeps a dependent that has another owner and drops only the removed owner', async () => {
        const { owner } = await family();
        const other = await store.create({ apiVersion: API_VERSION, kind: 'Cluster', metadata: { name: 'c1', namespace: 'ns1' }, spec: {} });
        await store.create(machine('shared', { ownerReferences: [ownedBy(owner), { ...ownedBy(other), controller: false }] }));
        await store.delete({ group: GROUP, kind: 'MachineSet', namespace: 'ns1', name: 'ms' });
        const shared = await store.get(machineKey('shared'));
        expect(shared?.metadata.ownerReferences?.map((r) => r.uid)).toEqual([other.metadata.uid]);
        expect(await store.get(machineKey('child-a'))).toBeUndefined();
      });
    });

    describe('lists', () => {
      async function seed(): Promise<void> {
        const labelled: Array<[string, Record<string, string>]> = [
          ['m-a', { env: 'prod', tier: 'cp' }],
          ['m-b', { env: 'dev', tier: 'worker' }],
          ['m-c', { env: 'prod', tier: 'worker' }],
          ['m-d', { tier: 'worker' }],
          ['m-e', {}],
        ];
        for (const [name, labels] of labelled) await store.create(machine(name, { labels }));
      }

      it.each<[string, string[]]>([
        ['env=prod', ['m-a', 'm-c']],
        ['env==prod', ['m-a', 'm-c']],
        ['env!=prod', ['m-b', 'm-d', 'm-e']],
        ['env in (prod,dev)', ['m-a', 'm-b', 'm-c']],
        ['env notin (prod)', ['m-b', 'm-d', 'm-e']],
        ['env', ['m-a', 'm-b', 'm-c']],
        ['!env', ['m-d', 'm-e']],
        ['env=prod,tier=worker', ['m-a', 'm-c'].filter((n) => n === 'm-c')],
        ['tier in (worker),!env', ['m-d']],
        ['', ['m-a', 'm-b', 'm-c', 'm-d', 'm-e']],
      ])('selects %j', async (selector, expected) => {
        await seed();
        const labelSelector: LabelSelectorTerm[] = parseLabelSelector(selector);
        const { items } = await store.list({ group: GROUP, kind: 'Machine', namespace: 'ns1', labelSelector });
        expect(items.map((m) => m.metadata.name)).toEqual(expected);
      });

      it('filters by namespace, lists across namespaces, and matches an exact name', async () => {
        await store.create(machine('x', { namespace: 'ns2' }));
        await store.create(machine('y', { namespace: 'ns1' }));
        await store.create(machine('x', { namespace: 'ns1' }));
        const inNs2 = await store.list({ group: GROUP, kind: 'Machine', namespace: 'ns2' });
        expect(inNs2.items.map((m) => `${m.metadata.namespace}/${m.metadata.name}`)).toEqual(['ns2/x']);
        const all = await store.list({ group: GROUP, kind: 'Machine' });
        expect(all.items.map((m) => `${m.metadata.namespace}/${m.metadata.name}`)).toEqual(['ns1/x', 'ns1/y', 'ns2/x']);
        const named = await store.list({ group: GROUP, kind: 'Machine', name: 'x' });
        expect(named.items.map((m) => m.metadata.namespace)).toEqual(['ns1', 'ns2']);
        const namedInNs = await store.list({ group: GROUP, kind: 'Machine', namespace: 'ns1', name: 'y' });
        expect(namedInNs.items.map((m) => m.metadata.name)).toEqual(['y']);
      });

      it.each([
        ['one namespace', 'ns1' as string | undefined, undefined as string | undefined],
        ['all namespaces', undefined, undefined],
        ['one namespace with a selector', 'ns1', 'idx in (0,2,4,6,8,10)'],
        ['all namespaces with a selector', undefined, 'idx notin (3)'],
      ])('pages through %s: all pages together equal the full list', async (_label, namespace, selector) => {
        for (let i = 0; i < 11; i++) await store.create(machine(`m-${String(i).padStart(2, '0')}`, { namespace: i % 3 === 0 ? 'ns2' : 'ns1', labels: { idx: String(i) } }));
        const labelSelector = selector === undefined ? undefined : parseLabelSelector(selector);
        const full = await store.list({ group: GROUP, kind: 'Machine', namespace, labelSelector });
        expect(full.continue).toBeUndefined();
        const collected: StoredObject[] = [];
        let token: string | undefined;
        let pages = 0;
        do {
          const page = await store.list({ group: GROUP, kind: 'Machine', namespace, labelSelector, limit: 3, continue: token });
          expect(page.items.length).toBeLessThanOrEqual(3);
          collected.push(...page.items);
          token = page.continue;
          pages++;
        } while (token !== undefined && pages < 50);
        expect(token).toBeUndefined();
        expect(collected).toEqual(full.items);
        expect(pages).toBeGreaterThan(1);
      });

      it.each([
        ['not-a-token'],
        [Buffer.from('[1,2]').toString('base64url')],
        [Buffer.from('{"pk":{"S":1},"sk":{"S":"x"}}').toString('base64url')],
        [Buffer.from('{"pk":{"S":"elsewhere"},"sk":{"S":"x"},"extra":{"S":"y"}}').toString('base64url')],
        [Buffer.from('{"namespace":7,"name":null}').toString('base64url')],
        [Buffer.from('{"pk":{"S":"x"}}').toString('base64url')],
      ])('rejects the forged continue token %s with BadRequestError', async (token) => {
        await store.create(machine('m1'));
        for (const query of [{ namespace: 'ns1' }, {}]) {
          // A forged position may also just list from elsewhere; it must never fail any other way.
          const error = await store.list({ group: GROUP, kind: 'Machine', ...query, continue: token }).then(() => undefined, (e: unknown) => e);
          if (error !== undefined) expect(error).toBeInstanceOf(BadRequestError);
        }
      });

      it('lists by cluster across kinds within one namespace', async () => {
        const label = { [LABEL_CLUSTER_NAME]: 'c1' };
        await store.create(machine('m1', { labels: label }));
        await store.create(machine('m2', { labels: { [LABEL_CLUSTER_NAME]: 'c2' } }));
        await store.create(machine('m3', { namespace: 'ns2', labels: label }));
        await store.create({ apiVersion: `bootstrap.${GROUP}/v1beta2`, kind: 'KubeadmConfig', metadata: { name: 'kc', namespace: 'ns1', labels: label }, spec: {} });
        const found = await store.listByCluster('ns1', 'c1');
        expect(found.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(['KubeadmConfig/kc', 'Machine/m1']);
        const machines = await store.listByCluster('ns1', 'c1', { group: GROUP, kind: 'Machine' });
        expect(machines.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['Machine/m1']);
        const configs = await store.listByCluster('ns1', 'c1', { group: `bootstrap.${GROUP}`, kind: 'KubeadmConfig' });
        expect(configs.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['KubeadmConfig/kc']);
        expect(await store.listByCluster('ns1', 'c1', { group: GROUP, kind: 'Mach' })).toEqual([]);
      });

      it.each<[string, GroupKind[], string[]]>([
        ['kinds of one group that share a prefix, not the others under it', [{ group: GROUP, kind: 'Machine' }, { group: GROUP, kind: 'MachineSet' }, { group: GROUP, kind: 'MachineDeployment' }], ['Machine/m1', 'MachineDeployment/md', 'MachineSet/ms']],
        ['one kind as a list', [{ group: GROUP, kind: 'MachineSet' }], ['MachineSet/ms']],
        ['kinds of two groups', [{ group: GROUP, kind: 'Machine' }, { group: `bootstrap.${GROUP}`, kind: 'KubeadmConfig' }], ['KubeadmConfig/kc', 'Machine/m1']],
        ['a Secret beside a Machine', [{ group: '', kind: 'Secret' }, { group: GROUP, kind: 'Machine' }], ['Machine/m1', 'Secret/s1']],
        ['a kind named twice', [{ group: GROUP, kind: 'Machine' }, { group: GROUP, kind: 'Machine' }], ['Machine/m1']],
        ['a kind that is a prefix of others', [{ group: GROUP, kind: 'Mach' }], []],
        ['no kinds', [], []],
      ])('lists by cluster narrowed to several kinds: %s', async (_name, kinds, expected) => {
        const label = { [LABEL_CLUSTER_NAME]: 'c1' };
        await store.create(machine('m1', { labels: label }));
        await store.create(machine('m2', { labels: { [LABEL_CLUSTER_NAME]: 'c2' } }));
        for (const kind of ['MachineSet', 'MachineDeployment', 'MachineHealthCheck', 'Cluster']) {
          await store.create({ apiVersion: API_VERSION, kind, metadata: { name: { MachineSet: 'ms', MachineDeployment: 'md', MachineHealthCheck: 'mhc', Cluster: 'c1' }[kind] ?? kind, namespace: 'ns1', labels: label }, spec: {} });
        }
        await store.create({ apiVersion: `bootstrap.${GROUP}/v1beta2`, kind: 'KubeadmConfig', metadata: { name: 'kc', namespace: 'ns1', labels: label }, spec: {} });
        await store.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1', namespace: 'ns1', labels: label }, type: 'Opaque', data: { k: 'YQ==' } });
        const found = await store.listByCluster('ns1', 'c1', kinds);
        expect(found.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(expected);
      });

      it('follows cluster label changes', async () => {
        const created = await store.create(machine('m1', { labels: { [LABEL_CLUSTER_NAME]: 'c1' } }));
        await store.update({ ...created, metadata: { ...created.metadata, labels: { [LABEL_CLUSTER_NAME]: 'c2' } } });
        expect(await store.listByCluster('ns1', 'c1')).toEqual([]);
        expect((await store.listByCluster('ns1', 'c2')).map((o) => o.metadata.name)).toEqual(['m1']);
      });

      it('lists by owner uid, for controller and non-controller owners, following reference changes', async () => {
        const a = await store.create({ apiVersion: API_VERSION, kind: 'MachineSet', metadata: { name: 'a', namespace: 'ns1' }, spec: {} });
        const b = await store.create({ apiVersion: API_VERSION, kind: 'Cluster', metadata: { name: 'b', namespace: 'ns1' }, spec: {} });
        await store.create(machine('only-a', { ownerReferences: [ownedBy(a)] }));
        const both = await store.create(machine('both', { ownerReferences: [ownedBy(a), { ...ownedBy(b), controller: false }] }));
        expect((await store.listByOwner(a.metadata.uid)).map((o) => o.metadata.name).sort()).toEqual(['both', 'only-a']);
        expect((await store.listByOwner(b.metadata.uid)).map((o) => o.metadata.name)).toEqual(['both']);
        await store.update({ ...both, metadata: { ...both.metadata, ownerReferences: [ownedBy(a)] } });
        expect(await store.listByOwner(b.metadata.uid)).toEqual([]);
        expect(await store.listByOwner('no-such-uid')).toEqual([]);
      });
    });

    describe('change events', () => {
      it('reports INSERT, MODIFY and REMOVE with old and new objects', async () => {
        const changes: ObjectChange[] = [];
        const stop = store.onChange((change) => changes.push(change));
        const created = await store.create(machine('m1', { finalizers: ['f.io/x'] }));
        const updated = await store.update({ ...created, spec: { version: 'v2' } });
        const withStatus = await store.updateStatus({ ...updated, status: { phase: 'Running' } });
        const { object: deleting } = await store.delete(machineKey('m1'));
        await caught(store.update({ ...created, spec: { stale: true } }));
        await store.update({ ...deleting, metadata: { ...deleting.metadata, finalizers: [] } });
        stop();
        await store.create(machine('after-stop'));

        expect(changes.map((c) => c.type)).toEqual(['INSERT', 'MODIFY', 'MODIFY', 'MODIFY', 'REMOVE']);
        expect(changes[0]).toEqual({ type: 'INSERT', newObject: created });
        expect(changes[1]).toEqual({ type: 'MODIFY', oldObject: created, newObject: updated });
        expect(changes[2]).toEqual({ type: 'MODIFY', oldObject: updated, newObject: withStatus });
        expect(changes[3]).toEqual({ type: 'MODIFY', oldObject: withStatus, newObject: deleting });
        expect(changes[4]?.type).toBe('REMOVE');
        expect(changes[4]?.oldObject && keyOf(changes[4].oldObject)).toEqual(machineKey('m1'));
        expect(changes[4]?.newObject).toBeUndefined();
      });
    });
  });
}
