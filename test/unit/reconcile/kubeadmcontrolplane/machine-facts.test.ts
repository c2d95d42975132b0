import { describe, expect, it } from 'vitest';
import { readKcpSpec } from '../../../../functions/reconcile/kubeadm/controlplane/kcp-spec.js';
import {
  ANNOTATION_CONFIG_SPEC_HASH,
  canonicalJson,
  configSpecHash,
  outdatedReasons,
} from '../../../../functions/reconcile/kubeadm/controlplane/machine-facts.js';

const kcp = {
  apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
  kind: 'KubeadmControlPlane',
  metadata: { name: 'cp' },
  spec: {
    replicas: 3,
    version: 'v1.31.0',
    machineTemplate: { spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachineTemplate', name: 'tpl-a' } } },
    kubeadmConfigSpec: { clusterConfiguration: { apiServer: {} } },
    rollout: { after: '2026-06-01T00:00:00Z' },
  },
};
const spec = readKcpSpec(kcp);
const specHash = configSpecHash(spec.kubeadmConfigSpec);
const goodInfra = {
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
  kind: 'InMemoryMachine',
  metadata: {
    name: 'm',
    annotations: {
      'cluster.x-k8s.io/cloned-from-name': 'tpl-a',
      'cluster.x-k8s.io/cloned-from-groupkind': 'InMemoryMachineTemplate.infrastructure.cluster.x-k8s.io',
    },
  },
};

function machine(version: string, hash: string, created = '2026-07-01T00:00:00Z') {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: { name: 'm', creationTimestamp: created, annotations: { [ANNOTATION_CONFIG_SPEC_HASH]: hash } },
    spec: { version },
  };
}

describe('outdatedReasons', () => {
  const now = new Date('2026-08-01T00:00:00Z');
  it.each([
    { name: 'up to date', m: machine('v1.31.0', specHash), infra: goodInfra, count: 0 },
    { name: 'version differs', m: machine('v1.30.0', specHash), infra: goodInfra, count: 1 },
    { name: 'config spec differs', m: machine('v1.31.0', 'other'), infra: goodInfra, count: 1 },
    { name: 'template differs', m: machine('v1.31.0', specHash), infra: { ...goodInfra, metadata: { name: 'm', annotations: {} } }, count: 1 },
    { name: 'created before rollout.after', m: machine('v1.31.0', specHash, '2026-05-01T00:00:00Z'), infra: goodInfra, count: 1 },
  ])('$name', ({ m, infra, count }) => {
    expect(outdatedReasons(m, { spec, specHash, infraMachine: infra, now })).toHaveLength(count);
  });
});

describe('outdatedReasons: rollout.before.certificatesExpiryDays (ShouldRolloutBefore)', () => {
  const now = new Date('2026-08-01T00:00:00Z');
  const withDays = readKcpSpec({ ...kcp, spec: { ...kcp.spec, rollout: { before: { certificatesExpiryDays: 21 } } } });
  const expiring = (date?: string) => ({ ...machine('v1.31.0', specHash), status: date ? { certificatesExpiryDate: date } : {} });
  it.for([
    ['expires within 21 days', withDays, '2026-08-15T00:00:00Z', ['Certificates will expire soon']],
    ['expires in 30 days', withDays, '2026-08-31T00:00:00Z', []],
    ['already expired', withDays, '2026-07-01T00:00:00Z', ['Certificates will expire soon']],
    ['no expiry known', withDays, undefined, []],
    ['no certificatesExpiryDays', spec, '2026-08-02T00:00:00Z', []],
  ] as const)('%s', ([, kcpSpec, date, reasons], context) => {
    context.expect(outdatedReasons(expiring(date), { spec: kcpSpec, specHash, infraMachine: goodInfra, now })).toEqual(reasons);
  });
});

describe('canonicalJson', () => {
  it.each([
    { a: { b: 1, a: [1, { y: 2, x: 1 }] }, b: { a: [1, { x: 1, y: 2 }], b: 1 }, equal: true },
    { a: { a: 1 }, b: { a: 2 }, equal: false },
    { a: { a: 1, c: undefined }, b: { a: 1 }, equal: true },
  ])('$a vs $b', ({ a, b, equal }) => {
    expect(canonicalJson(a) === canonicalJson(b)).toBe(equal);
  });
});

describe('readKcpSpec', () => {
  it.each([
    { name: 'defaults', spec: {}, expected: { replicas: 1, maxSurge: 1 } },
    { name: 'maxSurge 0', spec: { rollout: { strategy: { rollingUpdate: { maxSurge: 0 } } } }, expected: { maxSurge: 0 } },
    { name: 'replicas', spec: { replicas: 5 }, expected: { replicas: 5 } },
  ])('$name', ({ spec: s, expected }) => {
    expect(readKcpSpec({ ...kcp, spec: s })).toMatchObject(expected);
  });
});
