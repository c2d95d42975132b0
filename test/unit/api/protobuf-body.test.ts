import { describe, expect, it } from 'vitest';
import { handleApiRequest } from '../../../functions/api/api.js';
import { objectFromProtobuf } from '../../../functions/api/input/protobuf/envelope.js';
import { type Field, entry, kubernetesBody } from '../../support/protobuf-encoder.js';
import { memoryApiDeps } from '../../support/api-deps.js';

/** ObjectMeta as Go's generated code writes it: every plain string and integer, set or not. */
function objectMeta(fields: readonly Field[]): Field {
  return [1, [[1, ''], [2, ''], [3, ''], [4, ''], [5, ''], [6, ''], [7, 0], [8, new Uint8Array()], ...fields]];
}

describe('protobuf create bodies (client-go typed clients) read as the JSON they encode', () => {
  it.each([
    [
      'a Secret from kubectl create secret generic: data as base64, type, labels',
      kubernetesBody('v1', 'Secret', [objectMeta([[1, 'creds'], [3, 'team-a'], entry(11, 'app', 'capi')]), entry(2, 'token', Uint8Array.from([0, 255, 7])), [3, 'Opaque']]),
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: 'team-a', labels: { app: 'capi' } }, data: { token: 'AP8H' }, type: 'Opaque' },
    ],
    [
      'a ConfigMap: an empty value is kept, binaryData as base64, immutable false kept',
      kubernetesBody('v1', 'ConfigMap', [objectMeta([[1, 'addon']]), entry(2, 'calico.yaml', 'kind: List'), entry(2, 'empty', ''), entry(3, 'blob', Uint8Array.from([1, 2])), [4, false]]),
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'addon' }, data: { 'calico.yaml': 'kind: List', empty: '' }, binaryData: { blob: 'AQI=' }, immutable: false },
    ],
    [
      'a Namespace from clusterctl move: spec finalizers, status phase, an empty phase left out',
      kubernetesBody('v1', 'Namespace', [objectMeta([[1, 'default'], [14, 'a.b/c'], [14, 'd.e/f']]), [2, [[1, 'kubernetes']]], [3, [[1, '']]]]),
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default', finalizers: ['a.b/c', 'd.e/f'] }, spec: { finalizers: ['kubernetes'] }, status: {} },
    ],
    [
      'owner references with controller flags, a creation time, annotations and a generation',
      kubernetesBody('v1', 'ConfigMap', [
        objectMeta([
          [1, 'owned'],
          [7, 3],
          [8, [[1, 1767225600], [2, 5]]],
          entry(12, 'note', 'x'),
          [13, [[1, 'Cluster'], [3, 'c1'], [4, 'uid-1'], [5, 'cluster.x-k8s.io/v1beta2'], [6, true], [7, false]]],
        ]),
      ]),
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'owned',
          generation: 3,
          creationTimestamp: '2026-01-01T00:00:00Z',
          annotations: { note: 'x' },
          ownerReferences: [{ kind: 'Cluster', name: 'c1', uid: 'uid-1', apiVersion: 'cluster.x-k8s.io/v1beta2', controller: true, blockOwnerDeletion: false }],
        },
      },
    ],
    [
      'fields the tables do not name (managedFields, selfLink) and fixed-width values are dropped',
      kubernetesBody('v1', 'ConfigMap', [objectMeta([[1, 'lean'], [4, '/api/v1/x'], [17, [[1, 'kubectl']]]]), [9, 'unknown']]),
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'lean' } },
    ],
    [
      'a SelfSubjectAccessReview from kubectl auth can-i: resource attributes, the empty ones left out',
      kubernetesBody('authorization.k8s.io/v1', 'SelfSubjectAccessReview', [objectMeta([]), [2, [[1, [[1, 'default'], [2, 'create'], [3, 'cluster.x-k8s.io'], [4, ''], [5, 'clusters'], [6, ''], [7, '']]]]]]),
      { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: {}, spec: { resourceAttributes: { namespace: 'default', verb: 'create', group: 'cluster.x-k8s.io', resource: 'clusters' } } },
    ],
    [
      'a SelfSubjectRulesReview from kubectl auth can-i --list',
      kubernetesBody('authorization.k8s.io/v1', 'SelfSubjectRulesReview', [objectMeta([]), [2, [[1, 'default']]]]),
      { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', metadata: {}, spec: { namespace: 'default' } },
    ],
    [
      'a SelfSubjectReview from kubectl auth whoami',
      kubernetesBody('authentication.k8s.io/v1', 'SelfSubjectReview', [objectMeta([])]),
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', metadata: {} },
    ],
  ])('%s', (_what, body, expected) => {
    expect(objectFromProtobuf(body)).toEqual(expected);
  });

  it.each([
    ['no magic number', Uint8Array.from([1, 2, 3, 4, 5]), 400, /does not start with the Kubernetes magic number/],
    ['a truncated varint', Uint8Array.from([0x6b, 0x38, 0x73, 0x00, 0x08, 0x80]), 400, /a varint runs past the end/],
    ['a length past the end', Uint8Array.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x7f, 0x01]), 400, /a length runs past the end/],
    ['wire type 3 (groups)', Uint8Array.from([0x6b, 0x38, 0x73, 0x00, 0x0b]), 400, /wire type 3 is not supported/],
    ['field number 0', Uint8Array.from([0x6b, 0x38, 0x73, 0x00, 0x02, 0x00]), 400, /field number 0/],
    ['a name that is not UTF-8', kubernetesBody('v1', 'Secret', [[1, [[1, Uint8Array.from([0xff, 0xfe])]]]]), 400, /Secret\.metadata\.name is not UTF-8/],
    ['a string field sent as a varint', kubernetesBody('v1', 'Secret', [[1, [[1, 5]]]]), 400, /Secret\.metadata\.name has the wrong wire type/],
    ['a generation past 2^53', kubernetesBody('v1', 'Secret', [[1, [[7, 2n ** 60n]]]]), 400, /generation is out of range/],
    ['a kind with no table (apps/v1 Deployment)', kubernetesBody('apps/v1', 'Deployment', []), 415, /accepted for v1 Secret, ConfigMap, Namespace; authorization.k8s.io\/v1 SelfSubjectAccessReview, SelfSubjectRulesReview; authentication.k8s.io\/v1 SelfSubjectReview only/],
    ['a custom resource (Kubernetes serves them JSON only)', kubernetesBody('cluster.x-k8s.io/v1beta2', 'Cluster', []), 415, /send application\/json/],
    ['an inherited property name as the kind', kubernetesBody('v1', 'toString', []), 415, /only/],
    ['a compressed raw message', kubernetesBody('v1', 'Secret', [], [[3, 'gzip']]), 415, /content encoding "gzip" is not supported/],
  ])('refuses %s: %i', (_what, body, code, message_) => {
    expect(() => objectFromProtobuf(body)).toThrow(expect.objectContaining({ code, message: expect.stringMatching(message_) }));
  });
});

describe('through the API', () => {
  const writer = () => ({ name: 'admin', canReadSecrets: true, canWriteSecrets: true });
  const post = (deps: ReturnType<typeof memoryApiDeps>, path: string, body: Uint8Array) =>
    handleApiRequest(
      { method: 'POST', path, query: new URLSearchParams(), headers: { 'content-type': 'application/vnd.kubernetes.protobuf' }, body: Buffer.from(body).toString('utf8'), bodyBytes: body },
      deps,
    );

  it('kubectl create secret: stored with its data, the response in JSON', async () => {
    const deps = memoryApiDeps({ authenticate: writer });
    const response = await post(deps, '/api/v1/namespaces/default/secrets', kubernetesBody('v1', 'Secret', [objectMeta([[1, 'creds'], [3, 'default']]), entry(2, 'token', 's3cret')]));
    expect(response.status).toBe(201);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    const stored = await deps.store.get({ group: '', kind: 'Secret', namespace: 'default', name: 'creds' });
    expect(stored).toMatchObject({ data: { token: Buffer.from('s3cret').toString('base64') }, type: 'Opaque' });
  });

  it('a protobuf body for a path of another kind is refused by the path check, and nothing is stored', async () => {
    const deps = memoryApiDeps({ authenticate: writer });
    const response = await post(deps, '/api/v1/namespaces/default/configmaps', kubernetesBody('v1', 'Secret', [objectMeta([[1, 'creds']])]));
    expect(response.status).toBe(422);
    expect(JSON.parse(response.body)).toMatchObject({ kind: 'Status', details: { causes: [expect.objectContaining({ field: 'kind' })] } });
    expect((await deps.store.list({ group: '', kind: 'ConfigMap' })).items).toEqual([]);
  });

  it('a map key __proto__ stays a key and is refused as in a JSON body; nothing is stored', async () => {
    const body = kubernetesBody('v1', 'ConfigMap', [objectMeta([[1, 'c']]), entry(2, '__proto__', 'x')]);
    expect(Object.keys(objectFromProtobuf(body).data ?? {})).toEqual(['__proto__']);
    const deps = memoryApiDeps({ authenticate: writer });
    const response = await post(deps, '/api/v1/namespaces/default/configmaps', body);
    expect(response.status).toBe(400);
    expect(response.body).toContain('__proto__');
    expect((await deps.store.list({ group: '', kind: 'ConfigMap' })).items).toEqual([]);
  });

  it('a protobuf Cluster is a 415 Status, as the Kubernetes API server answers for custom resources', async () => {
    const deps = memoryApiDeps({ authenticate: writer });
    const response = await post(deps, '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters', kubernetesBody('cluster.x-k8s.io/v1beta2', 'Cluster', []));
    expect(response.status).toBe(415);
    expect(JSON.parse(response.body)).toMatchObject({ kind: 'Status', code: 415, reason: 'UnsupportedMediaType' });
  });

});
