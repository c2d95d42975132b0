/**
 * ClusterResourceSet and ClusterResourceSetBinding are admitted by Cluster API's CRD schemas:
 * CAPA's template's ClusterResourceSets (v1beta1) apply unchanged and are stored as v1beta2;
 * what the CRDs reject is a 422 naming the field.
 */
import { describe, expect, it } from 'vitest';
import { admitCreate } from '../../shared/contracts/admission/admit.js';
import { valueAt } from '../../shared/contracts/json.js';
import { InvalidError } from '../../shared/errors/index.js';
import { CAPA_TEMPLATE, capaTemplateDocuments } from '../support/capa-template.js';
import { ctx } from './admission-fixtures.js';

const documents = capaTemplateDocuments();
const resourceSets = (documents ?? []).filter((doc) => doc.kind === 'ClusterResourceSet');

const crs = (spec: Record<string, unknown>) => ({ apiVersion: 'addons.cluster.x-k8s.io/v1beta2', kind: 'ClusterResourceSet', metadata: { name: 'crs', namespace: 'default' }, spec });
const binding = (spec: Record<string, unknown>) => ({ apiVersion: 'addons.cluster.x-k8s.io/v1beta2', kind: 'ClusterResourceSetBinding', metadata: { name: 'c1', namespace: 'default' }, spec });

function rejection(obj: unknown): string[] {
  try {
    admitCreate(obj, ctx);
  } catch (error) {
    if (error instanceof InvalidError) return error.causes.map((c) => c.field ?? '');
    throw error;
  }
  return [];
}

describe("CAPA's ClusterResourceSets", () => {
  if (documents === undefined) {
    it("CAPA's ClusterResourceSets", (context) => context.skip(`${CAPA_TEMPLATE} is absent: CAPA's ClusterResourceSets not checked`));
    return;
  }
  it('are two, for the cloud controller manager and the EBS CSI driver', () => {
    expect(resourceSets.map((d) => valueAt(d, 'metadata', 'name'))).toEqual(['crs-ccm', 'crs-csi']);
  });
  it.each(resourceSets.map((d) => [String(valueAt(d, 'metadata', 'name')), d]))('%s is admitted unchanged and stored as v1beta2', (_name, doc) => {
    const admitted = admitCreate(doc, ctx);
    expect(admitted.apiVersion).toBe('addons.cluster.x-k8s.io/v1beta2');
    expect(admitted.spec).toEqual(doc.spec);
  });
});

describe('ClusterResourceSet and ClusterResourceSetBinding are admitted by the CRD schemas', () => {
  it.each([
    ['a ClusterResourceSet', crs({ clusterSelector: { matchLabels: { cni: 'calico' } }, resources: [{ kind: 'Secret', name: 's' }], strategy: 'Reconcile' })],
    ['a ClusterResourceSet without strategy', crs({ clusterSelector: {}, resources: [{ kind: 'ConfigMap', name: 'c' }] })],
    ['a binding', binding({ clusterName: 'c1', bindings: [{ clusterResourceSetName: 'crs', resources: [{ kind: 'ConfigMap', name: 'c', applied: true, hash: 'sha256:00', lastAppliedTime: '2026-01-01T00:00:00Z' }] }] })],
  ])('accepts %s', (_name, obj) => {
    expect(rejection(obj)).toEqual([]);
  });

  it.each([
    ['no resources', crs({ clusterSelector: {} }), 'spec.resources'],
    ['an empty resource list', crs({ clusterSelector: {}, resources: [] }), 'spec.resources'],
    ['a resource of another kind', crs({ clusterSelector: {}, resources: [{ kind: 'Deployment', name: 'd' }] }), 'spec.resources[0].kind'],
    ['an unknown strategy', crs({ clusterSelector: {}, resources: [{ kind: 'Secret', name: 's' }], strategy: 'Always' }), 'spec.strategy'],
    ['no clusterSelector', crs({ resources: [{ kind: 'Secret', name: 's' }] }), 'spec.clusterSelector'],
    ['an unknown field', crs({ clusterSelector: {}, resources: [{ kind: 'Secret', name: 's' }], extra: 1 }), 'spec.extra'],
    ['a binding without clusterName', binding({ bindings: [] }), 'spec.clusterName'],
    ['a binding record without applied', binding({ clusterName: 'c1', bindings: [{ clusterResourceSetName: 'crs', resources: [{ kind: 'Secret', name: 's' }] }] }), 'spec.bindings[0].resources[0].applied'],
  ])('rejects %s, naming %s', (_name, obj, field) => {
    expect(rejection(obj)).toContain(field);
  });
});
