import { describe, expect, it } from 'vitest';
import { admitCreate } from '../../shared/contracts/admission/admit.js';
import { valueAt } from '../../shared/contracts/json.js';
import {
  ctx,
  kubeadmConfig,
  kubeadmControlPlane,
  machine,
  machineDeployment,
  machineSet,
  secret,
  withValue,
} from './admission-fixtures.js';

const path = (dotted: string) => dotted.split('.');

describe('admitCreate defaults', () => {
  it.each([
    ['MD replicas', machineDeployment(), 'spec.replicas', 1],
    ['MD rollout strategy', machineDeployment(), 'spec.rollout.strategy', { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }],
    [
      'MD partial rolling update',
      withValue(machineDeployment(), 'spec.rollout', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } } }),
      'spec.rollout.strategy.rollingUpdate',
      { maxSurge: '25%', maxUnavailable: 0 },
    ],
    ['MD OnDelete left alone', withValue(machineDeployment(), 'spec.rollout', { strategy: { type: 'OnDelete' } }), 'spec.rollout.strategy', { type: 'OnDelete' }],
    ['MD deletion order', machineDeployment(), 'spec.deletion.order', 'Random'],
    ['MD cluster-name label', machineDeployment(), 'metadata.labels', { 'cluster.x-k8s.io/cluster-name': 'c1' }],
    ['MD selector gets the cluster name', machineDeployment(), 'spec.selector.matchLabels', { pool: 'a', 'cluster.x-k8s.io/cluster-name': 'c1' }],
    [
      'MD template labels get the cluster name',
      machineDeployment(),
      'spec.template.metadata.labels',
      { pool: 'a', 'cluster.x-k8s.io/cluster-name': 'c1' },
    ],
    [
      'MD empty selector gets the deployment name',
      withValue(withValue(machineDeployment(), 'spec.selector', {}), 'spec.template.metadata', undefined),
      'spec.selector.matchLabels',
      { 'cluster.x-k8s.io/deployment-name': 'md1', 'cluster.x-k8s.io/cluster-name': 'c1' },
    ],
    [
      'MD template version gets its v',
      withValue(machineDeployment(), 'spec.template.spec.version', '1.31.0'),
      'spec.template.spec.version',
      'v1.31.0',
    ],
    ['MD replicas kept', withValue(machineDeployment(), 'spec.replicas', 0), 'spec.replicas', 0],
    ['MS replicas', machineSet(), 'spec.replicas', 1],
    ['MS deletion order', machineSet(), 'spec.deletion.order', 'Random'],
    [
      'MS empty selector gets the set name',
      machineSet(),
      'spec.template.metadata.labels',
      { 'cluster.x-k8s.io/set-name': 'ms1', 'cluster.x-k8s.io/cluster-name': 'c1' },
    ],
    ['Machine cluster-name label', machine(), 'metadata.labels', { 'cluster.x-k8s.io/cluster-name': 'c1' }],
    ['Machine version gets its v', withValue(machine(), 'spec.version', '1.31.0'), 'spec.version', 'v1.31.0'],
    ['Machine spec otherwise untouched', machine(), 'spec.deletion', undefined],
    ['KCP replicas', kubeadmControlPlane(), 'spec.replicas', 1],
    ['KCP rollout strategy', kubeadmControlPlane(), 'spec.rollout.strategy', { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } }],
    [
      'KCP maxSurge kept',
      withValue(kubeadmControlPlane(), 'spec.rollout', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0 } } }),
      'spec.rollout.strategy.rollingUpdate.maxSurge',
      0,
    ],
    ['KCP kubeadm format', kubeadmControlPlane(), 'spec.kubeadmConfigSpec.format', 'cloud-config'],
    ['KubeadmConfig format', kubeadmConfig(), 'spec.format', 'cloud-config'],
    ['KubeadmConfig ignition kept', withValue(kubeadmConfig(), 'spec.format', 'ignition'), 'spec.format', 'ignition'],
    ['Secret type', secret(), 'type', 'Opaque'],
    ['Secret stringData merged into data', secret(), 'data', { a: 'eA==', b: 'aGVsbG8=' }],
    ['Secret stringData dropped', secret(), 'stringData', undefined],
    ['namespace defaulted', withValue(machine(), 'metadata.namespace', undefined), 'metadata.namespace', 'default'],
  ])('%s', (_name, obj, field, expected) => {
    expect(valueAt(admitCreate(obj, ctx), ...path(field))).toEqual(expected);
  });

  it('takes the namespace of the request when the object has none', () => {
    const admitted = admitCreate(withValue(machine(), 'metadata.namespace', undefined), { ...ctx, namespace: 'team-a' });
    expect(admitted.metadata.namespace).toBe('team-a');
  });

  it('rejects an object whose namespace differs from the request', () => {
    expect(() => admitCreate(machine(), { ...ctx, namespace: 'team-a' })).toThrow(/metadata\.namespace/);
  });

  it('drops status on create for kinds with a status subresource', () => {
    const admitted = admitCreate(withValue(machine(), 'status', { phase: 'Running' }), ctx);
    expect(admitted.status).toBeUndefined();
  });

  it('accepts already-defaulted objects unchanged (defaulting is idempotent)', () => {
    const once = admitCreate(machineDeployment(), ctx);
    expect(admitCreate(once, ctx)).toEqual(once);
  });
});
