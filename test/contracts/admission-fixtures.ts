/** Valid objects for admission tests, built fresh for each case. */

import type { AdmissionContext } from '../../shared/contracts/admission/admit.js';
import { isRecord } from '../../shared/contracts/json.js';
import { defaultKinds } from '../../shared/contracts/kinds.js';

export const ctx: AdmissionContext = {
  kinds: defaultKinds,
  isServedKind: (group, kind) => defaultKinds.get(group, kind) !== undefined,
};

const infraRef = (kind: string, name: string) => ({ apiGroup: 'infrastructure.cluster.x-k8s.io', kind, name });
const bootstrapRef = (kind: string, name: string) => ({ apiGroup: 'bootstrap.cluster.x-k8s.io', kind, name });

export function cluster() {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: 'c1', namespace: 'default' },
    spec: {
      controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', name: 'cp' },
      infrastructureRef: infraRef('InMemoryCluster', 'c1'),
    },
  };
}

export function machine() {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: { name: 'm1', namespace: 'default' },
    spec: {
      clusterName: 'c1',
      version: 'v1.31.0',
      bootstrap: { configRef: bootstrapRef('KubeadmConfig', 'm1') },
      infrastructureRef: infraRef('InMemoryMachine', 'm1'),
    },
  };
}

function machineTemplate(labels: Record<string, string>) {
  return {
    metadata: { labels },
    spec: {
      clusterName: 'c1',
      version: 'v1.31.0',
      bootstrap: { configRef: bootstrapRef('KubeadmConfigTemplate', 'workers') },
      infrastructureRef: infraRef('InMemoryMachineTemplate', 'workers'),
    },
  };
}

export function machineSet() {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineSet',
    metadata: { name: 'ms1', namespace: 'default' },
    spec: { clusterName: 'c1', selector: {}, template: machineTemplate({}) },
  };
}

export function machineDeployment() {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineDeployment',
    metadata: { name: 'md1', namespace: 'default' },
    spec: {
      clusterName: 'c1',
      selector: { matchLabels: { pool: 'a' } },
      template: machineTemplate({ pool: 'a' }),
    },
  };
}

export function kubeadmControlPlane() {
  return {
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'cp', namespace: 'default' },
    spec: {
      version: 'v1.31.0',
      machineTemplate: { spec: { infrastructureRef: infraRef('InMemoryMachineTemplate', 'cp') } },
      kubeadmConfigSpec: {},
    },
  };
}

export function kubeadmConfig() {
  return {
    apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmConfig',
    metadata: { name: 'm1', namespace: 'default' },
    spec: { joinConfiguration: { nodeRegistration: { imagePullPolicy: 'IfNotPresent' } } },
  };
}

export function secret() {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 's1', namespace: 'default' },
    data: { a: 'eA==' },
    stringData: { b: 'hello' },
  };
}

export function inMemoryMachine() {
  return {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'InMemoryMachine',
    metadata: { name: 'm1', namespace: 'default' },
    spec: { startupSeconds: 0, failure: { mode: 'NeverReady' } },
  };
}

/** A MachineDrainRule with every part set: Machines and Pods selected by labels and expressions. */
export function machineDrainRule() {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineDrainRule',
    metadata: { name: 'mdr1', namespace: 'default' },
    spec: {
      drain: { behavior: 'Drain', order: 100 },
      machines: [
        { selector: { matchExpressions: [{ key: 'cluster.x-k8s.io/control-plane', operator: 'Exists' }] } },
        { selector: { matchLabels: { os: 'linux' } }, clusterSelector: { matchLabels: { stage: 'production' } } },
      ],
      pods: [{ selector: { matchLabels: { app: 'logging' } }, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
    },
  };
}

/** A copy of `obj` with `value` at a dotted path (parents created); `undefined` deletes. */
export function withValue<T extends object>(obj: T, path: string, value: unknown): T {
  const copy = structuredClone(obj);
  const segments = path.split('.');
  const last = segments.pop() ?? '';
  let current: unknown = copy;
  for (const segment of segments) {
    if (!isRecord(current)) throw new Error(`no object at ${segment} in ${path}`);
    current[segment] ??= {};
    current = current[segment];
  }
  if (!isRecord(current)) throw new Error(`no object at ${path}`);
  if (value === undefined) delete current[last];
  else current[last] = value;
  return copy;
}
