/**
 * `kubectl explain` prints Cluster API's descriptions: vendored from the CRDs
 * (scripts/vendor-crd-descriptions.mjs) and put on the served OpenAPI schemas and CRDs. When
 * ../shared/capi-samples/crds is there, the vendored text is checked against it; without it that
 * check is skipped with the reason.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { applyDescriptions, crdDescriptions } from '../../shared/contracts/crds/crd-descriptions.js';
import { isRecord, type JsonRecord, valueAt } from '../../shared/contracts/json.js';
import { defaultKinds } from '../../shared/contracts/kinds.js';
import { openApiSchemaOf } from '../../shared/contracts/openapi.js';

const CRDS = fileURLToPath(new URL('../../../shared/capi-samples/crds/', import.meta.url));
const CAPI_KINDS = defaultKinds.all().filter((info) => crdDescriptions(info.group, info.kind) !== undefined);

/** The value at a path of property names and array indexes. */
function at(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (Array.isArray(node) ? node[Number(key)] : isRecord(node) ? node[key] : undefined), value);
}

describe('applyDescriptions', () => {
  const descriptions = new Map([
    ['', 'the object'],
    ['spec', 'the spec'],
    ['spec.list[]', 'an item'],
    ['spec.list[].name', 'its name'],
    ['spec.labels.*', 'a value'],
    ['spec.either.a', 'a branch field'],
  ]);
  const schema = (): JsonRecord => ({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          list: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          either: { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'null' }] },
        },
      },
    },
  });

  it.each([
    ['the object itself', [], 'the object'],
    ['a property', ['properties', 'spec'], 'the spec'],
    ['array items', ['properties', 'spec', 'properties', 'list', 'items'], 'an item'],
    ['a field of array items', ['properties', 'spec', 'properties', 'list', 'items', 'properties', 'name'], 'its name'],
    ['map values', ['properties', 'spec', 'properties', 'labels', 'additionalProperties'], 'a value'],
    ['a field inside a union branch', ['properties', 'spec', 'properties', 'either', 'anyOf', '0', 'properties', 'a'], 'a branch field'],
  ])('describes %s', (_what, path, text) => {
    const target = schema();
    expect(applyDescriptions(target, descriptions)).toBe(6);
    expect(at(target, [...path, 'description'])).toBe(text);
  });
});

describe('the served schemas carry Cluster API descriptions', () => {
  it('covers every Cluster API kind capless serves', () => {
    expect(CAPI_KINDS.map((info) => info.kind)).toEqual(expect.arrayContaining(['Cluster', 'Machine', 'MachineDeployment', 'KubeadmControlPlane', 'KubeadmConfig', 'ClusterClass']));
  });

  it.each(CAPI_KINDS.map((info) => [info.kind, info] as const))('%s: its own description and its spec', (_kind, info) => {
    const descriptions = crdDescriptions(info.group, info.kind);
    const schema = openApiSchemaOf(info, info.versions[0] ?? '');
    expect(schema.description).toBe(descriptions?.get(''));
    if (descriptions?.has('spec') && isRecord(valueAt(schema, 'properties', 'spec'))) expect(valueAt(schema, 'properties', 'spec', 'description')).toBe(descriptions.get('spec'));
  });

  it("Cluster's spec.topology is explained as Cluster API explains it", () => {
    const cluster = defaultKinds.get('cluster.x-k8s.io', 'Cluster');
    if (!cluster) throw new Error('Cluster is not served');
    const text = valueAt(openApiSchemaOf(cluster, 'v1beta2'), 'properties', 'spec', 'properties', 'topology', 'description');
    expect(text).toMatch(/^topology encapsulates the topology for the cluster/);
  });
});

describe('the vendored descriptions are those of the CRDs', () => {
  const files = existsSync(CRDS) ? readdirSync(CRDS).filter((file) => file.endsWith('.yaml')) : [];
  if (files.length === 0) {
    it('match ../shared/capi-samples/crds', (context) => context.skip('../shared/capi-samples/crds is not there: the vendored descriptions are not compared'));
    return;
  }
  it.each(files)('%s', (file) => {
    const crd: unknown = parse(readFileSync(`${CRDS}${file}`, 'utf8'));
    const group = String(valueAt(crd, 'spec', 'group'));
    const kind = String(valueAt(crd, 'spec', 'names', 'kind'));
    const versions = valueAt(crd, 'spec', 'versions');
    const storage = Array.isArray(versions) ? versions.find((v) => isRecord(v) && v.storage === true) : undefined;
    const vendored = crdDescriptions(group, kind);
    expect(vendored?.get('')).toBe(valueAt(storage, 'schema', 'openAPIV3Schema', 'description'));
    expect(vendored?.get('spec')).toBe(valueAt(storage, 'schema', 'openAPIV3Schema', 'properties', 'spec', 'description'));
  });
});
