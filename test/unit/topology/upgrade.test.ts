import { describe, expect, it } from 'vitest';
import { decideUpgrade, type UpgradeInput } from '../../../functions/reconcile/topology/cluster/upgrade.js';
import type { StoredObject } from '../../../shared/contracts/object.js';

const meta = (name: string, labels: Record<string, string> = {}, annotations: Record<string, string> = {}) => ({
  name,
  namespace: 'ns',
  uid: name,
  resourceVersion: '1',
  generation: 1,
  creationTimestamp: '2026-01-01T00:00:00Z',
  labels: { 'cluster.x-k8s.io/cluster-name': 'c1', ...labels },
  annotations,
});

function kcp(spec: string, status: string | undefined): StoredObject {
  return { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlane', metadata: meta('cp'), spec: { version: spec, replicas: 3 }, status: status ? { version: status } : {} };
}
function cpMachine(name: string, version: string): StoredObject {
  return { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Machine', metadata: meta(name, { 'cluster.x-k8s.io/control-plane': '' }), spec: { version } };
}
function worker(name: string, md: string, version: string): StoredObject {
  return { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Machine', metadata: meta(name, { 'cluster.x-k8s.io/deployment-name': md }), spec: { version } };
}
function md(name: string, version: string): StoredObject {
  return { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata: meta(name), spec: { template: { spec: { version } } } };
}

const OLD = 'v1.33.0';
const NEW = 'v1.34.0';
const cpAt = (v: string) => [cpMachine('m1', v), cpMachine('m2', v), cpMachine('m3', v)];

function input(overrides: Partial<UpgradeInput>): UpgradeInput {
  return {
    topologyVersion: NEW,
    clusterAnnotations: {},
    controlPlane: kcp(OLD, OLD),
    machines: cpAt(OLD),
    machineDeployments: [
      { topologyName: 'md-0', annotations: {}, current: md('c1-md-0', OLD) },
      { topologyName: 'md-1', annotations: {}, current: md('c1-md-1', OLD) },
    ],
    beforeUpgradeBlocked: false,
    workerHooksBlocked: false,
    ...overrides,
  };
}

describe('sequenced upgrades', () => {
  it.each<[string, Partial<UpgradeInput>, Record<string, unknown>]>([
    ['a version change starts with the control plane; workers wait', {}, { controlPlaneVersion: NEW, controlPlaneStartingUpgrade: true, pendingUpgrade: ['md-0', 'md-1'] }],
    ['BeforeClusterUpgrade blocking keeps the old version', { beforeUpgradeBlocked: true }, { controlPlaneVersion: OLD, controlPlanePendingUpgrade: true, controlPlaneStartingUpgrade: false }],
    ['while control-plane machines still run the old version, workers wait', { controlPlane: kcp(NEW, OLD), machines: [cpMachine('m1', NEW), cpMachine('m2', OLD), cpMachine('m3', OLD)] }, { controlPlaneVersion: NEW, controlPlaneUpgrading: true, controlPlaneStable: false, pendingUpgrade: ['md-0', 'md-1'] }],
    ['once every control-plane machine runs it, one MachineDeployment at a time (concurrency 1)', { controlPlane: kcp(NEW, NEW), machines: cpAt(NEW) }, { controlPlaneStable: true, upgrading: ['md-0'], pendingUpgrade: ['md-1'] }],
    ['upgrade-concurrency 2 moves both', { controlPlane: kcp(NEW, NEW), machines: cpAt(NEW), clusterAnnotations: { 'topology.cluster.x-k8s.io/upgrade-concurrency': '2' } }, { upgrading: ['md-0', 'md-1'], pendingUpgrade: [] }],
    ['AfterControlPlaneUpgrade blocking holds the workers', { controlPlane: kcp(NEW, NEW), machines: cpAt(NEW), workerHooksBlocked: true }, { upgrading: [], pendingUpgrade: ['md-0', 'md-1'] }],
    ['an MD still rolling counts against the concurrency', { controlPlane: kcp(NEW, NEW), machines: [...cpAt(NEW), worker('w1', 'c1-md-0', OLD)], machineDeployments: [{ topologyName: 'md-0', annotations: {}, current: md('c1-md-0', NEW) }, { topologyName: 'md-1', annotations: {}, current: md('c1-md-1', OLD) }] }, { upgrading: ['md-0'], pendingUpgrade: ['md-1'] }],
    ['defer-upgrade skips that MachineDeployment', { controlPlane: kcp(NEW, NEW), machines: cpAt(NEW), machineDeployments: [{ topologyName: 'md-0', annotations: { 'topology.cluster.x-k8s.io/defer-upgrade': '' }, current: md('c1-md-0', OLD) }, { topologyName: 'md-1', annotations: {}, current: md('c1-md-1', OLD) }] }, { deferred: ['md-0'], upgrading: ['md-1'] }],
    ['hold-upgrade-sequence holds it and every later one', { controlPlane: kcp(NEW, NEW), machines: cpAt(NEW), machineDeployments: [{ topologyName: 'md-0', annotations: { 'topology.cluster.x-k8s.io/hold-upgrade-sequence': '' }, current: md('c1-md-0', OLD) }, { topologyName: 'md-1', annotations: {}, current: md('c1-md-1', OLD) }] }, { deferred: ['md-0', 'md-1'], upgrading: [] }],
    ['a new MachineDeployment waits while the control plane upgrades', { controlPlane: kcp(NEW, OLD), machines: [cpMachine('m1', NEW), cpMachine('m2', OLD)], machineDeployments: [{ topologyName: 'md-2', annotations: {} }] }, { pendingCreate: ['md-2'] }],
    ['a new MachineDeployment is created during first provisioning', { topologyVersion: OLD, controlPlane: kcp(OLD, undefined), machines: [], machineDeployments: [{ topologyName: 'md-0', annotations: {} }] }, { pendingCreate: [], controlPlaneUpgrading: false }],
    ['a moving MachineDeployment holds the next control-plane upgrade', { machines: [...cpAt(OLD), worker('w1', 'c1-md-0', 'v1.32.0')] }, { controlPlaneVersion: OLD, controlPlanePendingUpgrade: true }],
  ])('%s', (_name, overrides, expected) => {
    expect(decideUpgrade(input(overrides))).toMatchObject(expected);
  });

  it('a MachineDeployment never takes a version ahead of the control plane', () => {
    const decision = decideUpgrade(input({}));
    expect([...decision.machineDeploymentVersions.values()]).toEqual([OLD, OLD]);
  });
});
