import { describe, expect, it } from 'vitest';
import { isRecord, type JsonRecord } from '../../shared/contracts/json.js';
import { defaultKinds } from '../../shared/contracts/kinds.js';
import { openApiV2Document } from '../../shared/contracts/openapi-v2/document.js';
import { encodeSwaggerDocument } from '../../shared/contracts/openapi-v2/gnostic-protobuf.js';
import { toOpenApiV2Schema } from '../../shared/contracts/openapi-v2/schema-conversion.js';
import { decodeSwaggerDocument } from '../support/gnostic-openapi-v2.js';

const V3_ONLY = ['anyOf', 'oneOf', 'allOf', 'not', 'nullable'];

/** Every keyword path in a schema that OpenAPI v2 cannot carry, or a v3 `$ref`. */
function v3Leftovers(node: unknown, at: string): string[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => v3Leftovers(item, `${at}[${i}]`));
  if (!isRecord(node)) return [];
  const found = Object.keys(node).filter((key) => V3_ONLY.includes(key)).map((key) => `${at}.${key}`);
  if (typeof node.$ref === 'string' && !node.$ref.startsWith('#/definitions/')) found.push(`${at}.$ref`);
  if (node.additionalProperties === false) found.push(`${at}.additionalProperties`);
  if (node.type === 'array' && node.items === undefined) found.push(`${at}: array without items`);
  for (const [key, child] of Object.entries(node)) if (key !== 'enum' && key !== 'default') found.push(...v3Leftovers(child, `${at}.${key}`));
  return found;
}

describe('v3 → v2 schema conversion (kube-apiserver ToStructuralOpenAPIV2)', () => {
  it.each<[string, JsonRecord, JsonRecord]>([
    ['keeps what v2 says as it is', { type: 'string', description: 'd', maxLength: 63, pattern: '^a$', enum: ['a'] }, { type: 'string', description: 'd', maxLength: 63, pattern: '^a$', enum: ['a'] }],
    ['rewrites a component $ref to a definition', { $ref: '#/components/schemas/io.x-k8s.cluster.v1beta2.Cluster' }, { $ref: '#/definitions/io.x-k8s.cluster.v1beta2.Cluster' }],
    ['drops anyOf, lifting the type its branches agree on', { description: 'mode', anyOf: [{ type: 'string', enum: ['a'] }, { type: 'string', enum: ['b'] }] }, { description: 'mode', type: 'string' }],
    ['drops allOf, lifting the one type it declares', { allOf: [{ type: 'string' }, { anyOf: [{ type: 'string', enum: [''] }] }] }, { type: 'string' }],
    ['turns an integer-or-string union into x-kubernetes-int-or-string', { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^\\d+%?$' }] }, { 'x-kubernetes-int-or-string': true }],
    ['leaves a union of unrelated types untyped', { oneOf: [{ type: 'boolean' }, { type: 'object', properties: { a: { type: 'string' } } }] }, {}],
    ['leaves a union with an untyped branch untyped', { anyOf: [{ type: 'string' }, {}] }, {}],
    [
      'drops the type, properties and items of a nullable node',
      { type: 'object', nullable: true, description: 'n', properties: { a: { type: 'string' } } },
      { description: 'n' },
    ],
    [
      'no longer requires a nullable property',
      { type: 'object', properties: { a: { type: 'string', nullable: true }, b: { type: 'string' } }, required: ['a', 'b'] },
      { type: 'object', properties: { a: {}, b: { type: 'string' } }, required: ['b'] },
    ],
    [
      'drops the properties of a preserve-unknown-fields object, keeping it an open map',
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: {}, 'x-kubernetes-preserve-unknown-fields': true },
      { type: 'object', additionalProperties: {}, 'x-kubernetes-preserve-unknown-fields': true },
    ],
    [
      'requires nothing of an object whose map values are nullable',
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: { type: 'string', nullable: true } },
      { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: {} },
    ],
    ['drops the type of an array left without items', { type: 'array', 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'string' } }, { 'x-kubernetes-preserve-unknown-fields': true }],
    ['drops additionalProperties: false (a closed object is one with properties)', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }, { type: 'object', properties: { a: { type: 'string' } } }],
    ['writes additionalProperties: true as an empty schema', { type: 'object', additionalProperties: true }, { type: 'object', additionalProperties: {} }],
    [
      'converts nested properties, items and map values',
      { type: 'object', properties: { list: { type: 'array', items: { anyOf: [{ type: 'integer' }, { type: 'integer' }] } }, map: { type: 'object', additionalProperties: { nullable: true, type: 'string' } } } },
      { type: 'object', properties: { list: { type: 'array', items: { type: 'integer' } }, map: { type: 'object', additionalProperties: {} } } },
    ],
  ])('%s', (_rule, v3, v2) => {
    const input = structuredClone(v3);
    expect(toOpenApiV2Schema(v3)).toEqual(v2);
    expect(v3).toEqual(input);
  });
});

describe('openApiV2Document', () => {
  const document = openApiV2Document();
  const served = defaultKinds.all().flatMap((info) => info.versions.map((version) => ({ group: info.group, version, kind: info.kind })));

  it('is a Swagger 2.0 document with a definition per served kind and version, nothing else', () => {
    expect(document.swagger).toBe('2.0');
    expect(Object.keys(document.definitions)).toHaveLength(served.length);
  });

  it.each([
    ['cluster.x-k8s.io', 'v1beta2', 'Cluster', 'io.x-k8s.cluster.v1beta2.Cluster'],
    ['cluster.x-k8s.io', 'v1beta1', 'Cluster', 'io.x-k8s.cluster.v1beta1.Cluster'],
    ['controlplane.cluster.x-k8s.io', 'v1beta2', 'KubeadmControlPlane', 'io.x-k8s.cluster.controlplane.v1beta2.KubeadmControlPlane'],
    ['infrastructure.cluster.x-k8s.io', 'v1beta2', 'InMemoryMachine', 'io.x-k8s.cluster.infrastructure.v1beta2.InMemoryMachine'],
    ['', 'v1', 'Secret', 'io.k8s.api.core.v1.Secret'],
  ])('names %s/%s %s as kube-apiserver does: %s, with its group-version-kind', (group, version, kind, name) => {
    expect(document.definitions[name]?.['x-kubernetes-group-version-kind']).toEqual([{ group, version, kind }]);
  });

  it.each(Object.keys(document.definitions))('%s carries nothing OpenAPI v2 cannot say', (name) => {
    expect(v3Leftovers(document.definitions[name], name)).toEqual([]);
  });

  it("keeps Cluster API's descriptions and the fields of closed objects", () => {
    const clusterNetwork = document.definitions['io.x-k8s.cluster.v1beta2.Cluster']?.properties;
    const spec = isRecord(clusterNetwork) && isRecord(clusterNetwork.spec) ? clusterNetwork.spec : {};
    const network = isRecord(spec.properties) && isRecord(spec.properties.clusterNetwork) ? spec.properties.clusterNetwork : {};
    expect(network.description).toBe('clusterNetwork represents the cluster network configuration.');
    expect(Object.keys(isRecord(network.properties) ? network.properties : {})).toEqual(expect.arrayContaining(['apiServerPort', 'pods', 'serviceDomain', 'services']));
  });
});

/** The JSON form as gnostic's protobuf carries it: `type` is a list, `items` a list of schemas. */
function asGnostic(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asGnostic);
  if (!isRecord(node)) return node;
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') out.type = Array.isArray(value) ? value : [value];
    else if (key === 'items') out.items = [asGnostic(value)];
    else if (key === 'enum' || key === 'default' || key.startsWith('x-')) out[key] = value;
    else if (key === 'properties' && isRecord(value)) out.properties = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, asGnostic(child)]));
    else out[key] = asGnostic(value);
  }
  return out;
}

describe('gnostic openapi_v2.Document protobuf', () => {
  it('decodes back to the JSON document, every definition and keyword included', () => {
    const document = openApiV2Document();
    const decoded = decodeSwaggerDocument(encodeSwaggerDocument(document));
    expect(decoded).toEqual({ swagger: '2.0', info: document.info, paths: {}, definitions: asGnostic(document.definitions) });
  });

  it.each<[string, JsonRecord]>([
    ['numbers as doubles and int64s', { type: 'integer', minimum: -2147483648, maximum: 9007199254740991, maxLength: 300, minItems: 0 }],
    ['booleans', { type: 'number', exclusiveMinimum: true, exclusiveMaximum: false, uniqueItems: true, readOnly: true }],
    ['strings, UTF-8 included', { $ref: '#/definitions/x', format: 'int32', title: 'tïtle', description: 'a\nb — c', pattern: '^[a-z]$' }],
    ['default, enum and vendor extensions as YAML (JSON) text', { default: { a: [1, 'b'] }, enum: ['x', 2, null], 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Secret' }] }],
    ['additionalProperties as a schema or a boolean', { properties: { m: { additionalProperties: { type: 'string' } }, n: { additionalProperties: true } } }],
    ['required names in order', { required: ['b', 'a'] }],
  ])('encodes a schema with %s', (_what, schema) => {
    const document = { swagger: '2.0' as const, info: { title: 't', version: 'v' }, paths: {}, definitions: { only: schema } };
    expect(decodeSwaggerDocument(encodeSwaggerDocument(document)).definitions).toEqual({ only: asGnostic(schema) });
  });

  it('refuses a keyword gnostic has no field for, rather than dropping it', () => {
    const document = { swagger: '2.0' as const, info: { title: 't', version: 'v' }, paths: {}, definitions: { only: { anyOf: [] } } };
    expect(() => encodeSwaggerDocument(document)).toThrow(/anyOf has no place/);
  });
});
