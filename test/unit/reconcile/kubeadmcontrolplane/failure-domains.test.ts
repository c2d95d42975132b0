import { describe, expect, it } from 'vitest';
import {
  controlPlaneFailureDomains,
  pickFailureDomainForScaleUp,
  pickMachineToDelete,
} from '../../../../functions/reconcile/kubeadm/controlplane/failure-domains.js';
import { fact } from './facts.js';

describe('pickFailureDomainForScaleUp', () => {
  it.each([
    { name: 'no failure domains', fds: [], machines: [], expected: undefined },
    { name: 'empty cluster → first by name', fds: ['b', 'a', 'c'], machines: [], expected: 'a' },
    { name: 'fewest machines', fds: ['a', 'b', 'c'], machines: [fact('m1', { failureDomain: 'a' }), fact('m2', { failureDomain: 'b' })], expected: 'c' },
    {
      name: 'outdated machines do not count as up-to-date',
      fds: ['a', 'b'],
      machines: [fact('m1', { failureDomain: 'a', upToDate: false }), fact('m2', { failureDomain: 'b' })],
      expected: 'a',
    },
    {
      name: 'tie on up-to-date → fewest total',
      fds: ['a', 'b'],
      machines: [fact('m1', { failureDomain: 'a', upToDate: false }), fact('m2', { failureDomain: 'a' }), fact('m3', { failureDomain: 'b' })],
      expected: 'b',
    },
    {
      name: 'deleting machines are ignored',
      fds: ['a', 'b'],
      machines: [fact('m1', { failureDomain: 'a', deleting: true }), fact('m2', { failureDomain: 'b' })],
      expected: 'a',
    },
  ])('$name', ({ fds, machines, expected }) => {
    expect(pickFailureDomainForScaleUp(fds, machines)).toBe(expected);
  });
});

describe('pickMachineToDelete', () => {
  it.each([
    { name: 'nothing to pick', machines: [], expected: undefined },
    {
      name: 'outdated before up-to-date',
      machines: [fact('m1', { failureDomain: 'a' }), fact('m2', { failureDomain: 'a', upToDate: false }), fact('m3', { failureDomain: 'b' })],
      expected: 'm2',
    },
    {
      name: 'delete-annotated outdated first',
      machines: [fact('m1', { upToDate: false }), fact('m2', { upToDate: false, deleteAnnotated: true }), fact('m3', { deleteAnnotated: true })],
      expected: 'm2',
    },
    {
      name: 'delete-annotated before plain outdated',
      machines: [fact('m1', { upToDate: false }), fact('m3', { deleteAnnotated: true })],
      expected: 'm3',
    },
    {
      name: 'failure domain with most machines',
      machines: [fact('m1', { failureDomain: 'a' }), fact('m2', { failureDomain: 'b' }), fact('m3', { failureDomain: 'b' })],
      expected: 'm2',
    },
    {
      name: 'oldest within the domain',
      machines: [fact('m5', { failureDomain: 'a' }), fact('m4', { failureDomain: 'a' }), fact('m1', { failureDomain: 'b' })],
      expected: 'm4',
    },
    {
      name: 'deleting machines are never picked',
      machines: [fact('m1', { deleting: true }), fact('m2')],
      expected: 'm2',
    },
  ])('$name', ({ machines, expected }) => {
    expect(pickMachineToDelete(machines)?.name).toBe(expected);
  });
});

describe('controlPlaneFailureDomains', () => {
  const cluster = (failureDomains: unknown) => ({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c' }, status: { failureDomains } });
  it.each([
    { name: 'absent', fds: undefined, expected: [] },
    { name: 'v1beta2 list, non-CP filtered', fds: [{ name: 'b', controlPlane: true }, { name: 'a', controlPlane: true }, { name: 'w', controlPlane: false }], expected: ['a', 'b'] },
    { name: 'v1beta1 map', fds: { z: { controlPlane: true }, y: { controlPlane: false } }, expected: ['z'] },
  ])('$name', ({ fds, expected }) => {
    expect(controlPlaneFailureDomains(cluster(fds))).toEqual(expected);
  });
});
