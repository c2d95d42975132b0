import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { handleApiRequest } from '../../../functions/api/api.js';
import { httpApiResult } from '../../../functions/api/aws-event.js';
import { builtinOpenApi } from '../../../functions/api/routes/openapi.js';
import { writeResponse } from '../../../functions/watch/write-response.js';
import { openApiV2Document } from '../../../shared/contracts/openapi-v2/document.js';
import { encodeSwaggerDocument } from '../../../shared/contracts/openapi-v2/gnostic-protobuf.js';
import { recordAt } from '../../../shared/contracts/json.js';
import { KindRegistry } from '../../../shared/contracts/kinds.js';
import { memoryApiDeps } from '../../support/api-deps.js';

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

describe('OpenAPI v2 served by the API', () => {
  const deps = memoryApiDeps();
  const { kinds } = deps;
  const get = (path: string, accept: string) => handleApiRequest({ method: 'GET', path, query: new URLSearchParams(), headers: { accept }, body: '' }, deps);
  const expected = openApiV2Document(kinds);

  it.each([
    ['/openapi/v2', 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf'],
    ['/swagger-2.0.0.pb-v1', 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf'],
  ])('%s answers kubectl before 1.27 (%s) with the gnostic protobuf, as bytes', async (path, accept) => {
    const response = await get(path, accept);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    expect(response.body).toBe('');
    expect(response.bytes).toEqual(encodeSwaggerDocument(expected));
  });

  it.each([['application/json'], ['*/*'], ['']])('/openapi/v2 answers Accept %j with the JSON document', async (accept) => {
    const response = await get('/openapi/v2', accept);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.bytes).toBeUndefined();
    expect(JSON.parse(response.body)).toEqual(expected);
  });

  it('behind API Gateway, the bytes travel base64-encoded', async () => {
    const response = await get('/openapi/v2', 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf');
    const result = httpApiResult(response);
    expect(result.isBase64Encoded).toBe(true);
    expect(new Uint8Array(Buffer.from(String(result.body), 'base64'))).toEqual(response.bytes);
    expect(httpApiResult(await get('/openapi/v2', 'application/json')).isBase64Encoded).toBeUndefined();
  });

  it('through a Lambda response stream, the bytes are written as they are', async () => {
    const response = await get('/openapi/v2', 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf');
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    await writeResponse(response, out);
    expect(new Uint8Array(Buffer.concat(chunks))).toEqual(response.bytes);
  });
});

describe('OpenAPI v2, built once per set of kinds', () => {
  const protobuf = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
  const widget = { group: 'example.com', kind: 'Widget', plural: 'widgets', versions: ['v1'], namespaced: true, statusSubresource: true };

  it.each([['application/json'], [protobuf]])('a kind added after a request (%s) is in the next answer, and the earlier kinds stay', async (accept) => {
    const deps = memoryApiDeps({ kinds: new KindRegistry() });
    const get = () => handleApiRequest({ method: 'GET', path: '/openapi/v2', query: new URLSearchParams(), headers: { accept }, body: '' }, deps);
    const first = await get();
    const again = await get();
    expect(again).toEqual(first);
    // Encoded once: the same bytes are handed out while the kinds stay.
    if (accept === protobuf) expect(again.bytes).toBe(first.bytes);
    deps.kinds.add(widget);
    const second = await get();
    const expected = openApiV2Document(deps.kinds);
    expect(expected.definitions['com.example.v1.Widget']).toBeDefined();
    if (accept === protobuf) expect(second.bytes).toEqual(encodeSwaggerDocument(expected));
    else expect(JSON.parse(second.body)).toEqual(expected);
    expect(second).not.toEqual(first);
  });

  it('two sets of kinds each get their own document', async () => {
    const plain = memoryApiDeps({ kinds: new KindRegistry() });
    const extended = memoryApiDeps({ kinds: new KindRegistry() });
    extended.kinds.add(widget);
    const get = (deps: typeof plain) => handleApiRequest({ method: 'GET', path: '/openapi/v2', query: new URLSearchParams(), headers: { accept: 'application/json' }, body: '' }, deps);
    const [a, b] = [await get(plain), await get(extended)];
    expect(JSON.parse(a.body).definitions['com.example.v1.Widget']).toBeUndefined();
    expect(JSON.parse(b.body).definitions['com.example.v1.Widget']).toBeDefined();
  });
});
