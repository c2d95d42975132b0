import { describe, expect, it } from 'vitest';
import { clusterReadiness } from '../../../../functions/reconcile/kubeadm/common/cluster-readiness.js';
import { decideRole, isJoinOnly } from '../../../../functions/reconcile/kubeadm/bootstrap/role.js';

const meta = { name: 'c1' };

describe('decideRole', () => {
  it.each([
    { cp: true, initialized: false, joinOnly: false, expected: { kind: 'contendForInit' } },
    { cp: true, initialized: false, joinOnly: true, expected: { kind: 'wait' } },
    { cp: false, initialized: false, joinOnly: false, expected: { kind: 'wait' } },
    { cp: true, initialized: true, joinOnly: false, expected: { kind: 'render', role: 'controlPlaneJoin' } },
    { cp: true, initialized: true, joinOnly: true, expected: { kind: 'render', role: 'controlPlaneJoin' } },
    { cp: false, initialized: true, joinOnly: false, expected: { kind: 'render', role: 'worker' } },
  ])('control plane $cp, initialized $initialized, joinOnly $joinOnly → $expected.kind', ({ cp, initialized, joinOnly, expected }) => {
    const decision = decideRole({ controlPlaneMachine: cp, controlPlaneInitialized: initialized, joinOnly });
    expect(decision).toMatchObject(expected);
  });
});

describe('isJoinOnly', () => {
  it.each([
    { spec: {}, expected: false },
    { spec: { joinConfiguration: { controlPlane: {} } }, expected: true },
    { spec: { joinConfiguration: { controlPlane: {} }, initConfiguration: { a: 1 } }, expected: false },
    { spec: { joinConfiguration: { x: 1 }, clusterConfiguration: { a: 1 } }, expected: false },
    { spec: { joinConfiguration: { controlPlane: {} }, clusterConfiguration: { etcd: { external: {} } } }, expected: true },
    { spec: { initConfiguration: {} }, expected: false },
  ])('$spec → $expected', ({ spec, expected }) => {
    expect(isJoinOnly({ apiVersion: 'v', kind: 'KubeadmConfig', metadata: meta, spec })).toBe(expected);
  });
});

describe('clusterReadiness', () => {
  it.each([
    { spec: {}, status: {}, expected: { ready: false, reason: 'WaitingForInfrastructure' } },
    { spec: {}, status: { initialization: { infrastructureProvisioned: true } }, expected: { ready: false, reason: 'WaitingForControlPlaneEndpoint' } },
    {
      spec: { controlPlaneEndpoint: { host: '10.0.0.1', port: 6443 } },
      status: { initialization: { infrastructureProvisioned: true } },
      expected: { ready: true, endpoint: { host: '10.0.0.1', port: 6443 } },
    },
    {
      spec: { controlPlaneEndpoint: { host: '10.0.0.1', port: 6443 } },
      status: { initialization: { infrastructureProvisioned: false } },
      expected: { ready: false, reason: 'WaitingForInfrastructure' },
    },
  ])('$expected.reason', ({ spec, status, expected }) => {
    expect(clusterReadiness({ apiVersion: 'v', kind: 'Cluster', metadata: meta, spec, status })).toMatchObject(expected);
  });
});
