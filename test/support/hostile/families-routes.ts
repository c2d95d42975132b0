import fc from 'fast-check';
import type { KindInfo, KindRegistry } from '../../../shared/contracts/kinds.js';
import { JSON_PATCH, MERGE_PATCH, METHODS, caller, dnsName, dryRun, objectName, plainObject, request } from './common.js';
import type { HostileRequest } from './model.js';
import { NS, SECRET_VALUES, collectionPath } from './seeds.js';

type Shape = 'collection' | 'all-namespaces' | 'named' | 'status' | 'extra-segment';

/** Every served kind's list/get/create/replace/patch/delete/status paths, with every method. */
export function routes(kinds: KindRegistry): fc.Arbitrary<HostileRequest> {
  const infos = kinds.all();
  const version = (info: KindInfo) => fc.oneof({ arbitrary: fc.constantFrom(...info.versions), weight: 6 }, { arbitrary: fc.constantFrom('v9', 'v1beta2', 'v1', 'V1'), weight: 1 });
  const shape = fc.constantFrom<Shape>('collection', 'collection', 'all-namespaces', 'named', 'named', 'named', 'status', 'extra-segment');
  const namespace = fc.oneof({ arbitrary: fc.constant(NS), weight: 5 }, { arbitrary: fc.constantFrom('kube-system', 'other'), weight: 1 }, { arbitrary: dnsName, weight: 1 });
  const method = fc.oneof({ arbitrary: fc.constantFrom(...METHODS), weight: 10 }, { arbitrary: fc.constantFrom('get', 'TRACE', 'PROPFIND', 'HEAD2'), weight: 1 });
  return fc
    .record({ info: fc.constantFrom(...infos), shape, namespace, name: objectName, method, dryRun, caller, variant: fc.nat(7) })
    .chain((r) => version(r.info).map((v) => ({ ...r, version: v })))
    .map(({ info, shape: s, namespace: ns, name, method: m, dryRun: dry, caller: who, variant, version: v }) => {
      const collection = collectionPath(info, s === 'all-namespaces' ? undefined : ns, v);
      const path = s === 'collection' || s === 'all-namespaces' ? collection : s === 'named' ? `${collection}/${name}` : s === 'status' ? `${collection}/${name}/status` : `${collection}/${name}/scale`;
      const body = bodyFor(info, name, m, variant);
      return request({ family: 'routes', caller: who, method: m, path, query: dry, ...body });
    });
}

function bodyFor(info: KindInfo, name: string, method: string, variant: number): Pick<HostileRequest, 'body' | 'contentType'> {
  switch (method) {
    case 'POST':
      return { contentType: variant === 0 ? 'application/yaml' : 'application/json', body: variant === 0 ? `apiVersion: v1\nkind: ${info.kind}\nmetadata:\n  name: ${name}\n` : JSON.stringify(plainObject(info, variant < 4 ? name : `${name}-${variant}`)) };
    case 'PUT':
      return variant < 4
        ? { contentType: 'application/json', body: { overlay: variant === 0 ? {} : { metadata: { labels: { touched: String(variant) } } } } }
        : { contentType: 'application/json', body: JSON.stringify(plainObject(info, name)) };
    case 'PATCH':
      return [
        { contentType: MERGE_PATCH, body: '{}' },
        { contentType: MERGE_PATCH, body: '{"metadata":{"labels":{"patched":"yes"}}}' },
        { contentType: JSON_PATCH, body: '[]' },
        { contentType: JSON_PATCH, body: '[{"op":"add","path":"/metadata/annotations","value":{"a":"b"}}]' },
        { contentType: 'application/strategic-merge-patch+json', body: '{"spec":{}}' },
        { contentType: 'application/apply-patch+yaml', body: 'metadata: {}' },
        { contentType: MERGE_PATCH, body: '{"status":{"phase":"Hacked"}}' },
        { contentType: MERGE_PATCH, body: '{"metadata":{"finalizers":["example.com/hold"]}}' },
      ][variant] as Pick<HostileRequest, 'body' | 'contentType'>;
    case 'DELETE':
      return { contentType: 'application/json', body: ['', '{"propagationPolicy":"Orphan"}', '{"preconditions":{"resourceVersion":"1"}}', '{"kind":"DeleteOptions","apiVersion":"v1","dryRun":["All"]}'][variant % 4] ?? '' };
    default:
      return { body: variant === 1 ? JSON.stringify(plainObject(info, name)) : '' };
  }
}

const GROUPS = ['cluster.x-k8s.io', 'bootstrap.cluster.x-k8s.io', 'infrastructure.cluster.x-k8s.io', 'example.com', '..', 'x'.repeat(300)];

/** Discovery documents, OpenAPI, health, and paths that are nothing at all. */
export function discoveryAndUnknown(): fc.Arbitrary<HostileRequest> {
  const known = fc.constantFrom(
    '/api', '/api/', '/api/v1', '/api/v2', '/apis', '/apis/', '/version', '/openapi/v2', '/openapi/v3', '/openapi/v3/apis/cluster.x-k8s.io/v1beta2',
    '/openapi/v3/api/v1', '/openapi/v3/../../etc/passwd', '/swagger-2.0.0.pb-v1', '/healthz', '/readyz', '/livez', '/metrics', '/', '//', '///api///v1',
    '/api/v1/namespaces', '/api/v1/namespaces/default', '/api/v1/namespaces/default/', '/api/v1/namespaces//configmaps', '/apis/cluster.x-k8s.io//namespaces/default/clusters',
    '/api/v1/namespaces/default/configmaps/c/status', '/api/v1/namespaces/default/configmaps/c/c/c', '/api/v1/secrets/s1', '/api/v1/namespaces/default/secrets/s1/',
  );
  const built = fc.tuple(fc.constantFrom(...GROUPS), fc.constantFrom('v1', 'v1beta2', '', 'v1beta2/namespaces', '..')).map(([g, v]) => `/apis/${g}/${v}`);
  const junk = fc.array(fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 8 }), fc.constantFrom('..', '.', '', '%2e', 'api', 'apis', 'namespaces')), { minLength: 1, maxLength: 8 }).map((parts) => `/${parts.join('/')}`);
  return fc
    .record({ path: fc.oneof(known, built, junk), method: fc.constantFrom(...METHODS), caller, query: fc.constantFrom('', 'watch=true', 'timeout=32s', 'labelSelector=a') })
    .map(({ path, method, caller: who, query }) => request({ family: 'discovery+unknown', caller: who, method, path, query, body: method === 'POST' || method === 'PUT' ? '{}' : '', contentType: 'application/json' }));
}

/** Percent-encoded paths: in-process the handler gets the raw path; over HTTP the server decodes it. All must be refused. */
export const PERCENT_PATHS: readonly { method: string; wire: string; body?: string }[] = [
  { method: 'GET', wire: '/api/v1/namespaces/default/secrets%2fs1' },
  { method: 'GET', wire: '/api/v1/namespaces/default/secrets%2Fs1' },
  { method: 'GET', wire: '/api/v1/namespaces/default%2fsecrets/s1' },
  { method: 'GET', wire: '/api%2fv1/namespaces/default/configmaps/c' },
  { method: 'DELETE', wire: '/api/v1/namespaces/default/configmaps%2fc' },
  { method: 'GET', wire: '/api/v1/namespaces/default/configmaps/%2e%2e' },
  { method: 'GET', wire: '/api/v1/namespaces/default/configmaps/c%00' },
  { method: 'GET', wire: '/api/v1/namespaces/default/configmaps/c%252f' },
  { method: 'GET', wire: '/api/v1/namespaces/default/configmaps/%c0%af' },
  { method: 'GET', wire: '/api/v1/namespaces/default/configmaps/%zz' },
  { method: 'GET', wire: '/api/v1/namespaces/%2e%2e/secrets/s1' },
  { method: 'POST', wire: '/api/v1/namespaces/%2e%2e/configmaps', body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"escaped"}}' },
  { method: 'POST', wire: '/api/v1/namespaces/%2E%2E/configmaps', body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"escaped2"}}' },
  { method: 'POST', wire: '/api/v1/namespaces/default%2f..%2fkube-system/configmaps', body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"escaped3"}}' },
  { method: 'PUT', wire: '/api/v1/namespaces/default/configmaps/c%2f', body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}' },
];

export function percentEncoded(): fc.Arbitrary<HostileRequest> {
  return fc.tuple(fc.constantFrom(...PERCENT_PATHS), caller).map(([p, who]) =>
    request({ family: 'percent-encoded', caller: who === 'anonymous' ? 'admin' : who, method: p.method, path: p.wire, wirePath: p.wire, query: '', contentType: 'application/json', body: p.body ?? '', expect: { clientError: true } }),
  );
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Forged continue tokens, odd field and label selectors, limit garbage, watch. */
export function listQueries(kinds: KindRegistry): fc.Arbitrary<HostileRequest> {
  const continueToken = fc.oneof(
    fc.base64String({ maxLength: 64 }),
    fc.string({ maxLength: 40 }),
    fc.jsonValue({ maxDepth: 3 }).map(b64url),
    fc.record({ namespace: fc.jsonValue({ maxDepth: 2 }), name: fc.jsonValue({ maxDepth: 2 }) }).map(b64url),
    fc.constantFrom(b64url({ namespace: 'default', name: 'x'.repeat(5000) }), b64url({ namespace: '\u0000', name: '\uffff' }), b64url(null), b64url([]), 'eyJ', '====', b64url({ namespace: { toString: 1 }, name: 'c' })),
  );
  const fieldSelector = fc.oneof(
    fc.constantFrom('metadata.name=', 'metadata.name==', 'metadata.namespace=', 'metadata.name!=c', 'metadata.name=c,metadata.name=d', ',', '=', '==', 'metadata.name', 'metadata.name=\u0000', `metadata.name=${'a'.repeat(2000)}`, 'metadata.namespace=..', 'spec.x=1'),
    fc.string({ maxLength: 30 }).map((s) => `metadata.name=${s}`),
  );
  const labelSelector = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom('a in (b', 'a in ()', '!', 'a,,b', 'a=b=c', `${'k'.repeat(5000)}=v`, 'a=\u0000', 'a notin (x', '__proto__=1', 'constructor', `a in (${'x,'.repeat(3000)}x)`),
  );
  const limit = fc.constantFrom('0', '-0', '1', '1e3', '0x10', '99999999999999999999', 'NaN', 'Infinity', ' 1', '1 ', '', '-1', '2147483648', '1.0');
  const param = fc.oneof(
    continueToken.map((v) => ['continue', v]),
    fieldSelector.map((v) => ['fieldSelector', v]),
    labelSelector.map((v) => ['labelSelector', v]),
    limit.map((v) => ['limit', v]),
    fc.constantFrom(['watch', 'true'], ['watch', '1'], ['watch', 'false'], ['resourceVersion', 'abc'], ['resourceVersionMatch', 'Exact'], ['timeoutSeconds', '-1'], ['allowWatchBookmarks', 'true'], ['dryRun', 'All']),
  );
  return fc
    .record({ info: fc.constantFrom(...kinds.all()), allNamespaces: fc.boolean(), params: fc.array(param, { minLength: 1, maxLength: 4 }), caller })
    .map(({ info, allNamespaces, params, caller: who }) => {
      const query = new URLSearchParams(params as [string, string][]);
      const watch = ['true', '1'].includes(query.get('watch') ?? '');
      return request({ family: 'list-queries', caller: who, method: 'GET', path: collectionPath(info, allNamespaces ? undefined : NS), query: query.toString(), body: '', ...(watch ? { expect: { watchStream: true, noSecret: true } } : {}) });
    });
}

const SECRETS = '/api/v1/namespaces/default/secrets';
const b64 = (t: string) => Buffer.from(t).toString('base64');

/** Every verb on Secrets, mostly by the principal without secrets permissions. */
export function secrets(): fc.Arbitrary<HostileRequest> {
  const named = fc.constantFrom('s1', 's1', 'nope');
  const attempts: fc.Arbitrary<Omit<HostileRequest, 'family' | 'caller' | 'query'>> = fc.oneof(
    named.map((n) => ({ method: 'GET', path: `${SECRETS}/${n}`, body: '' })),
    named.map((n) => ({ method: 'HEAD', path: `${SECRETS}/${n}`, body: '' })),
    named.map((n) => ({ method: 'PATCH', path: `${SECRETS}/${n}`, contentType: MERGE_PATCH, body: '{}' })),
    named.map((n) => ({ method: 'PATCH', path: `${SECRETS}/${n}`, contentType: JSON_PATCH, body: '[]' })),
    named.map((n) => ({ method: 'PATCH', path: `${SECRETS}/${n}`, contentType: JSON_PATCH, body: JSON.stringify([{ op: 'test', path: '/data/k', value: b64(SECRET_VALUES[0]) }]) })),
    named.map((n) => ({ method: 'PATCH', path: `${SECRETS}/${n}`, contentType: JSON_PATCH, body: '[{"op":"copy","from":"/data/k","path":"/metadata/labels/x"}]' })),
    named.map((n) => ({ method: 'PATCH', path: `${SECRETS}/${n}`, contentType: JSON_PATCH, body: '[{"op":"move","from":"/data/ca","path":"/metadata/annotations"}]' })),
    named.map((n) => ({ method: 'PATCH', path: `${SECRETS}/${n}`, contentType: MERGE_PATCH, body: '{"data":{"k":"b3duZWQ="}}' })),
    named.map((n) => ({ method: 'PUT', path: `${SECRETS}/${n}`, contentType: 'application/json', body: { overlay: {} } })),
    named.map((n) => ({ method: 'PUT', path: `${SECRETS}/${n}`, contentType: 'application/json', body: { overlay: { metadata: { resourceVersion: '1' } } } })),
    named.map((n) => ({ method: 'DELETE', path: `${SECRETS}/${n}`, body: '' })),
    fc.constant({ method: 'POST', path: SECRETS, contentType: 'application/json', body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'planted' }, stringData: { k: 'x' } }) }),
    fc.constant({ method: 'POST', path: SECRETS, contentType: 'application/json', body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' } }) }),
    fc.constant({ method: 'POST', path: '/api/v1/secrets', contentType: 'application/json', body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'planted', namespace: 'default' } }) }),
    fc.constantFrom(SECRETS, '/api/v1/secrets').map((p) => ({ method: 'GET', path: p, body: '' })),
    fc.constant({ method: 'GET', path: `${SECRETS}/s1/status`, body: '' }),
  );
  const query = fc.constantFrom('', 'dryRun=All', 'fieldSelector=metadata.name%3Ds1', 'limit=1', 'labelSelector=a');
  return fc
    .record({ attempt: attempts, query, who: fc.oneof({ arbitrary: fc.constant('restricted' as const), weight: 4 }, { arbitrary: fc.constant('admin' as const), weight: 1 }) })
    .map(({ attempt, query: q, who }) => {
      const mutating = !['GET', 'HEAD'].includes(attempt.method);
      // The admin only dry-runs changes to the seeded Secret, so its values stay the ones searched for.
      const dry = who === 'admin' && mutating && !q.includes('dryRun') ? `${q ? `${q}&` : ''}dryRun=All` : q;
      const copyToLabel = typeof attempt.body === 'string' && attempt.body.includes('"/metadata/labels/x"');
      return request({ family: 'secrets', caller: who, query: dry, ...attempt, ...(copyToLabel ? { expect: { noSecret: true } } : {}) });
    });
}

