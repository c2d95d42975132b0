import { describe, expect, it } from 'vitest';
import { admitCreate, admitStatusUpdate, admitUpdate } from '../../shared/contracts/admission/admit.js';
import { InvalidError, NotFoundError } from '../../shared/errors/index.js';
import { cluster, ctx, kubeadmControlPlane, machine, machineDeployment, machineSet, secret, withValue } from './admission-fixtures.js';

const stored = <T extends object>(obj: T) => admitCreate(obj, ctx);

function updateCauses(next: object, old: object): { field?: string; reason?: string }[] {
  try {
    admitUpdate(next, stored(old), ctx);
  } catch (error) {
    if (error instanceof InvalidError) return error.causes;
    throw error;
  }
  return [];
}

describe('admitUpdate immutability', () => {
  it.each([
    ['Machine clusterName', machine(), withValue(machine(), 'spec.clusterName', 'c2'), 'spec.clusterName'],
    ['Machine bootstrap.configRef', machine(), withValue(machine(), 'spec.bootstrap.configRef.name', 'other'), 'spec.bootstrap.configRef'],
    ['Machine infrastructureRef', machine(), withValue(machine(), 'spec.infrastructureRef.name', 'other'), 'spec.infrastructureRef'],
    [
      'MachineSet clusterName',
      machineSet(),
      withValue(withValue(machineSet(), 'spec.clusterName', 'c2'), 'spec.template.spec.clusterName', 'c2'),
      'spec.clusterName',
    ],
    [
      'MachineSet selector',
      machineSet(),
      withValue(withValue(machineSet(), 'spec.selector.matchLabels', { x: 'y' }), 'spec.template.metadata.labels', { x: 'y' }),
      'spec.selector',
    ],
    [
      'MachineDeployment selector',
      machineDeployment(),
      withValue(withValue(machineDeployment(), 'spec.selector.matchLabels', { pool: 'b' }), 'spec.template.metadata.labels', { pool: 'b' }),
      'spec.selector',
    ],
    ['Cluster infrastructureRef once set', cluster(), withValue(cluster(), 'spec.infrastructureRef.name', 'c9'), 'spec.infrastructureRef'],
    ['Cluster controlPlaneRef removed', cluster(), withValue(cluster(), 'spec.controlPlaneRef', undefined), 'spec.controlPlaneRef'],
    [
      'KCP infrastructureRef kind',
      kubeadmControlPlane(),
      withValue(kubeadmControlPlane(), 'spec.machineTemplate.spec.infrastructureRef.kind', 'DockerMachineTemplate'),
      'spec.machineTemplate.spec.infrastructureRef.kind',
    ],
    ['Secret type', secret(), withValue(secret(), 'type', 'kubernetes.io/tls'), 'type'],
    ['metadata.name', machine(), withValue(machine(), 'metadata.name', 'm2'), 'metadata.name'],
  ])('forbids changing %s', (_name, old, next, field) => {
    expect(updateCauses(next, old)).toContainEqual(expect.objectContaining({ field }));
  });

  it.each([
    ['Cluster infrastructureRef from unset', withValue(cluster(), 'spec.infrastructureRef', undefined), cluster()],
    [
      'KCP infrastructureRef name (a new template rolls machines)',
      kubeadmControlPlane(),
      withValue(kubeadmControlPlane(), 'spec.machineTemplate.spec.infrastructureRef.name', 'cp-v2'),
    ],
    ['MD replicas', machineDeployment(), withValue(machineDeployment(), 'spec.replicas', 5)],
    ['Machine version', machine(), withValue(machine(), 'spec.version', 'v1.32.0')],
    ['labels', machine(), withValue(machine(), 'metadata.labels', { team: 'a' })],
  ])('allows changing %s', (_name, old, next) => {
    expect(updateCauses(next, old)).toEqual([]);
  });

  it('keeps the stored status on a spec update', () => {
    const old = { ...stored(machine()), status: { phase: 'Running' } };
    const next = withValue(machine(), 'status', { phase: 'Failed' });
    expect(admitUpdate(next, old, ctx).status).toEqual({ phase: 'Running' });
  });

  it('validates the new object like a create', () => {
    const causes = updateCauses(withValue(kubeadmControlPlane(), 'spec.replicas', 4), kubeadmControlPlane());
    expect(causes).toContainEqual(expect.objectContaining({ field: 'spec.replicas', reason: 'FieldValueInvalid' }));
  });
});

describe('admitStatusUpdate', () => {
  it('takes only status from the new object', () => {
    const old = stored(machine());
    const next = withValue(withValue(machine(), 'spec.clusterName', 'c2'), 'status', {
      initialization: { infrastructureProvisioned: true },
    });
    const admitted = admitStatusUpdate(withValue(next, 'metadata.resourceVersion', '7'), old, ctx);
    expect(admitted.spec).toEqual(old.spec);
    expect(admitted.status).toEqual({ initialization: { infrastructureProvisioned: true } });
    expect(admitted.metadata.resourceVersion).toBe('7');
  });

  it('rejects a malformed status with its field path', () => {
    const next = withValue(machine(), 'status', { conditions: [{ type: 'Ready', status: 'Maybe', reason: 'X', lastTransitionTime: 't' }] });
    expect(() => admitStatusUpdate(next, stored(machine()), ctx)).toThrow(/status\.conditions\[0\]\.status: Unsupported value: "Maybe"/);
  });

  it('answers NotFound for kinds without a status subresource', () => {
    expect(() => admitStatusUpdate(secret(), stored(secret()), ctx)).toThrow(NotFoundError);
  });
});
