import { describe, expect, it } from 'vitest';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { type PreflightInput, preflightFailures } from '../../../../functions/reconcile/core/machineset/preflight-checks.js';

const T = '2026-01-01T00:00:00Z';

function stored(kind: string, name: string, spec: Record<string, unknown>, extra: { status?: Record<string, unknown>; annotations?: Record<string, string> } = {}): StoredObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind,
    metadata: { name, namespace: 'ns', uid: `${name}-uid`, resourceVersion: '1', generation: 1, creationTimestamp: T, ...(extra.annotations ? { annotations: extra.annotations } : {}) },
    spec,
    ...(extra.status ? { status: extra.status } : {}),
  };
}

const cluster = (topologyVersion?: string, annotations?: Record<string, string>) =>
  stored('Cluster', 'c1', topologyVersion ? { topology: { version: topologyVersion, classRef: { name: 'quick-start' } } } : {}, annotations ? { annotations } : {});
const controlPlane = (version: string | undefined, status?: Record<string, unknown>) => stored('KubeadmControlPlane', 'cp', version ? { version } : {}, status ? { status } : {});
const machineSet = (version: string | undefined, bootstrapKind = 'KubeadmConfigTemplate', annotations?: Record<string, string>) =>
  stored(
    'MachineSet',
    'md-abc',
    { template: { spec: { ...(version ? { version } : {}), bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: bootstrapKind, name: 't' } } } } },
    annotations ? { annotations } : {},
  );

const stable = controlPlane('v1.31.2', { version: 'v1.31.2' });
const input = (cp: StoredObject | undefined, ms: StoredObject, c = cluster(), skip?: string): PreflightInput => ({
  cluster: c,
  machineSet: ms,
  ...(cp ? { controlPlane: { object: cp, contractVersion: 'v1beta2' as const } } : {}),
  ...(skip ? { skip } : {}),
});

describe('MachineSet preflight checks (Cluster API machineset_preflight.go)', () => {
  it.for([
    ['no control plane: nothing to check', input(undefined, machineSet('v1.40.0')), []],
    ['a control plane without spec.version: nothing to check', input(controlPlane(undefined), machineSet('v1.31.0')), []],
    ['stable, same minor: go ahead', input(stable, machineSet('v1.31.0')), []],
    ['no version on the MachineSet: only the control plane is checked', input(stable, machineSet(undefined)), []],
    ['provisioning (no status version)', input(controlPlane('v1.31.2'), machineSet('v1.31.2')), ['KubeadmControlPlane ns/cp is provisioning ("ControlPlaneIsStable" preflight check failed)']],
    ['upgrading (status.version behind spec)', input(controlPlane('v1.32.0', { version: 'v1.31.2' }), machineSet('v1.32.0')), ['KubeadmControlPlane ns/cp is upgrading ("ControlPlaneIsStable" preflight check failed)']],
    [
      'upgrading by status.versions (one entry behind)',
      input(controlPlane('v1.32.0', { versions: [{ version: 'v1.31.2', replicas: 1 }, { version: 'v1.32.0', replicas: 2 }] }), machineSet('v1.32.0')),
      ['KubeadmControlPlane ns/cp is upgrading ("ControlPlaneIsStable" preflight check failed)'],
    ],
    [
      'a topology version the control plane has not reached yet',
      input(stable, machineSet('v1.31.2'), cluster('v1.32.0')),
      ['KubeadmControlPlane ns/cp has a pending version upgrade to v1.32.0 ("ControlPlaneIsStable" preflight check failed)'],
    ],
    ['a topology upgrade step the control plane is at: stable', input(stable, machineSet('v1.31.2'), cluster('v1.33.0', { 'topology.internal.cluster.x-k8s.io/upgrade-step': 'v1.31.2' })), []],
    [
      'a MachineSet newer than its control plane',
      input(stable, machineSet('v1.32.0', 'GenericTemplate')),
      ['MachineSet version (1.32.0) and ControlPlane version (1.31.2) do not conform to the kubernetes version skew policy as MachineSet version is higher than ControlPlane version ("KubernetesVersionSkew" preflight check failed)'],
    ],
    [
      'a MachineSet more than three minors older',
      input(stable, machineSet('v1.27.9', 'GenericTemplate')),
      ['MachineSet version (1.27.9) and ControlPlane version (1.31.2) do not conform to the kubernetes version skew policy as MachineSet version is more than 3 minor versions older than the ControlPlane version ("KubernetesVersionSkew" preflight check failed)'],
    ],
    ['three minors older without kubeadm: fine', input(stable, machineSet('v1.28.0', 'GenericTemplate')), []],
    [
      'kubeadm joins only the same minor',
      input(stable, machineSet('v1.30.4')),
      ['MachineSet version (1.30.4) and ControlPlane version (1.31.2) do not conform to kubeadm version skew policy as kubeadm only supports joining with the same major+minor version as the control plane ("KubeadmVersionSkew" preflight check failed)'],
    ],
    [
      'a topology MachineSet not yet at the control plane version',
      input(stable, machineSet('v1.31.0'), cluster('v1.31.2')),
      ['MachineSet version (v1.31.0) is not yet the same as the ControlPlane version (v1.31.2), waiting for version to be propagated to the MachineSet ("ControlPlaneVersionSkew" preflight check failed)'],
    ],
    ['skipped by name (spaces allowed)', input(controlPlane('v1.31.2'), machineSet('v1.30.0'), cluster(), 'KubeadmVersionSkew, ControlPlaneIsStable'), []],
    ['skipped: All', input(controlPlane('v1.32.0', { version: 'v1.31.0' }), machineSet('v1.40.0'), cluster(), 'All'), []],
    [
      'a version that is not semver',
      input(controlPlane('latest', { version: 'v1.31.0' }), machineSet('v1.31.0')),
      ['failed to perform preflight checks: failed to parse version "latest" of ControlPlane ns/cp'],
    ],
  ] as const)('%s', ([, given, expected]) => {
    expect(preflightFailures(given)).toEqual(expected);
  });

  it('every failing check says so, in Cluster API’s order', () => {
    expect(preflightFailures(input(controlPlane('v1.31.2'), machineSet('v1.33.0'))).map((m) => /"(\w+)" preflight/.exec(m)?.[1])).toEqual([
      'ControlPlaneIsStable',
      'KubernetesVersionSkew',
      'KubeadmVersionSkew',
    ]);
  });
});
