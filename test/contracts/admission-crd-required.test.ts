import { describe, expect, it } from 'vitest';
import { admitCreate } from '../../shared/contracts/admission/admit.js';
import { valueAt } from '../../shared/contracts/json.js';
import { ctx } from './admission-fixtures.js';

/** What Cluster API's CRDs require and leave optional at the top of a kind, checked without ../shared. */
describe('required and optional specs, as the CRDs declare them', () => {
  it.each([
    ['no spec', {}],
    ['a template without a spec', { spec: { template: {} } }],
  ])('a KubeadmConfigTemplate with %s is admitted and defaulted (Cluster API e2e bases/md.yaml)', (_what, extra) => {
    const admitted = admitCreate({ apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfigTemplate', metadata: { name: 'md', namespace: 'default' }, ...extra }, ctx);
    expect(valueAt(admitted, 'spec', 'template', 'spec', 'format')).toBe('cloud-config');
  });

  it('a Cluster without spec, or with an empty one, is refused naming spec (the CRD requires it, minProperties 1)', () => {
    const cluster = (extra: object) => ({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c', namespace: 'default' }, ...extra });
    expect(() => admitCreate(cluster({}), ctx)).toThrow(/spec: Required value/);
    expect(() => admitCreate(cluster({ spec: {} }), ctx)).toThrow(/spec: Invalid value: {}: spec in body should have at least 1 properties/);
    expect(admitCreate(cluster({ spec: { paused: false } }), ctx).kind).toBe('Cluster');
  });
});
