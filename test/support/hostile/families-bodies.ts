import fc from 'fast-check';
import type { KindRegistry } from '../../../shared/contracts/kinds.js';
import { JSON_PATCH, MERGE_PATCH, caller, dnsName, dryRun, request } from './common.js';
import type { HostileRequest } from './model.js';
import { NS, collectionPath, machineDeployment } from './seeds.js';

const CM = `/api/v1/namespaces/${NS}/configmaps`;
const CLUSTER = `/apis/cluster.x-k8s.io/v1beta2/namespaces/${NS}/clusters/cl`;

/** JSON nested `depth` levels, as arrays or objects, optionally inside a ConfigMap envelope. */
export function nestedJson(depth: number, shape: 'array' | 'object' | 'in-labels' | 'in-spec'): string {
  const core = shape === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  if (shape === 'in-labels') return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep","labels":${core}}}`;
  if (shape === 'in-spec') return `{"spec":${core}}`;
  return core;
}

/** Bodies nested 100 to 100,000 levels, in create, replace and both patch types, JSON and YAML. */
export function deepNesting(): fc.Arbitrary<HostileRequest> {
  const depth = fc.constantFrom(99, 101, 1000, 10_000, 100_000);
  const shape = fc.constantFrom('array', 'object', 'in-labels', 'in-spec') as fc.Arbitrary<'array' | 'object' | 'in-labels' | 'in-spec'>;
  return fc.record({ depth, shape, how: fc.nat(4), caller, dryRun }).map(({ depth: d, shape: s, how, caller: who, dryRun: q }) => {
    const body = nestedJson(d, s);
    const base = { family: 'deep-nesting', caller: who, query: q };
    if (how === 0) return request({ ...base, method: 'POST', path: CM, contentType: 'application/json', body });
    if (how === 1) return request({ ...base, method: 'PUT', path: `${CM}/c`, contentType: 'application/json', body });
    if (how === 2) return request({ ...base, method: 'PATCH', path: CLUSTER, contentType: MERGE_PATCH, body });
    if (how === 3) return request({ ...base, method: 'PATCH', path: CLUSTER, contentType: JSON_PATCH, body: `[{"op":"add","path":"/spec/x","value":${body}}]` });
    return request({ ...base, method: 'POST', path: CM, contentType: 'application/yaml', body: `${'['.repeat(Math.min(d, 20_000))}${']'.repeat(Math.min(d, 20_000))}` });
  });
}

/** Duplicate keys at every level of a create body. */
export function duplicateKeys(): fc.Arbitrary<HostileRequest> {
  const bodies = [
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d1","name":"d2"}}',
    '{"apiVersion":"v1","kind":"ConfigMap","kind":"Secret","metadata":{"name":"d3"}}',
    '{"apiVersion":"v1","apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d4"}}',
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d5","namespace":"default","namespace":"kube-system"}}',
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d6","labels":{"a":"1","a":"2"}}}',
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d7"},"data":{"k":"1"},"data":{"k":"2"}}',
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d8"},"metadata":{"name":"d9"}}',
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d10","__proto__":{},"__proto__":{}}}',
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d11","labels":{"\\u0061":"1","a":"2"}}}',
  ];
  return fc.record({ body: fc.constantFrom(...bodies), caller, dryRun, yaml: fc.boolean() }).map(({ body, caller: who, dryRun: q, yaml }) =>
    // JSON is YAML: the same text sent as YAML must be refused too.
    request({ family: 'duplicate-keys', caller: who, method: 'POST', path: CM, query: q, contentType: yaml ? 'application/yaml' : 'application/json', body, expect: { clientError: true } }),
  );
}

const big = (n: number, c = 'a') => c.repeat(n);
/** Marks metadata Kubernetes itself would accept (no count limit on labels): only the common properties apply. */
const ACCEPTABLE = Symbol('acceptable');

/** Huge or control-character labels, annotations, finalizers and names; out-of-range replicas. */
export function hugeMetadata(kinds: KindRegistry): fc.Arbitrary<HostileRequest> {
  const cm = (metadata: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'huge', ...metadata } });
  const manyLabels = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`l${i}`, 'v']));
  const metadatas: (Record<string, unknown> & { [ACCEPTABLE]?: true })[] = [
    { labels: { [big(100_000)]: 'v' } },
    { labels: { a: big(64) } },
    { labels: { a: 'x\u0000y' } },
    { labels: { 'a\u0000': 'v' } },
    { labels: { a: 'line\nbreak' } },
    { labels: { 'line\nkey': 'v' } },
    { labels: { a: 1 } },
    { labels: manyLabels, [ACCEPTABLE]: true },
    { annotations: { a: big(270_000) } },
    { annotations: { [big(100_000)]: 'v' } },
    { annotations: { a: 'x\u0000' }, [ACCEPTABLE]: true },
    { finalizers: [big(100_000)] },
    { finalizers: ['a\nb'] },
    { finalizers: Array.from({ length: 20_000 }, (_, i) => `example.com/f${i}`), [ACCEPTABLE]: true },
    { name: big(1100) },
    { name: big(254) },
    { name: `a\u0000b` },
    { generateName: big(1100) },
    { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: big(1100), uid: '\u0000' }], [ACCEPTABLE]: true },
  ];
  const md = kinds.get('cluster.x-k8s.io', 'MachineDeployment');
  const replicas = fc.constantFrom<unknown>(2147483648, 2 ** 53, -1, 1.5, '3', 1e308, -2147483649);
  const fromMetadata = fc.record({ m: fc.constantFrom(...metadatas), how: fc.nat(2), caller, dryRun }).map(({ m, how, caller: who, dryRun: q }) => {
    const base = { family: 'huge-metadata', caller: who, query: q, ...(m[ACCEPTABLE] ? {} : { expect: { clientError: true } }) };
    if (how === 0) return request({ ...base, method: 'POST', path: CM, contentType: 'application/json', body: JSON.stringify(cm(m)) });
    const { name: _name, ...rest } = m;
    if (how === 1 && Object.keys(rest).length > 0) return request({ ...base, method: 'PATCH', path: `${CM}/c`, contentType: MERGE_PATCH, body: JSON.stringify({ metadata: rest }) });
    return request({ ...base, method: 'PUT', path: `${CM}/c`, contentType: 'application/json', body: { overlay: { metadata: m } } });
  });
  const namesInPath = fc.record({ n: fc.constantFrom(1025, 1100, 5000, 60_000), method: fc.constantFrom('GET', 'PUT', 'PATCH', 'DELETE'), caller }).map(({ n, method, caller: who }) =>
    request({ family: 'huge-metadata', caller: who, method, path: `${CM}/${big(n)}`, query: '', contentType: method === 'PATCH' ? MERGE_PATCH : 'application/json', body: method === 'PATCH' ? '{}' : method === 'PUT' ? JSON.stringify(cm({ name: big(n) })) : '', expect: { clientError: true } }),
  );
  const replicaAttacks = fc.record({ r: replicas, how: fc.nat(2), caller, dryRun }).map(({ r, how, caller: who, dryRun: q }) => {
    const base = { family: 'huge-metadata', caller: who, query: q, expect: { clientError: true } };
    if (how === 0 && md) return request({ ...base, method: 'POST', path: collectionPath(md, NS), contentType: 'application/json', body: JSON.stringify(machineDeployment('md-replicas', r)) });
    if (how === 1) return request({ ...base, method: 'PATCH', path: `/apis/cluster.x-k8s.io/v1beta2/namespaces/${NS}/machinesets/ms`, contentType: MERGE_PATCH, body: JSON.stringify({ spec: { replicas: r } }) });
    return request({ ...base, method: 'PUT', path: `/apis/cluster.x-k8s.io/v1beta2/namespaces/${NS}/machinesets/ms`, contentType: 'application/json', body: { overlay: { spec: { replicas: r } } } });
  });
  return fc.oneof({ arbitrary: fromMetadata, weight: 4 }, { arbitrary: namesInPath, weight: 1 }, { arbitrary: replicaAttacks, weight: 2 });
}

/** Wrong content types, empty and non-object bodies, odd apiVersions, random unicode and JSON. */
export function oddBodies(kinds: KindRegistry): fc.Arbitrary<HostileRequest> {
  const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-16', 'text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/yaml', 'APPLICATION/JSON', 'application/json+yaml', '*/*', '', 'application/vnd.kubernetes.protobuf', MERGE_PATCH, JSON_PATCH, 'multipart/form-data; boundary=x');
  const text = fc.oneof(
    fc.constantFrom('', ' ', '\n', '\u0000', 'null', '[]', '42', '"s"', 'true', '{}', '[{}]', '{"apiVersion":"/v1","kind":"ConfigMap","metadata":{"name":"slash"}}', '{"apiVersion":"v1/","kind":"ConfigMap","metadata":{"name":"s2"}}', '{"apiVersion":"//","kind":"ConfigMap","metadata":{"name":"s3"}}', '{"apiVersion":"apps/v1/x","kind":"ConfigMap","metadata":{"name":"s4"}}', '{"apiVersion":{},"kind":[],"metadata":"x"}', '\uFEFF{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"bom"}}', '--- !!binary AAAA', '&a [*a]', 'a: &a [*a, *a]'),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.string({ unit: 'grapheme', maxLength: 100 }),
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
    fc.object({ maxDepth: 3 }).map((o) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rand' }, ...o })),
  );
  const infos = kinds.all();
  return fc.record({ info: fc.constantFrom(...infos), method: fc.constantFrom('POST', 'PUT', 'PATCH'), name: dnsName, contentType, text, caller, dryRun }).map(({ info, method, name, contentType: type, text: body, caller: who, dryRun: q }) => {
    const collection = collectionPath(info, NS);
    const path = method === 'POST' ? collection : `${collection}/${name === 'c' ? name : 'c'}`;
    const slash = body.includes('"/v1"');
    return request({ family: 'odd-bodies', caller: who, method, path: info.kind === 'ConfigMap' || method === 'POST' ? path : `${collection}/${name}`, query: q, contentType: type, body, ...(slash ? { expect: { clientError: true } } : {}) });
  });
}

