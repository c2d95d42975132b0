import { describe, expect, it } from 'vitest';
import type { KubeObject, StoredObject } from '../../../shared/contracts/object.js';
import { partWithMetadata, syncPartsMetadata } from '../../../functions/reconcile/core/machine-parts-metadata.js';
import { machineSetReconciler } from '../../../functions/reconcile/core/machineset/reconciler.js';
import { runReconcile } from '../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { workerTemplates } from '../../support/core-fixtures.js';
import { FAKE_BOOTSTRAP_GROUP } from '../../support/fake-bootstrap-provider.js';
import { testContext } from '../../support/reconcile-context.js';

const INFRA = 'infrastructure.cluster.x-k8s.io';
const WANTED = { labels: { tier: 'gold', 'cluster.x-k8s.io/set-name': 'ms' }, annotations: { 'example.com/owner': 'a' } };

function part(kind: string, name: string, metadata: Partial<KubeObject['metadata']> = {}): KubeObject {
  return { apiVersion: `${INFRA}/v1beta2`, kind, metadata: { name, namespace: 'default', ...metadata }, spec: {} };
}

function machine(name: string): KubeObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: { name, namespace: 'default' },
    spec: {
      clusterName: 'c1',
      infrastructureRef: { apiGroup: INFRA, kind: 'InMemoryMachine', name },
      bootstrap: { configRef: { apiGroup: INFRA, kind: 'InMemoryBootstrap', name } },
    },
  };
}

describe('partWithMetadata', () => {
  it.for([
    ['nothing yet: both set', {}, { labels: WANTED.labels, annotations: WANTED.annotations }],
    ['others kept beside them', { labels: { keep: 'me' }, annotations: { 'x/y': 'z' } }, { labels: { keep: 'me', ...WANTED.labels }, annotations: { 'x/y': 'z', ...WANTED.annotations } }],
    ['a changed value set', { labels: { ...WANTED.labels, tier: 'silver' }, annotations: WANTED.annotations }, { labels: WANTED.labels, annotations: WANTED.annotations }],
    ['all there: no write', { labels: WANTED.labels, annotations: WANTED.annotations }, undefined],
  ] as const)('%s', async ([, metadata, expected]) => {
    const ctx = testContext();
    const stored = await ctx.store.create(part('InMemoryMachine', 'm1', { ...metadata }));
    const next = partWithMetadata(stored, WANTED);
    expect(next && { labels: next.metadata.labels, annotations: next.metadata.annotations }).toEqual(expected);
  });
});

describe('syncPartsMetadata', () => {
  it('gives both parts the metadata; a missing part is skipped, one being deleted is left alone', async () => {
    const ctx = testContext();
    const m = await ctx.store.create(machine('m1'));
    await ctx.store.create(part('InMemoryMachine', 'm1', { finalizers: ['keep'] }));
    await ctx.store.delete({ group: INFRA, kind: 'InMemoryMachine', namespace: 'default', name: 'm1' });
    await syncPartsMetadata(ctx.store, m, WANTED);
    expect((await ctx.store.get({ group: INFRA, kind: 'InMemoryMachine', namespace: 'default', name: 'm1' }))?.metadata.labels).toBeUndefined();

    const m2 = await ctx.store.create(machine('m2'));
    await ctx.store.create(part('InMemoryMachine', 'm2'));
    await ctx.store.create(part('InMemoryBootstrap', 'm2'));
    await syncPartsMetadata(ctx.store, m2, WANTED);
    for (const kind of ['InMemoryMachine', 'InMemoryBootstrap']) {
      expect((await ctx.store.get({ group: INFRA, kind, namespace: 'default', name: 'm2' }))?.metadata).toMatchObject(WANTED);
    }
  });

  it('a part already read is not read again', async () => {
    const ctx = testContext();
    const m = await ctx.store.create(machine('m1'));
    const infra = await ctx.store.create(part('InMemoryMachine', 'm1'));
    await ctx.store.create(part('InMemoryBootstrap', 'm1'));
    const read: string[] = [];
    const store = {
      get: (key: Parameters<typeof ctx.store.get>[0]) => {
        read.push(key.kind);
        return ctx.store.get(key);
      },
      update: (o: KubeObject) => ctx.store.update(o),
    };
    await syncPartsMetadata(store, m, WANTED, [infra]);
    expect(read).toEqual(['InMemoryBootstrap']);
    expect((await ctx.store.get({ group: INFRA, kind: 'InMemoryMachine', namespace: 'default', name: 'm1' }))?.metadata).toMatchObject(WANTED);
  });
});

describe('a MachineSet whose template labels change', () => {
  const KEY = { group: 'cluster.x-k8s.io', kind: 'MachineSet', namespace: 'default', name: 'ms' };
  const setTemplateLabels = async (ctx: ReturnType<typeof testContext>, labels: Record<string, string>) => {
    const ms = await ctx.store.get(KEY);
    if (!ms) throw new Error('no MachineSet');
    const template = { ...(ms.spec?.template as object), metadata: { labels } };
    await ctx.store.update({ ...ms, spec: { ...ms.spec, template } });
  };

  it('labels the parts before the Machine: a run that dies at the Machine leaves it out of date, and the next one finishes', async () => {
    const ctx = testContext();
    for (const t of workerTemplates('md')) await ctx.store.create(t);
    await ctx.store.create({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineSet',
      metadata: { name: 'ms', namespace: 'default' },
      spec: {
        clusterName: 'c1',
        replicas: 1,
        selector: { matchLabels: { pool: 'a' } },
        template: {
          metadata: { labels: { pool: 'a' } },
          spec: {
            clusterName: 'c1',
            bootstrap: { configRef: { apiGroup: FAKE_BOOTSTRAP_GROUP, kind: 'FakeBootstrapConfigTemplate', name: 'md' } },
            infrastructureRef: { apiGroup: INFRA, kind: 'InMemoryMachineTemplate', name: 'md' },
          },
        },
      },
    });
    await runReconcile(machineSetReconciler, ctx, KEY);
    await setTemplateLabels(ctx, { pool: 'a', tier: 'gold' });
    // The Machine's write fails once (a crash there).
    let failMachineWrite = true;
    const store = new Proxy(ctx.store, {
      get: (target, prop, receiver) =>
        prop === 'update'
          ? async (o: StoredObject) => {
              if (o.kind === 'Machine' && failMachineWrite) {
                failMachineWrite = false;
                throw new Error('crashed');
              }
              return target.update(o);
            }
          : Reflect.get(target, prop, receiver),
    });
    await expect(runReconcile(machineSetReconciler, { ...ctx, store }, KEY)).rejects.toThrow('crashed');
    const tierOf = async (kind: string, group: string) => {
      const [found] = (await ctx.store.list({ group, kind, namespace: 'default' })).items;
      return found?.metadata.labels?.tier;
    };
    expect([await tierOf('Machine', 'cluster.x-k8s.io'), await tierOf('InMemoryMachine', INFRA), await tierOf('FakeBootstrapConfig', FAKE_BOOTSTRAP_GROUP)]).toEqual([undefined, 'gold', 'gold']);
    await runReconcile(machineSetReconciler, ctx, KEY);
    expect([await tierOf('Machine', 'cluster.x-k8s.io'), await tierOf('InMemoryMachine', INFRA), await tierOf('FakeBootstrapConfig', FAKE_BOOTSTRAP_GROUP)]).toEqual(['gold', 'gold', 'gold']);
  });
});
