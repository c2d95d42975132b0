import { describe, expect, it } from 'vitest';
import { admitCreate } from '../../shared/contracts/admission/admit.js';
import { durationToSeconds } from '../../shared/contracts/conversion/durations.js';
import { valueAt } from '../../shared/contracts/json.js';
import { ctx } from './admission-fixtures.js';

const objRef = (apiVersion: string, kind: string, name: string) => ({ apiVersion, kind, name, namespace: 'default', uid: 'u-1' });

const v1beta1Machine = {
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'Machine',
  metadata: { name: 'm1', namespace: 'default' },
  spec: {
    clusterName: 'c1',
    version: 'v1.30.1',
    bootstrap: { configRef: objRef('bootstrap.cluster.x-k8s.io/v1beta1', 'KubeadmConfig', 'm1') },
    infrastructureRef: objRef('infrastructure.cluster.x-k8s.io/v1beta1', 'InMemoryMachine', 'm1'),
    nodeDrainTimeout: '5m',
    nodeDeletionTimeout: '10s',
  },
};

const v1beta1Deployment = {
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'MachineDeployment',
  metadata: { name: 'md1', namespace: 'default' },
  spec: {
    clusterName: 'c1',
    selector: { matchLabels: { pool: 'a' } },
    minReadySeconds: 5,
    revisionHistoryLimit: 1,
    rolloutAfter: '2026-01-01T00:00:00Z',
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 2, maxUnavailable: 1, deletePolicy: 'Oldest' } },
    template: {
      metadata: { labels: { pool: 'a' } },
      spec: {
        clusterName: 'c1',
        bootstrap: { configRef: objRef('bootstrap.cluster.x-k8s.io/v1beta1', 'KubeadmConfigTemplate', 'w') },
        infrastructureRef: objRef('infrastructure.cluster.x-k8s.io/v1beta1', 'InMemoryMachineTemplate', 'w'),
      },
    },
  },
};

const v1beta1ControlPlane = {
  apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
  kind: 'KubeadmControlPlane',
  metadata: { name: 'cp', namespace: 'default' },
  spec: {
    replicas: 3,
    version: 'v1.30.1',
    machineTemplate: {
      infrastructureRef: objRef('infrastructure.cluster.x-k8s.io/v1beta1', 'InMemoryMachineTemplate', 'cp'),
      nodeDrainTimeout: '1h30m',
    },
    rolloutStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0 } },
    remediationStrategy: { maxRetry: 3, retryPeriod: '2m' },
    kubeadmConfigSpec: {
      useExperimentalRetryJoin: true,
      initConfiguration: { nodeRegistration: { kubeletExtraArgs: { 'eviction-hard': 'x<0%' } } },
    },
  },
};

const v1beta1Cluster = {
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'Cluster',
  metadata: { name: 'c1', namespace: 'default' },
  spec: {
    infrastructureRef: objRef('infrastructure.cluster.x-k8s.io/v1beta1', 'InMemoryCluster', 'c1'),
    topology: { class: 'quick-start', classNamespace: 'default', version: '1.30.1' },
  },
};

describe('v1beta1 → v1beta2 conversion on admission', () => {
  it.each([
    ['Machine apiVersion', v1beta1Machine, 'apiVersion', 'cluster.x-k8s.io/v1beta2'],
    ['Machine configRef', v1beta1Machine, 'spec.bootstrap.configRef', { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfig', name: 'm1' }],
    ['Machine drain timeout', v1beta1Machine, 'spec.deletion', { nodeDrainTimeoutSeconds: 300, nodeDeletionTimeoutSeconds: 10 }],
    ['MD strategy', v1beta1Deployment, 'spec.rollout', { after: '2026-01-01T00:00:00Z', strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 2, maxUnavailable: 1 } } }],
    ['MD deletePolicy', v1beta1Deployment, 'spec.deletion.order', 'Oldest'],
    ['MD minReadySeconds', v1beta1Deployment, 'spec.template.spec.minReadySeconds', 5],
    ['MD revisionHistoryLimit dropped', v1beta1Deployment, 'spec.revisionHistoryLimit', undefined],
    [
      'MD template infrastructureRef',
      v1beta1Deployment,
      'spec.template.spec.infrastructureRef',
      { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachineTemplate', name: 'w' },
    ],
    [
      'KCP machineTemplate.infrastructureRef → machineTemplate.spec',
      v1beta1ControlPlane,
      'spec.machineTemplate.spec.infrastructureRef',
      { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachineTemplate', name: 'cp' },
    ],
    ['KCP drain timeout', v1beta1ControlPlane, 'spec.machineTemplate.spec.deletion.nodeDrainTimeoutSeconds', 5400],
    ['KCP rolloutStrategy', v1beta1ControlPlane, 'spec.rollout.strategy', { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0 } }],
    ['KCP remediationStrategy', v1beta1ControlPlane, 'spec.remediation', { maxRetry: 3, retryPeriodSeconds: 120 }],
    ['KCP useExperimentalRetryJoin dropped', v1beta1ControlPlane, 'spec.kubeadmConfigSpec.useExperimentalRetryJoin', undefined],
    [
      'KCP kubeletExtraArgs map → list',
      v1beta1ControlPlane,
      'spec.kubeadmConfigSpec.initConfiguration.nodeRegistration.kubeletExtraArgs',
      [{ name: 'eviction-hard', value: 'x<0%' }],
    ],
    ['Cluster topology classRef', v1beta1Cluster, 'spec.topology.classRef', { name: 'quick-start', namespace: 'default' }],
    ['Cluster topology version defaulted', v1beta1Cluster, 'spec.topology.version', 'v1.30.1'],
  ])('%s', (_name, obj, field, expected) => {
    expect(valueAt(admitCreate(obj, ctx), ...field.split('.'))).toEqual(expected);
  });

  it('leaves the input untouched', () => {
    const input = structuredClone(v1beta1ControlPlane);
    admitCreate(input, ctx);
    expect(input).toEqual(v1beta1ControlPlane);
  });
});

describe('durationToSeconds', () => {
  it.each([
    ['10s', 10],
    ['5m', 300],
    ['1h30m', 5400],
    ['1.5s', 1],
    ['0', 0],
    ['500ms', 0],
    ['soon', 'soon'],
    [42, 42],
  ])('%s → %s', (input, expected) => {
    expect(durationToSeconds(input)).toBe(expected);
  });
});
