import { describe, expect, it } from 'vitest';
import { builtinOpenApi } from '../../../functions/api/routes/openapi.js';
import { recordAt } from '../../../shared/contracts/json.js';
import { KindRegistry } from '../../../shared/contracts/kinds.js';

describe('OpenAPI v3 served by the API', () => {
  const kinds = new KindRegistry();

  it.each([
    ['/openapi/v3/apis/cluster.x-k8s.io/v1beta2', 'io.x-k8s.cluster.v1beta2.Cluster', '/apis/cluster.x-k8s.io/v1beta2/namespaces/{namespace}/clusters/{name}'],
    ['/openapi/v3/apis/controlplane.cluster.x-k8s.io/v1beta2', 'io.x-k8s.cluster.controlplane.v1beta2.KubeadmControlPlane', '/apis/controlplane.cluster.x-k8s.io/v1beta2/namespaces/{namespace}/kubeadmcontrolplanes/{name}'],
    ['/openapi/v3/api/v1', 'io.k8s.api.core.v1.Secret', '/api/v1/namespaces/{namespace}/secrets/{name}'],
  ])('%s carries the generated schema %s and the path %s', (path, schema, objectPath) => {
    const document = builtinOpenApi(kinds, path);
    const generated = recordAt(document, 'components', 'schemas', schema);
    expect(generated?.type).toBe('object');
    expect(recordAt(generated, 'properties', 'spec') ?? recordAt(generated, 'properties', 'data')).toBeDefined();
    expect(recordAt(document, 'paths', objectPath, 'patch')).toBeDefined();
  });

  it('lists every served group/version at /openapi/v3', () => {
    const paths = recordAt(builtinOpenApi(kinds, '/openapi/v3'), 'paths') ?? {};
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['apis/cluster.x-k8s.io/v1beta2', 'apis/cluster.x-k8s.io/v1beta1', 'api/v1']));
  });
});
