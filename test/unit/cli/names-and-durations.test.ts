import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../cli/client/duration.js';
import { type ResourceType, matchResourceName, qualifiedName, resourcePath } from '../../../cli/client/resource-types.js';
import { humanDuration } from '../../../shared/contracts/printing/age.js';

const type = (group: string, kind: string, plural: string, shortNames: string[] = [], namespaced = true): ResourceType => ({
  group, version: group ? 'v1beta2' : 'v1', kind, plural, singular: kind.toLowerCase(), namespaced, shortNames,
});
const TYPES = [
  type('', 'Secret', 'secrets'),
  type('cluster.x-k8s.io', 'Cluster', 'clusters', ['cl']),
  type('cluster.x-k8s.io', 'Machine', 'machines', ['ma']),
  type('cluster.x-k8s.io', 'MachineSet', 'machinesets', ['ms']),
  type('cluster.x-k8s.io', 'MachineDeployment', 'machinedeployments', ['md']),
  type('controlplane.cluster.x-k8s.io', 'KubeadmControlPlane', 'kubeadmcontrolplanes', ['kcp']),
  type('infrastructure.cluster.x-k8s.io', 'DockerCluster', 'dockerclusters'),
];

describe('matchResourceName', () => {
  it.each([
    ['cluster', 'Cluster'],
    ['clusters', 'Cluster'],
    ['Cluster', 'Cluster'],
    ['cl', 'Cluster'],
    ['clusters.cluster.x-k8s.io', 'Cluster'],
    ['cluster.cluster.x-k8s.io', 'Cluster'],
    ['kcp', 'KubeadmControlPlane'],
    ['kubeadmcontrolplane', 'KubeadmControlPlane'],
    ['KubeadmControlPlane.controlplane.cluster.x-k8s.io', 'KubeadmControlPlane'],
    ['md', 'MachineDeployment'],
    ['machine', 'Machine'],
    ['ms', 'MachineSet'],
    ['secret', 'Secret'],
    ['dockercluster', 'DockerCluster'],
  ])('%s → %s', (typed, kind) => {
    expect(matchResourceName(TYPES, typed)?.kind).toBe(kind);
  });

  it.each(['widgets', 'clusters.example.com', 'kcp.cluster.x-k8s.io', ''])('%s matches nothing', (typed) => {
    expect(matchResourceName(TYPES, typed)).toBeUndefined();
  });
});

describe('resourcePath and qualifiedName', () => {
  it.each([
    [TYPES[1], 'default', 'a', '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters/a', 'cluster.cluster.x-k8s.io'],
    [TYPES[1], undefined, undefined, '/apis/cluster.x-k8s.io/v1beta2/clusters', 'cluster.cluster.x-k8s.io'],
    [TYPES[0], 'ns', 'k', '/api/v1/namespaces/ns/secrets/k', 'secret'],
  ] as const)('%#', (t, namespace, name, path, qualified) => {
    if (!t) throw new Error('fixture');
    expect(resourcePath(t, namespace, name)).toBe(path);
    expect(qualifiedName(t)).toBe(qualified);
  });
});

describe('parseDuration', () => {
  it.each([
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['90', 90_000],
    ['1.5s', 1_500],
  ])('%s = %i ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', '5 m', 'five', '5d', '-1s', '1h 2m'])('%j is refused', (text) => expect(() => parseDuration(text)).toThrow(/invalid duration/));
});

describe('humanDuration', () => {
  it.each([
    [0, '0s'],
    [45_000, '45s'],
    [119_000, '119s'],
    [200_000, '3m20s'],
    [300_000, '5m'],
    [12 * 60_000, '12m'],
    [5 * 3_600_000, '5h'],
    [5 * 3_600_000 + 60_000 * 7, '5h7m'],
    [30 * 3_600_000, '30h'],
    [3 * 86_400_000 + 4 * 3_600_000, '3d4h'],
    [40 * 86_400_000, '40d'],
    [800 * 86_400_000, '2y'],
    [-5_000, '0s'],
  ])('%i ms → %s', (ms, text) => expect(humanDuration(ms)).toBe(text));
});
