import { describe, expect, it } from 'vitest';
import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { controlPlaneMachineCounters, workerCounters } from '../../../../functions/reconcile/core/cluster/counters.js';
import { descendantsToDelete } from '../../../../functions/reconcile/core/cluster/delete-phases.js';
import {
  type ClusterPhaseFacts,
  clusterPhase,
  clusterSummaryConditions,
  workersAvailableCondition,
} from '../../../../functions/reconcile/core/cluster/status.js';

const base: ClusterPhaseFacts = { deleting: false, hasReference: false, infrastructureProvisioned: false, endpointValid: false };

describe('clusterPhase', () => {
  it.each<[string, Partial<ClusterPhaseFacts>, string]>([
    ['no references', {}, 'Pending'],
    ['references set', { hasReference: true }, 'Provisioning'],
    ['provisioned without endpoint', { hasReference: true, infrastructureProvisioned: true }, 'Provisioning'],
    ['provisioned with endpoint', { hasReference: true, infrastructureProvisioned: true, endpointValid: true }, 'Provisioned'],
    ['deleting', { deleting: true, infrastructureProvisioned: true, endpointValid: true }, 'Deleting'],
  ])('%s → %s', (_name, facts, expected) => {
    expect(clusterPhase({ ...base, ...facts })).toBe(expected);
  });
});

const counters = (desired: number, available: number) => ({ desiredReplicas: desired, replicas: desired, readyReplicas: available, availableReplicas: available, upToDateReplicas: desired });

describe('workersAvailableCondition', () => {
  it.each<[string, ReturnType<typeof counters> | undefined, string]>([
    ['no workers', undefined, 'True'],
    ['all available', counters(2, 2), 'True'],
    ['one missing', counters(2, 1), 'False'],
  ])('%s → %s', (_name, workers, status) => {
    expect(workersAvailableCondition(workers).status).toBe(status);
  });
});

const ok = (type: string): ConditionInput => ({ type, status: 'True', reason: 'x' });

describe('clusterSummaryConditions', () => {
  it.each<[string, ConditionInput[], string, string | undefined]>([
    ['everything ready', [ok('InfrastructureReady'), ok('ControlPlaneInitialized'), ok('ControlPlaneAvailable')], 'True', undefined],
    ['control plane not available', [ok('InfrastructureReady'), ok('ControlPlaneInitialized')], 'False', 'not yet: ControlPlaneAvailable'],
    ['nothing', [], 'False', 'not yet: InfrastructureReady, ControlPlaneInitialized, ControlPlaneAvailable'],
  ])('%s', (_name, conditions, status, message) => {
    const [, available, ready] = clusterSummaryConditions(conditions, counters(1, 1));
    expect(available).toMatchObject({ type: 'Available', status });
    expect(available?.message).toBe(message);
    expect(ready).toMatchObject({ type: 'Ready', status });
  });
});

function obj(kind: string, name: string, extra: { labels?: Record<string, string>; owner?: string; replicas?: number; available?: boolean; deleting?: boolean } = {}): StoredObject {
  return {
    apiVersion: kind === 'InMemoryCluster' ? 'infrastructure.cluster.x-k8s.io/v1beta2' : 'cluster.x-k8s.io/v1beta2',
    kind,
    metadata: {
      name,
      namespace: 'default',
      uid: name,
      resourceVersion: '1',
      generation: 1,
      creationTimestamp: '2026-01-01T00:00:00Z',
      ...(extra.labels ? { labels: extra.labels } : {}),
      ...(extra.owner ? { ownerReferences: [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: extra.owner, name: 'o', uid: 'o' }] } : {}),
      ...(extra.deleting ? { deletionTimestamp: '2026-01-01T00:00:01Z' } : {}),
    },
    spec: extra.replicas === undefined ? {} : { replicas: extra.replicas },
    status: extra.available ? { conditions: [{ type: 'Available', status: 'True', reason: 'x', lastTransitionTime: 'x' }] } : {},
  };
}

const cp = { 'cluster.x-k8s.io/control-plane': '' };

describe('workerCounters / controlPlaneMachineCounters', () => {
  it.each<[string, StoredObject[], { desiredReplicas: number; replicas: number; availableReplicas: number }]>([
    ['MachineDeployment wants 3, 2 exist, 1 available', [obj('MachineDeployment', 'md', { replicas: 3 }), obj('Machine', 'a', { owner: 'MachineSet', available: true }), obj('Machine', 'b', { owner: 'MachineSet' })], { desiredReplicas: 3, replicas: 2, availableReplicas: 1 }],
    ['MachineSet owned by a MachineDeployment is not counted twice', [obj('MachineDeployment', 'md', { replicas: 2 }), obj('MachineSet', 'ms', { replicas: 2, owner: 'MachineDeployment' })], { desiredReplicas: 2, replicas: 0, availableReplicas: 0 }],
    ['standalone worker counts itself', [obj('Machine', 'w', { available: true })], { desiredReplicas: 1, replicas: 1, availableReplicas: 1 }],
    ['control-plane and deleting Machines are not workers', [obj('Machine', 'c', { labels: cp }), obj('Machine', 'd', { deleting: true })], { desiredReplicas: 0, replicas: 0, availableReplicas: 0 }],
  ])('workers: %s', (_name, descendants, expected) => {
    expect(workerCounters(descendants)).toMatchObject(expected);
  });

  it('control plane Machines count from their label', () => {
    expect(controlPlaneMachineCounters([obj('Machine', 'c', { labels: cp, available: true }), obj('Machine', 'w')])).toMatchObject({
      desiredReplicas: 1,
      replicas: 1,
      availableReplicas: 1,
    });
  });
});

describe('descendantsToDelete', () => {
  const all = [
    obj('MachineDeployment', 'md'),
    obj('MachineSet', 'ms'),
    obj('Machine', 'worker'),
    obj('Machine', 'cp', { labels: cp }),
    obj('Cluster', 'c1'),
    obj('InMemoryCluster', 'c1'),
  ];
  it.each<[string, boolean, string[]]>([
    ['with a control-plane object: workers only', true, ['md', 'ms', 'worker']],
    ['without: control-plane Machines too', false, ['md', 'ms', 'worker', 'cp']],
  ])('%s', (_name, hasControlPlane, expected) => {
    expect(descendantsToDelete(all, hasControlPlane).map((o) => o.metadata.name)).toEqual(expected);
  });
});
