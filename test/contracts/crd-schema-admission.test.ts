/**
 * Objects in the storage version are checked against Cluster API's vendored CRD schemas, on
 * create and on update, each refusal a 422 whose cause names the field in the API server's words;
 * a request in an older version is checked by capless's own schemas only (the API server would
 * use that version's schema, which capless does not vendor). Needs nothing from ../shared.
 */

import { describe, expect, it } from 'vitest';
import { admitCreate, admitUpdate } from '../../shared/contracts/admission/admit.js';
import { InvalidError } from '../../shared/errors/index.js';
import { cluster, ctx, kubeadmConfig, machine } from './admission-fixtures.js';

type Cause = { field?: string; reason?: string; message?: string };

function causes(attempt: () => unknown): Cause[] {
  try {
    attempt();
  } catch (error) {
    if (error instanceof InvalidError) return error.causes;
    throw error;
  }
  throw new Error('admitted');
}

const withSpec = <T extends { spec: object }>(object: T, spec: object): T => ({ ...object, spec: { ...object.spec, ...spec } });

/** What is broken, the valid object it is broken from, the broken object, the cause admission must give. */
const CASES: [string, () => { metadata: object }, { metadata: object }, Cause][] = [
  [
    'a pattern',
    machine,
    withSpec(machine(), { infrastructureRef: { ...machine().spec.infrastructureRef, name: 'Not_A_Name' } }),
    { field: 'spec.infrastructureRef.name', reason: 'FieldValueInvalid', message: `Invalid value: "Not_A_Name": spec.infrastructureRef.name in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'` },
  ],
  [
    'maxLength',
    cluster,
    withSpec(cluster(), { clusterNetwork: { serviceDomain: 'a'.repeat(254) } }),
    { field: 'spec.clusterNetwork.serviceDomain', reason: 'FieldValueTooLong', message: 'Too long: may not be more than 253 bytes' },
  ],
  [
    'maxItems',
    cluster,
    withSpec(cluster(), { clusterNetwork: { pods: { cidrBlocks: Array.from({ length: 101 }, (_, i) => `10.${i}.0.0/16`) } } }),
    { field: 'spec.clusterNetwork.pods.cidrBlocks', reason: 'FieldValueTooMany', message: 'Too many: 101: must have at most 100 items' },
  ],
  [
    'minItems',
    cluster,
    withSpec(cluster(), { clusterNetwork: { pods: { cidrBlocks: [] } } }),
    { field: 'spec.clusterNetwork.pods.cidrBlocks', reason: 'FieldValueInvalid', message: 'Invalid value: []: spec.clusterNetwork.pods.cidrBlocks in body should have at least 1 items' },
  ],
  [
    'minLength',
    cluster,
    withSpec(cluster(), { clusterNetwork: { pods: { cidrBlocks: ['10.0.0.0/8'] }, serviceDomain: '' } }),
    { field: 'spec.clusterNetwork.serviceDomain', reason: 'FieldValueRequired', message: 'Required value' },
  ],
  [
    'minProperties',
    cluster,
    withSpec(cluster(), { clusterNetwork: {} }),
    { field: 'spec.clusterNetwork', reason: 'FieldValueInvalid', message: 'Invalid value: {}: spec.clusterNetwork in body should have at least 1 properties' },
  ],
  [
    'minimum',
    machine,
    withSpec(machine(), { minReadySeconds: -1 }),
    { field: 'spec.minReadySeconds', reason: 'FieldValueInvalid', message: 'Invalid value: -1: spec.minReadySeconds in body should be greater than or equal to 0' },
  ],
  [
    'a CEL rule with its message',
    kubeadmConfig,
    withSpec(kubeadmConfig(), { diskSetup: { partitions: [{ device: '/dev/sdb' }] } }),
    { field: 'spec.diskSetup.partitions[0]', reason: 'FieldValueInvalid', message: 'Invalid value: "object": exactly one of the fields in [layout diskLayout] must be set' },
  ],
];

describe("the CRD's schema at admission", () => {
  it.each(CASES)('%s: refused on create, naming the field', (_what, _valid, broken, cause) => {
    expect(causes(() => admitCreate(broken, ctx))).toContainEqual(cause);
  });

  it.each(CASES)('%s: refused on update, naming the field', (_what, valid, broken, cause) => {
    const stored = admitCreate(valid(), ctx);
    expect(causes(() => admitUpdate({ ...broken, metadata: stored.metadata }, stored, ctx))).toContainEqual(cause);
  });

  it('leaves a v1beta1 request to capless schemas: its own version, not the storage one, is what the API server checks', () => {
    const v1beta1 = {
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmConfig',
      metadata: { name: 'old', namespace: 'default' },
      spec: { joinConfiguration: { nodeRegistration: {} } },
    };
    expect(admitCreate(v1beta1, ctx).kind).toBe('KubeadmConfig');
    expect(causes(() => admitCreate({ ...v1beta1, apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2' }, ctx))).toContainEqual({
      field: 'spec.joinConfiguration.nodeRegistration',
      reason: 'FieldValueInvalid',
      message: 'Invalid value: {}: spec.joinConfiguration.nodeRegistration in body should have at least 1 properties',
    });
  });
});
