import { describe, expect, it } from 'vitest';
import { instanceTags, isOwnedBy, userDataSecretTags } from '../../../../shared/contracts/providers/aws/aws-tags.js';

describe('instance tags (CAPA api/v1beta2/tags.go)', () => {
  const base = { cluster: 'c1', awsMachine: 'c1-cp-abc', namespace: 'ns', machine: 'c1-cp-xyz' };

  it.each([
    [true, 'control-plane'],
    [false, 'node'],
  ])('control plane %s: role %s', (controlPlane, role) => {
    expect(instanceTags({ ...base, controlPlane })).toEqual({
      Name: 'c1-cp-abc',
      'sigs.k8s.io/cluster-api-provider-aws/cluster/c1': 'owned',
      'sigs.k8s.io/cluster-api-provider-aws/role': role,
      'kubernetes.io/cluster/c1': 'owned',
      MachineName: 'ns/c1-cp-xyz',
      'capless.io/managed': 'true',
    });
  });

  it('lets the machine additionalTags win over the cluster ones, but never over the ownership tags', () => {
    const tags = instanceTags({
      ...base,
      controlPlane: false,
      clusterAdditionalTags: { team: 'a', env: 'prod', 'aws:reserved': 'x' },
      machineAdditionalTags: { team: 'b', Name: 'spoof', 'capless.io/managed': 'false' },
    });
    expect(tags).toMatchObject({ team: 'b', env: 'prod', Name: 'c1-cp-abc', 'capless.io/managed': 'true' });
    expect(tags).not.toHaveProperty('aws:reserved');
  });

  it('gives user-data secrets the instance tags without MachineName', () => {
    const tags = userDataSecretTags(instanceTags({ ...base, controlPlane: true }));
    expect(tags).not.toHaveProperty('MachineName');
    expect(tags.Name).toBe('c1-cp-abc');
  });

  it.each([
    [{ 'sigs.k8s.io/cluster-api-provider-aws/cluster/c1': 'owned', 'capless.io/managed': 'true' }, true],
    [{ 'sigs.k8s.io/cluster-api-provider-aws/cluster/c1': 'shared', 'capless.io/managed': 'true' }, false],
    [{ 'sigs.k8s.io/cluster-api-provider-aws/cluster/c1': 'owned' }, false],
    [{ 'sigs.k8s.io/cluster-api-provider-aws/cluster/c2': 'owned', 'capless.io/managed': 'true' }, false],
  ])('ownership of %j by c1: %s', (tags, owned) => {
    expect(isOwnedBy(tags, 'c1')).toBe(owned);
  });
});
