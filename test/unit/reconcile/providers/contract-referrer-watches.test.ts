import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { clusterObject, infraClusterObject } from '../../../support/core-fixtures.js';

/**
 * A Cluster follows its InfraCluster and ControlPlane by reference as well as by owner: an object
 * the Cluster names but has not adopted yet (created after the Cluster) wakes it at once instead
 * of after the 30 s missing-reference requeue (found by the cluster-lifecycle scenario).
 */
describe('Cluster referrer watches on provider kinds', () => {
  const providers = builtinProviderRegistry();

  it.each<[string, string]>([
    ['InMemoryCluster', 'spec.infrastructureRef'],
    ['DockerCluster', 'spec.infrastructureRef'],
    ['KubeadmControlPlane', 'spec.controlPlaneRef'],
  ])('Cluster watches %s through %s', (kind, field) => {
    const cluster = providers.reconcilerFor('cluster.x-k8s.io', 'Cluster');
    const referrers = cluster?.watches.filter((w) => w.by === 'referrer' && w.kind.kind === kind);
    expect(referrers).toEqual([expect.objectContaining({ by: 'referrer', field })]);
  });

  it('the Machine reconciler gets no referrer watches (owner watches cover its clones)', () => {
    const machine = providers.reconcilerFor('cluster.x-k8s.io', 'Machine');
    expect(machine?.watches.filter((w) => w.by === 'referrer')).toEqual([]);
  });

  it('creating a not-yet-adopted InMemoryCluster routes to the Cluster that names it', async () => {
    const store = new MemoryObjectStore();
    await store.create(clusterObject('c1'));
    const infra = await store.create(infraClusterObject('c1'));
    const requests = await routeChange({ type: 'INSERT', newObject: infra }, new ReconcilerRegistry(providers.reconcilers()), store);
    expect(requests).toEqual(expect.arrayContaining([{ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: 'default', name: 'c1' }]));
  });

  it.each<[string, string, string]>([
    ['MachineSet', 'InMemoryMachineTemplate', 'spec.template.spec.infrastructureRef'],
    ['MachineSet', 'KubeadmConfigTemplate', 'spec.template.spec.bootstrap.configRef'],
    ['MachineDeployment', 'InMemoryMachineTemplate', 'spec.template.spec.infrastructureRef'],
    ['MachineDeployment', 'DockerMachineTemplate', 'spec.template.spec.infrastructureRef'],
    ['KubeadmControlPlane', 'InMemoryMachineTemplate', 'spec.machineTemplate.spec.infrastructureRef'],
  ])('%s watches %s through %s', (watcher, template, field) => {
    const reconciler = providers.reconcilers().find((r) => r.kind.kind === watcher);
    const referrers = reconciler?.watches.filter((w) => w.by === 'referrer' && w.kind.kind === template);
    expect(referrers).toEqual([expect.objectContaining({ by: 'referrer', field })]);
  });

  it('creating a template after the MachineSet that names it routes to that MachineSet', async () => {
    const store = new MemoryObjectStore();
    const templateRef = { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachineTemplate', name: 'workers' };
    await store.create({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineSet',
      metadata: { name: 'ms1' },
      spec: { clusterName: 'c1', replicas: 1, selector: {}, template: { spec: { clusterName: 'c1', infrastructureRef: templateRef } } },
    });
    const template = await store.create({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'InMemoryMachineTemplate',
      metadata: { name: 'workers' },
      spec: { template: { spec: {} } },
    });
    const requests = await routeChange({ type: 'INSERT', newObject: template }, new ReconcilerRegistry(providers.reconcilers()), store);
    expect(requests).toEqual(expect.arrayContaining([{ group: 'cluster.x-k8s.io', kind: 'MachineSet', namespace: 'default', name: 'ms1' }]));
  });
});
