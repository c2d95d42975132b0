import { describe, expect, it } from 'vitest';
import { negotiate } from '../../../functions/api/representation/accept.js';
import { tableOf } from '../../../functions/api/representation/table.js';
import { defaultKinds, type KindInfo } from '../../../shared/contracts/kinds.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { compileJsonPath, evaluateJsonPath } from '../../../shared/contracts/printing/json-path.js';
import { NotAcceptableError } from '../../../shared/errors/index.js';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const KUBECTL_GET = `${TABLE},application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json`;

describe('Accept negotiation', () => {
  it.each([
    [undefined, 'object'],
    ['', 'object'],
    ['application/json', 'object'],
    ['*/*', 'object'],
    [KUBECTL_GET, 'table'],
    ['application/json;g=meta.k8s.io;v=v1;as=Table', 'table'],
    ['application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json', 'object'],
    ['application/vnd.kubernetes.protobuf,application/json', 'object'],
    ['application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json', 'object'],
  ])('%s -> %s', (accept, kind) => {
    expect(negotiate(accept, new URLSearchParams(), true).kind).toBe(kind);
  });

  it.each(['text/html', 'application/vnd.kubernetes.protobuf', 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', 'image/png,text/plain'])(
    'refuses %s with 406',
    (accept) => {
      expect(() => negotiate(accept, new URLSearchParams(), true)).toThrow(NotAcceptableError);
    },
  );

  it.each([
    ['', 'Metadata'],
    ['includeObject=Object', 'Object'],
    ['includeObject=None', 'None'],
    ['includeObject=bogus', 'Metadata'],
  ])('includeObject %s -> %s', (query, include) => {
    expect(negotiate(TABLE, new URLSearchParams(query), true)).toEqual({ kind: 'table', includeObject: include });
  });
});

describe('the JSONPath subset of printer columns', () => {
  const doc = {
    metadata: { labels: { 'cluster.x-k8s.io/cluster-name': 'c1' }, ownerReferences: [{ kind: 'Cluster', name: 'c1' }, { kind: 'ClusterClass', name: 'cc' }] },
    status: { conditions: [{ type: 'Ready', status: 'False' }, { type: 'Available', status: 'True' }], replicas: 3, addresses: [] },
  };
  it.each([
    ['.status.replicas', [3]],
    [".metadata.labels['cluster\\.x-k8s\\.io/cluster-name']", ['c1']],
    ['.status.conditions[?(@.type=="Available")].status', ['True']],
    ['.metadata.ownerReferences[?(@.kind=="ClusterClass")].name', ['cc']],
    ['.status.addresses[?(@.type=="InternalIP")].address', []],
    ['.spec.missing', []],
    ['{.status.replicas}', [3]],
    ['.status.__proto__', []],
  ])('%s', (path, values) => {
    const compiled = compileJsonPath(path);
    expect(compiled).toBeDefined();
    expect(evaluateJsonPath(doc, compiled ?? [])).toEqual(values);
  });
  it.each(['.a[0]', '$..x', '.a[*].b', 'status'])('%s is not in the subset', (path) => {
    expect(compileJsonPath(path)).toBeUndefined();
  });
});

describe('Table rows', () => {
  const cluster = defaultKinds.get('cluster.x-k8s.io', 'Cluster') as KindInfo;
  const created = '2026-01-01T00:00:00Z';
  const now = Date.parse(created) + 3 * 3600_000 + 20 * 60_000;
  const object: KubeObject = {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: 'c1', namespace: 'default', creationTimestamp: created },
    spec: { topology: { classRef: { name: 'quick-start' }, version: 'v1.32.0' } },
    status: { phase: 'Provisioned', conditions: [{ type: 'Available', status: 'True' }], controlPlane: { desiredReplicas: 3, replicas: 3 }, workers: { desiredReplicas: 2 } },
  };

  it("a Cluster row has Cluster API's cells, the age computed, missing values null", () => {
    const table = tableOf(cluster, [object], { kind: 'table', includeObject: 'Metadata' }, { resourceVersion: '7' }, now);
    const columns = (table.columnDefinitions as { name: string }[]).map((c) => c.name);
    const cells = (table.rows as { cells: unknown[] }[])[0]?.cells ?? [];
    const byName = Object.fromEntries(columns.map((name, i) => [name, cells[i]]));
    expect(byName).toEqual({
      Name: 'c1',
      ClusterClass: 'quick-start',
      Available: 'True',
      'CP Desired': 3,
      'CP Current': 3,
      'CP Ready': null,
      'CP Available': null,
      'CP Up-to-date': null,
      'W Desired': 2,
      'W Current': null,
      'W Ready': null,
      'W Available': null,
      'W Up-to-date': null,
      Paused: null,
      Phase: 'Provisioned',
      Age: '3h20m',
      Version: 'v1.32.0',
    });
    expect(table).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '7' } });
  });

  it.each([
    ['Metadata', { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata }],
    ['Object', object],
    ['None', undefined],
  ] as const)('includeObject=%s puts that in the row', (include, expected) => {
    const table = tableOf(cluster, [object], { kind: 'table', includeObject: include }, {}, now);
    expect((table.rows as { object?: unknown }[])[0]?.object).toEqual(expected);
  });

  it('a kind without declared columns shows Name and Age', () => {
    const info = defaultKinds.get('infrastructure.cluster.x-k8s.io', 'InMemoryMachine') as KindInfo;
    const table = tableOf(info, [{ ...object, kind: 'InMemoryMachine' }], { kind: 'table', includeObject: 'None' }, {}, now);
    expect((table.columnDefinitions as { name: string }[]).map((c) => c.name)).toEqual(['Name', 'Age']);
  });
});
