import { describe, expect, it } from 'vitest';
import { admitCreate } from '../../shared/contracts/admission/admit.js';
import { InvalidError, NotFoundError } from '../../shared/errors/index.js';
import {
  cluster,
  ctx,
  inMemoryMachine,
  kubeadmControlPlane,
  machine,
  machineDeployment,
  machineSet,
  secret,
  withValue,
} from './admission-fixtures.js';

function rejection(obj: unknown): InvalidError {
  try {
    admitCreate(obj, ctx);
  } catch (error) {
    if (error instanceof InvalidError) return error;
    throw error;
  }
  throw new Error('expected admitCreate to reject the object');
}

describe('admitCreate rejections', () => {
  it.each([
    ['even KCP replicas', withValue(kubeadmControlPlane(), 'spec.replicas', 2), 'spec.replicas', 'FieldValueInvalid'],
    ['zero KCP replicas', withValue(kubeadmControlPlane(), 'spec.replicas', 0), 'spec.replicas', 'FieldValueInvalid'],
    [
      'KCP maxSurge 2',
      withValue(kubeadmControlPlane(), 'spec.rollout', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 2 } } }),
      'spec.rollout.strategy.rollingUpdate.maxSurge',
      'FieldValueInvalid',
    ],
    [
      'KCP certificates outliving the CA',
      withValue(kubeadmControlPlane(), 'spec.kubeadmConfigSpec.clusterConfiguration', { certificateValidityPeriodDays: 400, caCertificateValidityPeriodDays: 365 }),
      'spec.kubeadmConfigSpec.clusterConfiguration.certificateValidityPeriodDays',
      'FieldValueInvalid',
    ],
    [
      'KCP rollout before certificates expire no sooner than they are valid',
      withValue(withValue(kubeadmControlPlane(), 'spec.kubeadmConfigSpec.clusterConfiguration', { certificateValidityPeriodDays: 30 }), 'spec.rollout', { before: { certificatesExpiryDays: 30 } }),
      'spec.rollout.before.certificatesExpiryDays',
      'FieldValueInvalid',
    ],
    [
      'KCP strategy OnDelete',
      withValue(kubeadmControlPlane(), 'spec.rollout', { strategy: { type: 'OnDelete' } }),
      'spec.rollout.strategy.type',
      'FieldValueNotSupported',
    ],
    [
      'a reference to a kind no provider serves',
      withValue(cluster(), 'spec.infrastructureRef.kind', 'VSphereCluster'),
      'spec.infrastructureRef.kind',
      'FieldValueInvalid',
    ],
    [
      'an MD template reference to an unserved kind',
      withValue(machineDeployment(), 'spec.template.spec.infrastructureRef.kind', 'GCPMachineTemplate'),
      'spec.template.spec.infrastructureRef.kind',
      'FieldValueInvalid',
    ],
    ['a non-semver Machine version', withValue(machine(), 'spec.version', 'v1.31'), 'spec.version', 'FieldValueInvalid'],
    ['a non-semver KCP version', withValue(kubeadmControlPlane(), 'spec.version', 'latest'), 'spec.version', 'FieldValueInvalid'],
    [
      'a non-semver MD template version',
      withValue(machineDeployment(), 'spec.template.spec.version', 'v1.x.0'),
      'spec.template.spec.version',
      'FieldValueInvalid',
    ],
    [
      'an MD selector not matching the template',
      withValue(machineDeployment(), 'spec.selector.matchLabels', { pool: 'b' }),
      'spec.selector',
      'FieldValueInvalid',
    ],
    [
      'an MS selector expression not matching the template',
      withValue(machineSet(), 'spec.selector', { matchExpressions: [{ key: 'pool', operator: 'Exists' }] }),
      'spec.selector',
      'FieldValueInvalid',
    ],
    [
      'MD maxSurge and maxUnavailable both 0',
      withValue(machineDeployment(), 'spec.rollout', {
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '0%' } },
      }),
      'spec.rollout.strategy.rollingUpdate',
      'FieldValueInvalid',
    ],
    [
      'an MD template in another cluster',
      withValue(machineDeployment(), 'spec.template.spec.clusterName', 'c2'),
      'spec.template.spec.clusterName',
      'FieldValueInvalid',
    ],
    ['an unknown spec field', withValue(machine(), 'spec.nodeName', 'n1'), 'spec.nodeName', 'FieldValueForbidden'],
    [
      'an unknown nested spec field',
      withValue(kubeadmControlPlane(), 'spec.machineTemplate.spec.replicas', 3),
      'spec.machineTemplate.spec.replicas',
      'FieldValueForbidden',
    ],
    ['an unknown top-level field', withValue(cluster(), 'specs', {}), 'specs', 'FieldValueForbidden'],
    ['a bad name', withValue(machine(), 'metadata.name', 'My_Machine'), 'metadata.name', 'FieldValueInvalid'],
    ['a missing name', withValue(machine(), 'metadata.name', undefined), 'metadata.name', 'FieldValueRequired'],
    ['a Machine without clusterName', withValue(machine(), 'spec.clusterName', undefined), 'spec.clusterName', 'FieldValueRequired'],
    [
      'a Machine without infrastructureRef',
      withValue(machine(), 'spec.infrastructureRef', undefined),
      'spec.infrastructureRef',
      'FieldValueRequired',
    ],
    ['a Machine without bootstrap source', withValue(machine(), 'spec.bootstrap', {}), 'spec.bootstrap', 'FieldValueRequired'],
    [
      'a reference without apiGroup',
      withValue(machine(), 'spec.infrastructureRef.apiGroup', undefined),
      'spec.infrastructureRef.apiGroup',
      'FieldValueRequired',
    ],
    [
      'a v1beta1 reference into another namespace',
      withValue(machine(), 'spec.infrastructureRef', {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'InMemoryMachine',
        name: 'm1',
        namespace: 'other',
      }),
      'spec.infrastructureRef.namespace',
      'FieldValueForbidden',
    ],
    ['a string replica count', withValue(machineSet(), 'spec.replicas', '3'), 'spec.replicas', 'FieldValueInvalid'],
    ['a too long clusterName', withValue(machine(), 'spec.clusterName', 'c'.repeat(64)), 'spec.clusterName', 'FieldValueTooLong'],
    ['secret data not base64', withValue(secret(), 'data.a', 'not base64!'), 'data.a', 'FieldValueInvalid'],
    ['an unknown in-memory failure mode', withValue(inMemoryMachine(), 'spec.failure.mode', 'Explode'), 'spec.failure.mode', 'FieldValueNotSupported'],
    ['a negative startupSeconds', withValue(inMemoryMachine(), 'spec.startupSeconds', -1), 'spec.startupSeconds', 'FieldValueInvalid'],
    [
      'a topology worker without a name',
      withValue(cluster(), 'spec.topology', { classRef: { name: 'cc' }, version: 'v1.31.0', workers: { machineDeployments: [{ class: 'w' }] } }),
      'spec.topology.workers.machineDeployments[0].name',
      'FieldValueRequired',
    ],
    [
      'a label key rendered in brackets',
      withValue(machine(), 'metadata.labels', { 'cluster.x-k8s.io/cluster-name': 7 }),
      'metadata.labels[cluster.x-k8s.io/cluster-name]',
      'FieldValueInvalid',
    ],
  ])('rejects %s', (_name, obj, field, reason) => {
    const error = rejection(obj);
    expect(error.code).toBe(422);
    expect(error.causes).toContainEqual(expect.objectContaining({ field, reason }));
  });

  it('words the message like the Kubernetes API server', () => {
    const error = rejection(withValue(kubeadmControlPlane(), 'spec.replicas', 2));
    expect(error.message).toBe(
      'KubeadmControlPlane.controlplane.cluster.x-k8s.io "cp" is invalid: spec.replicas: Invalid value: 2: cannot be an even number when etcd is stacked',
    );
    expect(error.causes).toEqual([
      { field: 'spec.replicas', reason: 'FieldValueInvalid', message: 'Invalid value: 2: cannot be an even number when etcd is stacked' },
    ]);
  });

  it('lists several errors in brackets', () => {
    const error = rejection(withValue(withValue(machine(), 'spec.clusterName', undefined), 'spec.nodeName', 'n'));
    expect(error.message).toMatch(/^Machine\.cluster\.x-k8s\.io "m1" is invalid: \[spec\.clusterName: Required value, spec\.nodeName: Forbidden: .*\]$/);
  });

  it('accepts even KCP replicas with external etcd', () => {
    const obj = withValue(
      withValue(kubeadmControlPlane(), 'spec.replicas', 2),
      'spec.kubeadmConfigSpec.clusterConfiguration',
      { etcd: { external: { endpoints: ['https://etcd:2379'], caFile: '/etc/etcd/ca.crt', certFile: '/etc/etcd/client.crt', keyFile: '/etc/etcd/client.key' } } },
    );
    expect(admitCreate(obj, ctx).spec?.replicas).toBe(2);
  });

  it.each([
    ['an unknown kind', { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Widget', metadata: { name: 'w' } }, 'kind'],
    ['an unserved version', { ...machine(), apiVersion: 'cluster.x-k8s.io/v1alpha4' }, 'apiVersion'],
  ])('answers NotFound for %s', (_name, obj, field) => {
    expect(() => admitCreate(obj, ctx)).toThrow(NotFoundError);
    try {
      admitCreate(obj, ctx);
    } catch (error) {
      expect(error instanceof NotFoundError && error.causes[0]?.field).toBe(field);
    }
  });

  it.each([
    ['a body that is not an object', 'hello', undefined],
    ['a body without kind', { apiVersion: 'v1', metadata: { name: 'x' } }, 'kind'],
  ])('answers Invalid for %s', (_name, obj, field) => {
    expect(() => admitCreate(obj, ctx)).toThrow(InvalidError);
    try {
      admitCreate(obj, ctx);
    } catch (error) {
      expect(error instanceof InvalidError && error.causes[0]?.field).toBe(field);
    }
  });
});
