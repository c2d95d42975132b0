/** Manifests for core scenarios: a Cluster on in-memory infrastructure, standalone Machines, a MachineDeployment. */

import type { KubeObject } from '../../shared/contracts/object.js';
import { FAKE_BOOTSTRAP_GROUP } from './fake-bootstrap-provider.js';

const CORE = 'cluster.x-k8s.io/v1beta2';
const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta2';
const INFRA_GROUP = 'infrastructure.cluster.x-k8s.io';
export const NS = 'default';

export function clusterObject(name: string, infraKind = 'InMemoryCluster'): KubeObject {
  return {
    apiVersion: CORE,
    kind: 'Cluster',
    metadata: { name, namespace: NS },
    spec: { infrastructureRef: { apiGroup: INFRA_GROUP, kind: infraKind, name } },
  };
}

export function infraClusterObject(name: string, kind = 'InMemoryCluster'): KubeObject {
  return { apiVersion: INFRA, kind, metadata: { name, namespace: NS }, spec: {} };
}

export function bootstrapSecret(name: string, cluster: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'cluster.x-k8s.io/secret',
    metadata: { name, namespace: NS, labels: { 'cluster.x-k8s.io/cluster-name': cluster } },
    data: { value: Buffer.from('#!/bin/sh\n').toString('base64') },
  };
}

/** A standalone control-plane Machine with a pre-made bootstrap Secret, and its InMemoryMachine. */
export function standaloneMachine(name: string, cluster: string, secret: string, startupSeconds = 2): KubeObject[] {
  return [
    {
      apiVersion: INFRA,
      kind: 'InMemoryMachine',
      metadata: { name, namespace: NS },
      spec: { startupSeconds },
    },
    {
      apiVersion: CORE,
      kind: 'Machine',
      metadata: { name, namespace: NS, labels: { 'cluster.x-k8s.io/control-plane': '' } },
      spec: {
        clusterName: cluster,
        version: 'v1.31.0',
        bootstrap: { dataSecretName: secret },
        infrastructureRef: { apiGroup: INFRA_GROUP, kind: 'InMemoryMachine', name },
      },
    },
  ];
}

export function workerTemplates(name: string): KubeObject[] {
  return [
    {
      apiVersion: INFRA,
      kind: 'InMemoryMachineTemplate',
      metadata: { name, namespace: NS },
      spec: { template: { spec: { startupSeconds: 2 } } },
    },
    {
      apiVersion: `${FAKE_BOOTSTRAP_GROUP}/v1beta2`,
      kind: 'FakeBootstrapConfigTemplate',
      metadata: { name, namespace: NS },
      spec: { template: { spec: { users: [] } } },
    },
  ];
}

export function machineDeploymentObject(name: string, cluster: string, replicas: number, version = 'v1.31.0'): KubeObject {
  const identity = { 'cluster.x-k8s.io/cluster-name': cluster, 'cluster.x-k8s.io/deployment-name': name };
  return {
    apiVersion: CORE,
    kind: 'MachineDeployment',
    metadata: { name, namespace: NS },
    spec: {
      clusterName: cluster,
      replicas,
      selector: { matchLabels: identity },
      rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } },
      template: {
        metadata: { labels: identity },
        spec: {
          clusterName: cluster,
          version,
          bootstrap: { configRef: { apiGroup: FAKE_BOOTSTRAP_GROUP, kind: 'FakeBootstrapConfigTemplate', name } },
          infrastructureRef: { apiGroup: INFRA_GROUP, kind: 'InMemoryMachineTemplate', name },
        },
      },
    },
  };
}
