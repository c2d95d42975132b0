import { describe, expect, it } from 'vitest';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import type { KubeObject, StoredObject } from '../../../../shared/contracts/object.js';
import {
  newMachine,
  randomMachineName,
  selectorString,
} from '../../../../functions/reconcile/core/machineset/machine-factory.js';
import { machinesToDelete } from '../../../../functions/reconcile/core/machineset/scale-down.js';
import { reportsMissingClone } from '../../../../functions/reconcile/core/machineset/phases.js';
import { machineSetReconciler } from '../../../../functions/reconcile/core/machineset/reconciler.js';
import { scalingConditions } from '../../../../functions/reconcile/core/machineset/status.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { workerTemplates } from '../../../support/core-fixtures.js';
import { FAKE_BOOTSTRAP_GROUP } from '../../../support/fake-bootstrap-provider.js';
import { testContext } from '../../../support/reconcile-context.js';

function machine(name: string, created: string, opts: { ready?: boolean; annotated?: boolean } = {}): StoredObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      resourceVersion: '1',
      generation: 1,
      creationTimestamp: created,
      ...(opts.annotated ? { annotations: { 'cluster.x-k8s.io/delete-machine': '' } } : {}),
    },
    status: { conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True', reason: 'x', lastTransitionTime: created }] },
  };
}

const a = machine('a', '2026-01-01T00:00:01Z');
const b = machine('b', '2026-01-01T00:00:02Z');
const c = machine('c', '2026-01-01T00:00:03Z');
const notReady = machine('n', '2026-01-01T00:00:00Z', { ready: false });
const marked = machine('m', '2026-01-01T00:00:00Z', { annotated: true });

describe('machinesToDelete', () => {
  it.each<[string, StoredObject[], number, 'Newest' | 'Oldest' | 'Random', string[]]>([
    ['Newest', [a, b, c], 2, 'Newest', ['c', 'b']],
    ['Oldest', [a, b, c], 1, 'Oldest', ['a']],
    ['delete-machine annotation first', [a, b, marked], 1, 'Newest', ['m']],
    ['not Ready before Ready', [a, b, notReady], 1, 'Newest', ['n']],
    ['annotation before not Ready', [notReady, marked, c], 2, 'Oldest', ['m', 'n']],
    ['nothing to delete', [a, b], 0, 'Newest', []],
  ])('%s', (_name, machines, count, order, expected) => {
    expect(machinesToDelete(machines, count, order).map((m) => m.metadata.name)).toEqual(expected);
  });

  it('Random is stable across calls', () => {
    const first = machinesToDelete([a, b, c], 2, 'Random').map((m) => m.metadata.name);
    expect(machinesToDelete([c, b, a], 2, 'Random').map((m) => m.metadata.name)).toEqual(first);
  });
});

describe('scalingConditions', () => {
  it.each<[number, number, string, string]>([
    [3, 1, 'True', 'False'],
    [1, 3, 'False', 'True'],
    [2, 2, 'False', 'False'],
  ])('desired %i current %i → ScalingUp %s ScalingDown %s', (desired, current, up, down) => {
    const [u, d] = scalingConditions(desired, current);
    expect([u?.status, d?.status]).toEqual([up, down]);
  });
});

function machineSet(replicas: number): KubeObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineSet',
    metadata: { name: 'ms', namespace: 'default', labels: { 'cluster.x-k8s.io/deployment-name': 'md' } },
    spec: {
      clusterName: 'c1',
      replicas,
      selector: { matchLabels: { pool: 'a' } },
      deletion: { order: 'Oldest' },
      template: {
        metadata: { labels: { pool: 'a' }, annotations: { 'example.com/owner': 'team-a' } },
        spec: {
          clusterName: 'c1',
          version: 'v1.31.0',
          bootstrap: { configRef: { apiGroup: FAKE_BOOTSTRAP_GROUP, kind: 'FakeBootstrapConfigTemplate', name: 'md' } },
          infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachineTemplate', name: 'md' },
        },
      },
    },
  };
}

describe('machine factory', () => {
  it.each<[number[], string]>([
    [[0, 0, 0, 0, 0], 'ms-bbbbb'],
    [[26, 1, 2, 3, 4], 'ms-9cdfg'],
  ])('randomMachineName with %j → %s', (draws, expected) => {
    let i = 0;
    expect(randomMachineName('ms', () => draws[i++] ?? 0)).toBe(expected);
  });

  it('newMachine points at clones named like the Machine', async () => {
    const ctx = testContext();
    const ms = await ctx.store.create(machineSet(1));
    const m = newMachine(ms, 'ms-abcde');
    expect(m.metadata.labels).toEqual({ pool: 'a', 'cluster.x-k8s.io/set-name': 'ms', 'cluster.x-k8s.io/deployment-name': 'md', 'cluster.x-k8s.io/cluster-name': 'c1' });
    expect(m.metadata.annotations).toEqual({ 'example.com/owner': 'team-a' });
    expect(m.spec).toMatchObject({
      clusterName: 'c1',
      version: 'v1.31.0',
      bootstrap: { configRef: { apiGroup: FAKE_BOOTSTRAP_GROUP, kind: 'FakeBootstrapConfig', name: 'ms-abcde' } },
      infrastructureRef: { kind: 'InMemoryMachine', name: 'ms-abcde' },
    });
    expect(selectorString(ms)).toBe('pool=a');
  });
});

describe('machineSetReconciler', () => {
  const key = { group: 'cluster.x-k8s.io', kind: 'MachineSet', namespace: 'default', name: 'ms' };

  it.each<[string, number, number]>([
    ['creates Machines with cloned bootstrap configs and InfraMachines', 3, 3],
    ['creates nothing for zero replicas', 0, 0],
  ])('%s', async (_name, replicas, expected) => {
    const ctx = testContext();
    for (const t of workerTemplates('md')) await ctx.store.create(t);
    const ms = await ctx.store.create(machineSet(replicas));
    await runReconcile(machineSetReconciler, ctx, key);
    const machines = (await ctx.store.listByOwner(ms.metadata.uid)).filter((o) => o.kind === 'Machine');
    expect(machines).toHaveLength(expected);
    for (const m of machines) {
      const owned = await ctx.store.listByOwner(m.metadata.uid);
      expect(owned.map((o) => o.kind).sort()).toEqual(['FakeBootstrapConfig', 'InMemoryMachine']);
      const infra = owned.find((o) => o.kind === 'InMemoryMachine');
      expect(infra?.metadata.annotations).toEqual({
        'example.com/owner': 'team-a',
        'cluster.x-k8s.io/cloned-from-name': 'md',
        'cluster.x-k8s.io/cloned-from-groupkind': 'InMemoryMachineTemplate.infrastructure.cluster.x-k8s.io',
      });
      expect(infra?.spec).toEqual({ startupSeconds: 2 });
      // Both parts carry the Machine's labels (Cluster API's machineLabelsFromMachineSet), so `-l cluster.x-k8s.io/deployment-name=md` finds them.
      for (const part of owned) {
        expect(part.metadata.labels).toMatchObject({ pool: 'a', 'cluster.x-k8s.io/set-name': 'ms', 'cluster.x-k8s.io/deployment-name': 'md', 'cluster.x-k8s.io/cluster-name': 'c1' });
      }
    }
    expect((await ctx.store.get(key))?.status).toMatchObject({ replicas: expected, readyReplicas: 0, selector: 'pool=a' });
  });

  it('waits with a condition while a template is missing', async () => {
    const ctx = testContext();
    await ctx.store.create(machineSet(2));
    const result = await runReconcile(machineSetReconciler, ctx, key);
    expect(result.requeueAfterSeconds).toBe(30);
    const conditions = (await ctx.store.get(key))?.status?.conditions;
    expect(conditions).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'MachinesCreated', reason: 'TemplateDoesNotExist' })]));
  });

  it('scales down the oldest Machines', async () => {
    const ctx = testContext();
    for (const t of workerTemplates('md')) await ctx.store.create(t);
    const ms = await ctx.store.create(machineSet(2));
    await runReconcile(machineSetReconciler, ctx, key);
    const originals = (await ctx.store.listByOwner(ms.metadata.uid)).filter((o) => o.kind === 'Machine').map((m) => m.metadata.name);
    ctx.clock.advanceSeconds(10);
    const current = await ctx.store.get(key);
    if (!current) throw new Error('missing');
    await ctx.store.update({ ...current, spec: { ...current.spec, replicas: 3 } });
    await runReconcile(machineSetReconciler, ctx, key);
    const newest = (await ctx.store.listByOwner(ms.metadata.uid)).find((o) => o.kind === 'Machine' && !originals.includes(o.metadata.name));
    const scaled = await ctx.store.get(key);
    if (!scaled) throw new Error('missing');
    await ctx.store.update({ ...scaled, spec: { ...scaled.spec, replicas: 2 } });
    await runReconcile(machineSetReconciler, ctx, key);
    const left = (await ctx.store.listByOwner(ms.metadata.uid)).filter((o) => o.kind === 'Machine');
    expect(left).toHaveLength(2);
    expect(left.map((m) => m.metadata.name)).toContain(newest?.metadata.name);
    expect(left.filter((m) => originals.includes(m.metadata.name))).toHaveLength(1);
  });
});

describe('crash repair', () => {
  it.each<[string, Record<string, unknown>, boolean]>([
    ['infrastructure missing', { type: 'InfrastructureReady', status: 'False', reason: 'InfrastructureDoesNotExist' }, true],
    ['bootstrap config missing', { type: 'BootstrapConfigReady', status: 'False', reason: 'BootstrapConfigDoesNotExist' }, true],
    ['merely not provisioned', { type: 'InfrastructureReady', status: 'False', reason: 'NotProvisioned' }, false],
  ])('reportsMissingClone: %s → %s', (_name, condition, expected) => {
    const m = machine('x', '2026-01-01T00:00:00Z');
    m.status = { conditions: [{ ...condition, lastTransitionTime: 'x' }] };
    expect(reportsMissingClone(m)).toBe(expected);
  });

  it('re-creates the clones of a Machine whose creator crashed before making them', async () => {
    const ctx = testContext();
    for (const t of workerTemplates('md')) await ctx.store.create(t);
    const ms = await ctx.store.create(machineSet(1));
    await runReconcile(machineSetReconciler, ctx, { group: 'cluster.x-k8s.io', kind: 'MachineSet', namespace: 'default', name: 'ms' });
    const [m] = (await ctx.store.listByOwner(ms.metadata.uid)).filter((o) => o.kind === 'Machine');
    if (!m) throw new Error('no machine');
    await ctx.store.delete({ group: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachine', namespace: 'default', name: m.metadata.name });
    await ctx.store.updateStatus({
      ...m,
      status: { conditions: [{ type: 'InfrastructureReady', status: 'False', reason: 'InfrastructureDoesNotExist', lastTransitionTime: 'x' }] },
    });
    await runReconcile(machineSetReconciler, ctx, { group: 'cluster.x-k8s.io', kind: 'MachineSet', namespace: 'default', name: 'ms' });
    const infra = await ctx.store.get({ group: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachine', namespace: 'default', name: m.metadata.name });
    expect(infra?.metadata.ownerReferences).toEqual([expect.objectContaining({ uid: m.metadata.uid, controller: true })]);
  });
});

describe('a MachineSet holds its scale-up while the preflight checks fail', () => {
  const key = { group: 'cluster.x-k8s.io', kind: 'MachineSet', namespace: 'default', name: 'ms' };
  const cpKey = { group: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', namespace: 'default', name: 'cp' };

  async function setup(skipOnTemplate?: string) {
    const ctx = testContext();
    for (const t of workerTemplates('md')) {
      const annotated = skipOnTemplate && t.kind.endsWith('BootstrapConfigTemplate') ? { ...t, metadata: { ...t.metadata, annotations: { 'machineset.cluster.x-k8s.io/skip-preflight-checks': skipOnTemplate } } } : t;
      await ctx.store.create(annotated);
    }
    await ctx.store.create({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', namespace: 'default' }, spec: { controlPlaneRef: { apiGroup: cpKey.group, kind: cpKey.kind, name: 'cp' } } });
    await ctx.store.create({ apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlane', metadata: { name: 'cp', namespace: 'default' }, spec: { version: 'v1.31.0', replicas: 1 } });
    const ms = await ctx.store.create(machineSet(2));
    const machines = async () => (await ctx.store.listByOwner(ms.metadata.uid)).filter((o) => o.kind === 'Machine');
    const condition = async (type: string) => findCondition(conditionsOf((await ctx.store.get(key))?.status), type);
    return { ctx, machines, condition };
  }

  it('a control plane still provisioning: no Machine, both conditions say why, a look again in 15 s; once it reports its version the Machines come', async () => {
    const { ctx, machines, condition } = await setup();
    const held = await runReconcile(machineSetReconciler, ctx, key);
    expect(held.requeueAfterSeconds).toBe(15);
    expect(await machines()).toHaveLength(0);
    const reason = 'KubeadmControlPlane default/cp is provisioning ("ControlPlaneIsStable" preflight check failed)';
    expect(await condition('MachinesCreated')).toMatchObject({ status: 'False', reason: 'PreflightCheckFailed', message: reason });
    expect(await condition('ScalingUp')).toMatchObject({ status: 'True', message: `Scaling up from 0 to 2 replicas is blocked because:\n* ${reason}` });

    const cp = await ctx.store.get(cpKey);
    if (!cp) throw new Error('no control plane');
    await ctx.store.updateStatus({ ...cp, status: { version: 'v1.31.0' } });
    await runReconcile(machineSetReconciler, ctx, key);
    expect(await machines()).toHaveLength(2);
    expect(await condition('ScalingUp')).toMatchObject({ status: 'False', reason: 'NotScalingUp' });
  });

  it('the checks its bootstrap config template skips are skipped', async () => {
    const { ctx, machines } = await setup('ControlPlaneIsStable');
    await runReconcile(machineSetReconciler, ctx, key);
    expect(await machines()).toHaveLength(2);
  });
});
