import { beforeAll, describe, expect, it } from 'vitest';
import { recordAt, stringAt } from '../../../../shared/contracts/json.js';
import { type ObjectKey, type StoredObject, isDeleting } from '../../../../shared/contracts/object.js';
import { CORE_PROVIDER, IN_MEMORY_PROVIDER } from '../../../../shared/contracts/providers/builtin-providers.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { InMemoryWorkloadCluster } from '../../../../shared/workload-cluster/in-memory-workload-cluster.js';
import { clusterReconciler } from '../../../../functions/reconcile/core/cluster/reconciler.js';
import { machineReconciler } from '../../../../functions/reconcile/core/machine/reconciler.js';
import { machineDeploymentReconciler } from '../../../../functions/reconcile/core/machinedeployment/reconciler.js';
import { machineSetReconciler } from '../../../../functions/reconcile/core/machineset/reconciler.js';
import { ProviderRegistry } from '../../../../functions/reconcile/engine/providers/provider-registry.js';
import { inMemoryClusterReconciler } from '../../../../functions/reconcile/infrastructure/inmemory/cluster/reconciler.js';
import { inMemoryMachineReconciler } from '../../../../functions/reconcile/infrastructure/inmemory/machine/reconciler.js';
import { converge } from '../../../support/converge.js';
import { NS, bootstrapSecret, clusterObject, infraClusterObject, machineDeploymentObject, standaloneMachine, workerTemplates } from '../../../support/core-fixtures.js';
import { FAKE_BOOTSTRAP_PROVIDER } from '../../../support/fake-bootstrap-provider.js';
import { FakeClock } from '../../../support/fake-clock.js';

const CORE = 'cluster.x-k8s.io';
const REVISION = 'machinedeployment.clusters.x-k8s.io/revision';
const HISTORY = 'machinedeployment.clusters.x-k8s.io/revision-history';
const DISABLE_CREATE = 'machineset.cluster.x-k8s.io/disable-machine-create';
const OUTDATED = 'node.cluster.x-k8s.io/outdated-revision';
const MD_KEY: ObjectKey = { group: CORE, kind: 'MachineDeployment', namespace: NS, name: 'md' };

function registry(): ProviderRegistry {
  return new ProviderRegistry()
    .registerProvider({ ...CORE_PROVIDER, reconcilers: [clusterReconciler, machineDeploymentReconciler, machineSetReconciler, machineReconciler] })
    .registerProvider(FAKE_BOOTSTRAP_PROVIDER)
    .registerProvider({ ...IN_MEMORY_PROVIDER, reconcilers: [inMemoryClusterReconciler, inMemoryMachineReconciler] });
}

describe('a MachineDeployment numbers its rollouts on its MachineSets, and the Nodes of the old ones are tainted while they go', () => {
  const clock = new FakeClock();
  const store = new MemoryObjectStore({ clock });
  const workload = new InMemoryWorkloadCluster(store);
  const providers = registry();
  const settle = (afterRound?: () => Promise<void>) => converge(providers, store, { clock, providers: { workloadCluster: workload }, ...(afterRound ? { afterRound } : {}) });

  const machineSets = async () => (await store.list({ group: CORE, kind: 'MachineSet', namespace: NS })).items.filter((ms) => !isDeleting(ms));
  const workers = async () => (await store.list({ group: CORE, kind: 'Machine', namespace: NS })).items.filter((m) => m.metadata.labels?.['cluster.x-k8s.io/deployment-name'] === 'md');
  const annotation = (object: StoredObject | undefined, key: string) => object?.metadata.annotations?.[key];
  const revisionOf = async (name: string) => annotation((await machineSets()).find((ms) => ms.metadata.name === name), REVISION);
  const taintedNodes = async () => {
    const tainted: Record<string, boolean> = {};
    for (const machine of await workers()) {
      const providerID = stringAt(machine, 'spec', 'providerID');
      const node = providerID ? await workload.findNodeByProviderID({ namespace: NS, name: 'c1' }, providerID) : undefined;
      if (node) tainted[machine.metadata.name] = (node.taints ?? []).some((t) => t.key === OUTDATED && t.effect === 'PreferNoSchedule');
    }
    return tainted;
  };
  const setMachineDeployment = async (change: (md: StoredObject) => StoredObject) => {
    const md = await store.get(MD_KEY);
    if (!md) throw new Error('no MachineDeployment');
    await store.update(change(structuredClone(md)));
  };
  const setVersion = (version: string) =>
    setMachineDeployment((md) => {
      const template = recordAt(md, 'spec', 'template') ?? {};
      return { ...md, spec: { ...md.spec, template: { ...template, spec: { ...recordAt(template, 'spec'), version } } } };
    });

  beforeAll(async () => {
    const md = machineDeploymentObject('md', 'c1', 2);
    md.metadata.annotations = { 'team.example.com/owner': 'a', 'kubectl.kubernetes.io/last-applied-configuration': '{}' };
    for (const obj of [clusterObject('c1'), infraClusterObject('c1'), bootstrapSecret('c1-cp-bootstrap', 'c1'), ...standaloneMachine('c1-cp-0', 'c1', 'c1-cp-bootstrap'), ...workerTemplates('md'), md]) {
      await store.create(obj);
    }
    expect((await settle()).errors).toEqual([]);
  });

  it('the first MachineSet is revision 1 with the MachineDeployment’s replicas and annotations, and so is the MachineDeployment', async () => {
    const [ms] = await machineSets();
    expect(ms?.metadata.annotations).toEqual({
      'team.example.com/owner': 'a',
      'machinedeployment.clusters.x-k8s.io/desired-replicas': '2',
      'machinedeployment.clusters.x-k8s.io/max-replicas': '3',
      [REVISION]: '1',
      [DISABLE_CREATE]: 'false',
    });
    expect(annotation(await store.get(MD_KEY), REVISION)).toBe('1');
    expect(Object.values(await taintedNodes())).toEqual([false, false]);
  });

  it('a rollout makes revision 2; every Node of revision 1 is tainted PreferNoSchedule while it lives, no Node of revision 2 ever is', async () => {
    const [first] = await machineSets();
    const oldMachines = new Set((await workers()).map((m) => m.metadata.name));
    const seen: Record<string, boolean> = {};
    await setVersion('v1.32.0');
    const stats = await settle(async () => {
      for (const [name, tainted] of Object.entries(await taintedNodes())) seen[name] = (seen[name] ?? false) || tainted;
    });
    expect(stats.errors).toEqual([]);
    const [current] = await machineSets();
    expect(current?.metadata.name).not.toBe(first?.metadata.name);
    expect(annotation(current, REVISION)).toBe('2');
    expect(annotation(await store.get(MD_KEY), REVISION)).toBe('2');
    const oldSeen = Object.entries(seen).filter(([name]) => oldMachines.has(name));
    const newSeen = Object.entries(seen).filter(([name]) => !oldMachines.has(name));
    expect(oldSeen.length).toBeGreaterThan(0);
    expect(oldSeen.every(([, tainted]) => tainted)).toBe(true);
    expect(newSeen.map(([, tainted]) => tainted)).toEqual([false, false]);
  });

  it('OnDelete: the old MachineSet makes no Machine for one deleted by hand (the current one does), and one current again takes the next revision and keeps its old one in its history', async () => {
    await setMachineDeployment((md) => ({ ...md, spec: { ...md.spec, rollout: { strategy: { type: 'OnDelete' } } } }));
    expect((await settle()).errors).toEqual([]);
    const [v132] = await machineSets();
    await setVersion('v1.33.0');
    expect((await settle()).errors).toEqual([]);
    const sets = await machineSets();
    const old = sets.find((ms) => ms.metadata.name === v132?.metadata.name);
    const current = sets.find((ms) => ms.metadata.name !== v132?.metadata.name);
    expect([annotation(old, DISABLE_CREATE), annotation(current, DISABLE_CREATE)]).toEqual(['true', 'false']);
    expect([annotation(old, REVISION), annotation(current, REVISION)]).toEqual(['2', '3']);
    expect(annotation(old, 'machinedeployment.clusters.x-k8s.io/max-replicas')).toBe('2');
    expect(Object.values(await taintedNodes())).toEqual([true, true]);

    const [victim] = await workers();
    if (!victim) throw new Error('no worker');
    await store.delete({ group: CORE, kind: 'Machine', namespace: NS, name: victim.metadata.name });
    expect((await settle()).errors).toEqual([]);
    const byVersion = (await workers()).filter((m) => !isDeleting(m)).map((m) => stringAt(m, 'spec', 'version')).sort();
    expect(byVersion).toEqual(['v1.32.0', 'v1.33.0']);

    await setVersion('v1.32.0');
    expect((await settle()).errors).toEqual([]);
    if (!old || !current) throw new Error('MachineSets missing');
    expect(await revisionOf(old.metadata.name)).toBe('4');
    expect(annotation((await machineSets()).find((ms) => ms.metadata.name === old.metadata.name), HISTORY)).toBe('2');
    expect(annotation(await store.get(MD_KEY), REVISION)).toBe('4');
    const again = (await machineSets()).find((ms) => ms.metadata.name === current.metadata.name);
    expect([annotation(again, REVISION), annotation(again, DISABLE_CREATE)]).toEqual(['3', 'true']);
  });
});
