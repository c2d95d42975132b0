import fc from 'fast-check';
import type { ApiRequest } from '../../functions/api/http.js';
import { MAX_BODY_BYTES } from '../../functions/api/http.js';

/** A request the API must refuse, what code(s) it may answer, and a word the message must contain. */
export interface BadRequest {
  label: string;
  request: ApiRequest;
  codes: readonly number[];
  mentions: RegExp;
}

export interface Seed {
  token: string;
  /** The stored Cluster `seed` in `default`: its resourceVersion and a valid body for it. */
  clusterResourceVersion: string;
  clusterBody: Record<string, unknown>;
}

const CLUSTERS = '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters';
const dnsName = fc.stringMatching(/^[a-z][a-z0-9-]{0,18}[a-z0-9]$/);

function request(seed: Seed, method: string, path: string, body = '', contentType = 'application/json', query = ''): ApiRequest {
  return {
    method,
    path,
    query: new URLSearchParams(query),
    headers: { authorization: `Bearer ${seed.token}`, 'content-type': contentType, accept: 'application/json' },
    body,
  };
}

const cluster = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Cluster',
  metadata: { name, namespace: 'default' },
  spec: { clusterNetwork: { pods: { cidrBlocks: ['192.168.0.0/16'] } } },
  ...extra,
});

/** Every family of bad request the property test draws from. */
export function badRequests(seed: Seed): fc.Arbitrary<BadRequest> {
  const seedPath = `${CLUSTERS}/seed`;
  const bad = (label: string, req: ApiRequest, codes: readonly number[], mentions: RegExp): BadRequest => ({ label, request: req, codes, mentions });

  const invalidJson = fc
    .tuple(dnsName, fc.constantFrom('{', '{"apiVersion":', '{"a":1,}', "{'a':1}", '[1,2', 'nul', '{"a":"\\x"}', '}{'), fc.string({ maxLength: 8 }))
    .map(([, broken, tail]) => bad('invalid JSON', request(seed, 'POST', CLUSTERS, broken + tail.replace(/[}\]"]/g, '')), [400], /JSON/i));

  const invalidYaml = fc
    .constantFrom('a: [1, 2', 'metadata: {name: x', 'key: "unterminated', '- a\nb: c', 'a:\n\t- tab', '{a: 1} extra', 'a: b: c')
    .map((text) => bad('invalid YAML', request(seed, 'POST', CLUSTERS, text, 'application/yaml'), [400], /YAML|object/i));

  const nonObjectBody = fc
    .constantFrom('[]', '"cluster"', '42', 'true', 'null', '[{"kind":"Cluster"}]')
    .map((text) => bad('body not an object', request(seed, 'POST', CLUSTERS, text), [400, 422], /object|body/i));

  const wrongContentType = fc
    .tuple(dnsName, fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'image/png', 'multipart/form-data', 'application/protobuf'))
    .map(([name, type]) => bad('wrong content type', request(seed, 'POST', CLUSTERS, JSON.stringify(cluster(name)), type), [415], /media type|format/i));

  const tooLarge = fc
    .integer({ min: 1, max: 4096 })
    .map((extra) => bad('body over the limit', request(seed, 'POST', CLUSTERS, `{"pad":"${'x'.repeat(MAX_BODY_BYTES + extra)}"}`), [413], /limit/i));

  const badNameInPath = fc
    .tuple(fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH'), fc.constantFrom('..', 'a..b', 'UPPER', 'under_score', 'sp ace', '-lead', 'trail-', 'a%2Fb', 'x'.repeat(254)))
    .map(([method, name]) =>
      bad('bad name in path', request(seed, method, `${CLUSTERS}/${name}`, JSON.stringify(cluster(name)), method === 'PATCH' ? 'application/merge-patch+json' : 'application/json'), [400, 404, 422], /./),
    );

  const slashInName = fc
    .tuple(fc.constantFrom('GET', 'PUT', 'DELETE'), dnsName, dnsName)
    .map(([method, a, b]) => bad('slash in name', request(seed, method, `${CLUSTERS}/${a}/${b}`, JSON.stringify(cluster(`${a}/${b}`))), [400, 404, 405], /./));

  const badNameInBody = fc
    .constantFrom('a/b', '../x', 'a..b', 'UPPER', 'under_score', '', ' ', '-x', 'x-', 'x'.repeat(254), 'é')
    .map((name) => bad('bad metadata.name', request(seed, 'POST', CLUSTERS, JSON.stringify(cluster(name))), [400, 422], /name/i));

  const unknownField = fc
    .tuple(dnsName, fc.constantFrom('bogus', 'specs', 'Spec', 'extra', 'metdata'))
    .map(([name, field]) => bad('unknown top-level field', request(seed, 'POST', CLUSTERS, JSON.stringify(cluster(name, { [field]: { a: 1 } }))), [400, 422], new RegExp(field)));

  const unknownMetadataField = fc
    .tuple(dnsName, fc.constantFrom('nmae', 'label', 'owner', 'finalizer'))
    .map(([name, field]) => {
      const body = cluster(name);
      return bad('unknown metadata field', request(seed, 'POST', CLUSTERS, JSON.stringify({ ...body, metadata: { ...body.metadata, [field]: 'x' } })), [400, 422], new RegExp(field));
    });

  const wrongApiVersion = fc
    .tuple(dnsName, fc.constantFrom('apps/v1', 'v1', 'cluster.x-k8s.io/v9', 'cluster.x-k8s.io', 'infrastructure.cluster.x-k8s.io/v1beta2', ''))
    .map(([name, apiVersion]) => bad('wrong apiVersion', request(seed, 'POST', CLUSTERS, JSON.stringify({ ...cluster(name), apiVersion })), [400, 404, 422], /apiVersion|version|group/i));

  const kindMismatch = fc
    .tuple(dnsName, fc.constantFrom('Machine', 'cluster', 'Clusters', 'ConfigMap', 'MachineDeployment', ''))
    .map(([name, kind]) => bad('kind does not match path', request(seed, 'POST', CLUSTERS, JSON.stringify({ ...cluster(name), kind })), [400, 404, 422], /kind|serves/i));

  const namespaceMismatch = dnsName.map((name) =>
    bad('namespace does not match path', request(seed, 'POST', CLUSTERS, JSON.stringify({ ...cluster(name), metadata: { name, namespace: 'other' } })), [400, 422], /namespace/i),
  );

  const putWithoutResourceVersion = fc.constant(null).map(() => {
    const body = { ...seed.clusterBody, metadata: { name: 'seed', namespace: 'default' } };
    return bad('PUT without resourceVersion', request(seed, 'PUT', seedPath, JSON.stringify(body)), [409, 422], /resourceVersion/i);
  });

  const staleResourceVersion = fc
    .string({ minLength: 1, maxLength: 12 })
    .filter((rv) => rv !== seed.clusterResourceVersion)
    .map((rv) => {
      const body = { ...seed.clusterBody, metadata: { name: 'seed', namespace: 'default', resourceVersion: rv, labels: { changed: 'yes' } } };
      return bad('stale resourceVersion', request(seed, 'PUT', seedPath, JSON.stringify(body)), [409, 400, 422], /modified|resourceVersion|conflict/i);
    });

  const nameMismatchOnPut = dnsName.filter((n) => n !== 'seed').map((name) => {
    const body = { ...seed.clusterBody, metadata: { name, namespace: 'default', resourceVersion: seed.clusterResourceVersion } };
    return bad('body name differs from path', request(seed, 'PUT', seedPath, JSON.stringify(body)), [400, 422], /name/i);
  });

  const badLabelSelector = fc
    .constantFrom('=foo', 'a in (', '!', 'a==b==c', 'a in b', ',,', 'key with space=1', 'a=(b)', 'in (a)', 'a notin', '!=x', 'a=b,', 'a b', 'Ünïcode=1')
    .map((selector) => bad('bad label selector', request(seed, 'GET', CLUSTERS, '', 'application/json', `labelSelector=${encodeURIComponent(selector)}`), [400], /selector|label/i));

  const badFieldSelector = fc
    .constantFrom('spec.replicas=1', 'status.phase=Running', 'metadata.labels=a', 'foo')
    .map((selector) => bad('bad field selector', request(seed, 'GET', CLUSTERS, '', 'application/json', `fieldSelector=${encodeURIComponent(selector)}`), [400], /field selector/i));

  const badLimit = fc
    .constantFrom('-1', 'abc', '1.5', '1e999', '--2')
    .map((limit) => bad('bad limit', request(seed, 'GET', CLUSTERS, '', 'application/json', `limit=${encodeURIComponent(limit)}`), [400], /limit/i));

  const badMergePatch = fc
    .constantFrom('[1,2]', '"string"', '42', '{"kind":"Machine"}', '{"apiVersion":"apps/v1"}', '{"metadata":{"name":"other"}}', '{"metadata":{"namespace":"other"}}', '{"bogus":1}', '{"metadata":{"resourceVersion":"1"}}')
    .map((patch) => bad('bad merge patch', request(seed, 'PATCH', seedPath, patch, 'application/merge-patch+json'), [400, 409, 422], /./));

  const badJsonPatch = fc
    .constantFrom(
      '{"op":"add"}',
      '[{"op":"bogus","path":"/spec"}]',
      '[{"op":"remove","path":"/spec/nothing/here"}]',
      '[{"op":"replace","path":"/missing","value":1}]',
      '[{"op":"add","path":"no-slash","value":1}]',
      '[{"op":"test","path":"/kind","value":"Machine"}]',
      '[{"op":"replace","path":"/kind","value":"Machine"}]',
      '[{"op":"move","from":"/nope","path":"/spec/x"}]',
      '[{"op":"copy","from":"/spec","path":"/spec/clusterNetwork/spec"}, {"op":"test","path":"/kind","value":"X"}]',
      '[{"op":"add","path":"/bogus","value":1}]',
      '[{"op":"replace","path":"/metadata/name","value":"renamed"}]',
      '[1]',
    )
    .map((patch) => bad('bad JSON patch', request(seed, 'PATCH', seedPath, patch, 'application/json-patch+json'), [400, 409, 422], /./));

  const badPatchType = fc
    .constantFrom('application/json', 'text/plain', 'application/apply-patch+yaml+x', '')
    .map((type) => bad('unsupported patch type', request(seed, 'PATCH', seedPath, '{"metadata":{"labels":{"a":"b"}}}', type), [415], /media type|format/i));

  const badDelete = fc
    .constantFrom(
      { query: 'propagationPolicy=Sometimes', body: '' },
      { query: '', body: '{"propagationPolicy":"Eventually"}' },
      { query: '', body: '{not json' },
      { query: 'propagationPolicy=orphan', body: '' },
    )
    .map(({ query, body }) => bad('bad delete options', request(seed, 'DELETE', seedPath, body, 'application/json', query), [400], /propagationPolicy|JSON/i));

  const unknownResource = fc
    .constantFrom(
      '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/widgets',
      '/apis/cluster.x-k8s.io/v9/namespaces/default/clusters',
      '/apis/example.com/v1/namespaces/default/things',
      '/api/v2/namespaces/default/secrets',
      `${seedPath}/scale`,
      `${seedPath}/status/extra`,
    )
    .map((path) => bad('unknown resource', request(seed, 'GET', path), [404], /not find|could not/i));

  const wrongMethod = fc
    .constantFrom({ method: 'POST', path: seedPath }, { method: 'PUT', path: CLUSTERS }, { method: 'DELETE', path: CLUSTERS }, { method: 'OPTIONS', path: seedPath }, { method: 'HEAD2', path: seedPath })
    .map(({ method, path }) => bad('method not allowed', request(seed, method, path, JSON.stringify(cluster('seed'))), [405], /not allowed|method|verb/i));

  const emptyBody = fc
    .constantFrom('', '   ', '\n')
    .map((body) => bad('empty body', request(seed, 'POST', CLUSTERS, body), [400], /empty/i));

  const unauthenticated = fc
    .constantFrom(undefined, '', 'Bearer', 'Bearer wrong', `Basic ${Buffer.from('a:b').toString('base64')}`, `bearer ${seed.token}x`)
    .chain((authorization) =>
      fc.constantFrom('GET', 'POST', 'DELETE').map((method) => {
        const req = request(seed, method, method === 'POST' ? CLUSTERS : seedPath, JSON.stringify(cluster('intruder')));
        const headers = { ...req.headers, authorization };
        return bad('not authenticated', { ...req, headers }, [401], /Unauthorized|token/i);
      }),
    );

  return fc.oneof(
    invalidJson, invalidYaml, nonObjectBody, wrongContentType, { arbitrary: tooLarge, weight: 1 },
    badNameInPath, slashInName, badNameInBody, unknownField, unknownMetadataField, wrongApiVersion, kindMismatch,
    namespaceMismatch, putWithoutResourceVersion, staleResourceVersion, nameMismatchOnPut, badLabelSelector,
    badFieldSelector, badLimit, badMergePatch, badJsonPatch, badPatchType, badDelete, unknownResource, wrongMethod,
    emptyBody, unauthenticated,
  );
}
