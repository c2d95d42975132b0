import { beforeAll, describe, expect, it } from 'vitest';
import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import { numberAt, stringAt } from '../../../shared/contracts/json.js';
import { type ObjectKey, type StoredObject, isDeleting } from '../../../shared/contracts/object.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import {
  CORE_PROVIDER,
  DOCKER_PROVIDER,
  IN_MEMORY_PROVIDER,
} from '../../../shared/contracts/providers/builtin-providers.js';
import { clusterReconciler } from '../../../functions/reconcile/core/cluster/reconciler.js';
import { inMemoryClusterReconciler } from '../../../functions/reconcile/infrastructure/inmemory/cluster/reconciler.js';
import { inMemoryMachineReconciler } from '../../../functions/reconcile/infrastructure/inmemory/machine/reconciler.js';
import { machineReconciler } from '../../../functions/reconcile/core/machine/reconciler.js';
import { machineDeploymentReconciler } from '../../../functions/reconcile/core/machinedeployment/reconciler.js';
import { machineSetReconciler } from '../../../functions/reconcile/core/machineset/reconciler.js';
import { ProviderRegistry } from '../../../functions/reconcile/engine/providers/provider-registry.js';
import { type ConvergeStats, converge } from '../../support/converge.js';
import {
  NS,
  bootstrapSecret,
  clusterObject,
  infraClusterObject,
  machineDeploymentObject,
  standaloneMachine,
  workerTemplates,
} from '../../support/core-fixtures.js';
import { FAKE_BOOTSTRAP_GROUP, FAKE_BOOTSTRAP_PROVIDER } from '../../support/fake-bootstrap-provider.js';
import { FakeClock } from '../../support/fake-clock.js';

const CORE = 'cluster.x-k8s.io';
const INFRA = 'infrastructure.cluster.x-k8s.io';

function registry(): ProviderRegistry {
  return new ProviderRegistry()
    .registerProvider({
      ...CORE_PROVIDER,
      reconcilers: [clusterReconciler, machineDeploymentReconciler, machineSetReconciler, machineReconciler],
    })
    .registerProvider(FAKE_BOOTSTRAP_PROVIDER)
    .registerProvider({ ...IN_MEMORY_PROVIDER, reconcilers: [inMemoryClusterReconciler, inMemoryMachineReconciler] })
    .registerProvider({ ...DOCKER_PROVIDER, reconcilers: [] });
}

const key = (group: string, kind: string, name: string): ObjectKey => ({ group, kind, namespace: NS, name });

async function listKind(store: MemoryObjectStore, group: string, kind: string): Promise<StoredObject[]> {
  return (await store.list({ group, kind, namespace: NS })).items;
}

function condition(obj: StoredObject | undefined, type: string) {
  return findCondition(conditionsOf(obj?.status), type);
}

async function workers(store: MemoryObjectStore): Promise<StoredObject[]> {
  return (await listKind(store, CORE, 'Machine')).filter((m) => m.metadata.labels?.['cluster.x-k8s.io/deployment-name'] === 'md');
}

async function setMachineDeployment(store: MemoryObjectStore, change: (spec: Record<string, unknown>) => void): Promise<void> {
  const md = await store.get(key(CORE, 'MachineDeployment', 'md'));
  if (!md?.spec) throw new Error('MachineDeployment md is missing');
  const spec = structuredClone(md.spec);
  change(spec);
  await store.update({ ...md, spec });
}

/** Machines of `md` that are not being deleted; availability as the Machines report it. */
async function rolloutInvariant(store: MemoryObjectStore, violations: string[]): Promise<void> {
  const md = await store.get(key(CORE, 'MachineDeployment', 'md'));
  const replicas = numberAt(md, 'spec', 'replicas') ?? 0;
  const live = (await workers(store)).filter((m) => !isDeleting(m));
  const available = live.filter((m) => condition(m, 'Available')?.status === 'True').length;
  if (live.length > replicas + 1) violations.push(`${live.length} live Machines > replicas ${replicas} + maxSurge 1`);
  if (available < replicas) violations.push(`${available} available < replicas ${replicas} − maxUnavailable 0`);
}

describe('core scenario: Cluster + InMemoryCluster + standalone Machines + MachineDeployment', () => {
  const clock = new FakeClock();
  const store = new MemoryObjectStore({ clock });
  const providers = registry();
  let first: ConvergeStats;

  beforeAll(async () => {
    for (const obj of [
      clusterObject('c1'),
      infraClusterObject('c1'),
      bootstrapSecret('c1-cp-bootstrap', 'c1'),
      ...standaloneMachine('c1-cp-0', 'c1', 'c1-cp-bootstrap'),
      ...workerTemplates('md'),
      machineDeploymentObject('md', 'c1', 2),
    ]) {
      await store.create(obj);
    }
    first = await converge(providers, store, { clock });
  });

  it('converges without errors; every Machine Running; the Cluster Provisioned and Available', async () => {
    expect(first.errors).toEqual([]);
    expect(first.converged).toBe(true);
    const machines = await listKind(store, CORE, 'Machine');
    expect(machines).toHaveLength(3);
    for (const m of machines) {
      expect({ name: m.metadata.name, phase: m.status?.phase }).toEqual({ name: m.metadata.name, phase: 'Running' });
      expect(stringAt(m, 'spec', 'providerID')).toBe(`in-memory://${NS}/${m.metadata.name}`);
      expect(condition(m, 'Ready')?.status).toBe('True');
    }
    const cluster = await store.get(key(CORE, 'Cluster', 'c1'));
    expect(cluster?.status?.phase).toBe('Provisioned');
    expect(cluster?.status?.initialization).toEqual({ infrastructureProvisioned: true, controlPlaneInitialized: true });
    expect(stringAt(cluster, 'spec', 'controlPlaneEndpoint', 'host')).toBe('c1.default.in-memory.capless.local');
    expect(condition(cluster, 'Available')?.status).toBe('True');
    expect(cluster?.status?.workers).toMatchObject({ desiredReplicas: 2, replicas: 2, availableReplicas: 2 });
    const md = await store.get(key(CORE, 'MachineDeployment', 'md'));
    expect(md?.status).toMatchObject({ replicas: 2, availableReplicas: 2, upToDateReplicas: 2, phase: 'Running' });
  });

  it('stays within the reconcile and write budgets', async () => {
    const machineWrites = first.writesByKind.Machine ?? 0;
    expect(machineWrites / 3).toBeLessThanOrEqual(25);
    const again = await converge(providers, store, { clock });
    expect(again.writes).toBe(0);
    expect(again.errors).toEqual([]);
  });

  it.each([4, 1])('scales the MachineDeployment to %i', async (replicas) => {
    await setMachineDeployment(store, (spec) => {
      spec.replicas = replicas;
    });
    const stats = await converge(providers, store, { clock });
    expect(stats.errors).toEqual([]);
    const live = await workers(store);
    expect(live).toHaveLength(replicas);
    expect(live.every((m) => m.status?.phase === 'Running')).toBe(true);
    const infra = await listKind(store, INFRA, 'InMemoryMachine');
    expect(infra).toHaveLength(replicas + 1);
  });

  it.each([
    [1, 'v1.32.0'],
    [3, 'v1.33.0'],
  ])('rolls %i replica(s) to %s never below replicas − maxUnavailable', async (replicas, version) => {
    await setMachineDeployment(store, (spec) => {
      spec.replicas = replicas;
    });
    await converge(providers, store, { clock });
    await setMachineDeployment(store, (spec) => {
      const template = spec.template;
      if (typeof template === 'object' && template !== null && 'spec' in template) {
        Object.assign(template.spec as object, { version });
      }
    });
    const violations: string[] = [];
    const stats = await converge(providers, store, { clock, afterRound: () => rolloutInvariant(store, violations) });
    expect(stats.errors).toEqual([]);
    expect(violations).toEqual([]);
    const live = await workers(store);
    expect(live.map((m) => stringAt(m, 'spec', 'version'))).toEqual(Array(replicas).fill(version));
    expect(live.every((m) => m.status?.phase === 'Running')).toBe(true);
    expect(await listKind(store, CORE, 'MachineSet')).toHaveLength(1);
  });

  it('restarts with spec.rollout.after set to now (clusterctl alpha rollout restart): every worker replaced, never below replicas', async () => {
    const before = (await workers(store)).map((m) => m.metadata.name);
    await setMachineDeployment(store, (spec) => {
      spec.rollout = { ...(spec.rollout as object), after: clock.now().toISOString().replace(/\.\d+Z$/, 'Z') };
    });
    clock.advanceSeconds(1);
    const violations: string[] = [];
    const stats = await converge(providers, store, { clock, afterRound: () => rolloutInvariant(store, violations) });
    expect(stats.errors).toEqual([]);
    expect(violations).toEqual([]);
    const after = await workers(store);
    expect(after).toHaveLength(before.length);
    expect(after.map((m) => m.metadata.name).filter((name) => before.includes(name))).toEqual([]);
    expect(after.every((m) => m.status?.phase === 'Running')).toBe(true);
    const sets = await listKind(store, CORE, 'MachineSet');
    expect(sets).toHaveLength(1);
    expect(sets[0]?.metadata.labels?.['machine-template-hash']).toMatch(/^[0-9a-f]{10}-[0-9a-f]{5}$/);
    const md = await store.get(key(CORE, 'MachineDeployment', 'md'));
    expect(md?.status).toMatchObject({ replicas: before.length, upToDateReplicas: before.length });
    expect(condition(md, 'RollingOut')?.status).toBe('False');
    // Nothing further to do at the same rollout.after.
    expect((await converge(providers, store, { clock })).writes).toBe(0);
  });

  it('waits for a rollout.after ahead and replaces the workers when it comes', async () => {
    const before = await workers(store);
    const due = new Date(clock.now().getTime() + 600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    await setMachineDeployment(store, (spec) => {
      spec.rollout = { ...(spec.rollout as object), after: due };
    });
    const stats = await converge(providers, store, { clock });
    expect(stats.errors).toEqual([]);
    expect(stats.elapsedSeconds).toBeGreaterThanOrEqual(600);
    const after = await workers(store);
    expect(after).toHaveLength(before.length);
    for (const machine of after) expect(Date.parse(machine.metadata.creationTimestamp)).toBeGreaterThanOrEqual(Date.parse(due));
  });

  it('changes labels, annotations, taints, minReadySeconds and the drain timeout in place: no worker replaced, each carries them', async () => {
    const before = (await workers(store)).map((m) => m.metadata.name).sort();
    await setMachineDeployment(store, (spec) => {
      const template = spec.template as { metadata?: Record<string, unknown>; spec: Record<string, unknown> };
      template.metadata = { ...template.metadata, labels: { tier: 'gold' }, annotations: { 'example.com/owner': 'team-a' } };
      template.spec = {
        ...template.spec,
        minReadySeconds: 5,
        taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
        deletion: { nodeDrainTimeoutSeconds: 120 },
      };
    });
    const stats = await converge(providers, store, { clock });
    expect(stats.errors).toEqual([]);
    const after = await workers(store);
    expect(after.map((m) => m.metadata.name).sort()).toEqual(before);
    for (const machine of after) {
      expect(machine.metadata.labels).toMatchObject({ tier: 'gold', 'cluster.x-k8s.io/deployment-name': 'md' });
      expect(machine.metadata.annotations).toMatchObject({ 'example.com/owner': 'team-a' });
      expect(machine.spec).toMatchObject({ minReadySeconds: 5, taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }], deletion: { nodeDrainTimeoutSeconds: 120 } });
    }
    // Their InfraMachines and bootstrap configs too (Cluster API's updateLabelsAndAnnotations).
    const parts = [...(await listKind(store, INFRA, 'InMemoryMachine')), ...(await listKind(store, FAKE_BOOTSTRAP_GROUP, 'FakeBootstrapConfig'))].filter((p) =>
      before.includes(p.metadata.name),
    );
    expect(parts.map((p) => [p.kind, p.metadata.labels?.tier, p.metadata.labels?.['cluster.x-k8s.io/deployment-name'], p.metadata.annotations?.['example.com/owner']])).toEqual(
      parts.map((p) => [p.kind, 'gold', 'md', 'team-a']),
    );
    expect(parts).toHaveLength(before.length * 2);
    const [set] = await listKind(store, CORE, 'MachineSet');
    expect(set?.metadata.labels).toMatchObject({ tier: 'gold' });
    expect(set?.spec).toMatchObject({ template: { metadata: { labels: { tier: 'gold' } }, spec: { minReadySeconds: 5, deletion: { nodeDrainTimeoutSeconds: 120 } } } });
    expect((await converge(providers, store, { clock })).writes).toBe(0);

    // Dropping the drain timeout drops it from the Machines; the label they were given stays (capless does not know who set it).
    await setMachineDeployment(store, (spec) => {
      const template = spec.template as { spec: Record<string, unknown> };
      const { deletion: _deletion, ...rest } = template.spec;
      template.spec = rest;
    });
    await converge(providers, store, { clock });
    for (const machine of await workers(store)) {
      expect(machine.spec?.deletion).toBeUndefined();
      expect(machine.metadata.labels?.tier).toBe('gold');
    }
    expect((await workers(store)).map((m) => m.metadata.name).sort()).toEqual(before);
  });

  it('deletes the Cluster in order and leaves no finalizers behind', async () => {
    const cluster = await store.get(key(CORE, 'Cluster', 'c1'));
    if (!cluster) throw new Error('cluster c1 is missing');
    await store.delete(key(CORE, 'Cluster', 'c1'));
    const violations: string[] = [];
    const stats = await converge(providers, store, {
      clock,
      afterRound: async () => {
        const infraCluster = await store.get(key(INFRA, 'InMemoryCluster', 'c1'));
        const machines = await listKind(store, CORE, 'Machine');
        if (!infraCluster && machines.length > 0) violations.push('InMemoryCluster gone while Machines remain');
        const infraMachines = await listKind(store, INFRA, 'InMemoryMachine');
        const machineNames = new Set(machines.map((m) => m.metadata.name));
        for (const im of infraMachines) {
          if (!machineNames.has(im.metadata.name)) violations.push(`InMemoryMachine ${im.metadata.name} outlived its Machine`);
        }
      },
    });
    expect(stats.errors).toEqual([]);
    expect(violations).toEqual([]);
    for (const [group, kind] of [
      [CORE, 'Cluster'],
      [CORE, 'MachineDeployment'],
      [CORE, 'MachineSet'],
      [CORE, 'Machine'],
      [INFRA, 'InMemoryCluster'],
      [INFRA, 'InMemoryMachine'],
    ] as const) {
      expect({ kind, left: (await listKind(store, group, kind)).length }).toEqual({ kind, left: 0 });
    }
  });
});

describe('core scenario: a Cluster on Docker infrastructure', () => {
  it('reports ProviderNotInstalled without errors', async () => {
    const clock = new FakeClock();
    const store = new MemoryObjectStore({ clock });
    await store.create(clusterObject('c2', 'DockerCluster'));
    await store.create(infraClusterObject('c2', 'DockerCluster'));
    const stats = await converge(registry(), store, { clock });
    expect(stats.errors).toEqual([]);
    expect(stats.converged).toBe(true);
    const cluster = await store.get(key(CORE, 'Cluster', 'c2'));
    expect(condition(cluster, 'InfrastructureReady')).toMatchObject({
      status: 'False',
      reason: 'ProviderNotInstalled',
      message: 'no provider serves DockerCluster.infrastructure.cluster.x-k8s.io',
    });
    expect(cluster?.status?.phase).toBe('Provisioning');
  });
});
