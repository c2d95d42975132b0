import { describe, expect, it } from 'vitest';
import { handleApiRequest } from '../../../functions/api/api.js';
import type { Principal } from '../../../functions/api/auth.js';
import { isRecord } from '../../../shared/contracts/json.js';
import { memoryApiDeps } from '../../support/api-deps.js';

/**
 * The self reviews (`kubectl auth can-i`, `can-i --list`, `whoami`) answer from the caller's
 * principal with the rules the API enforces: all served verbs, reads only on read-only kinds, and
 * Secrets by their read and write permissions. Nothing is stored.
 */
const ADMIN: Principal = { name: 'capless-admin', canReadSecrets: true, canWriteSecrets: true };
const RESTRICTED: Principal = { name: 'reader', canReadSecrets: false, canWriteSecrets: false };
const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';

async function post(principal: Principal, path: string, body: unknown, method = 'POST') {
  const deps = memoryApiDeps({ authenticate: () => principal });
  const response = await handleApiRequest({ method, path, query: new URLSearchParams(), headers: { 'content-type': 'application/json' }, body: body === undefined ? '' : JSON.stringify(body) }, deps);
  const parsed: unknown = JSON.parse(response.body);
  return { status: response.status, body: isRecord(parsed) ? parsed : {} };
}

const canI = (principal: Principal, resourceAttributes: Record<string, string>) =>
  post(principal, SSAR, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes } });

describe('self access reviews', () => {
  it.each([
    [ADMIN, { verb: 'create', group: 'cluster.x-k8s.io', resource: 'clusters' }, true],
    [ADMIN, { verb: 'patch', group: 'cluster.x-k8s.io', resource: 'machinedeployments', subresource: 'scale' }, true],
    [ADMIN, { verb: 'update', group: 'cluster.x-k8s.io', resource: 'clusters', subresource: 'scale' }, false],
    [ADMIN, { verb: 'list', group: 'cluster.x-k8s.io', resource: 'machinepools' }, true],
    [ADMIN, { verb: 'create', group: 'cluster.x-k8s.io', resource: 'machinepools' }, false],
    [ADMIN, { verb: 'deletecollection', group: 'cluster.x-k8s.io', resource: 'clusters' }, false],
    [ADMIN, { verb: 'get', group: 'apps', resource: 'deployments' }, false],
    [ADMIN, { verb: 'get', group: '', resource: 'secrets' }, true],
    [RESTRICTED, { verb: 'list', group: '', resource: 'secrets' }, true],
    [RESTRICTED, { verb: 'watch', group: '', resource: 'secrets' }, true],
    [RESTRICTED, { verb: 'get', group: '', resource: 'secrets' }, false],
    [RESTRICTED, { verb: 'create', group: '', resource: 'secrets' }, false],
    [RESTRICTED, { verb: 'delete', group: 'cluster.x-k8s.io', resource: 'clusters' }, true],
    [ADMIN, { verb: 'get', group: 'cluster.x-k8s.io', resource: '*' }, true],
    [RESTRICTED, { verb: 'get', group: '*', resource: '*' }, false],
  ])('%o: %o is allowed=%s', async (principal, attributes, allowed) => {
    const answer = await canI(principal, attributes);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', spec: { resourceAttributes: attributes }, status: { allowed, reason: expect.any(String) } });
  });

  it.each([
    [{ verb: 'get', path: '/version' }, true],
    [{ verb: 'get', path: '/apis/cluster.x-k8s.io/v1beta2' }, true],
    [{ verb: 'post', path: '/version' }, false],
    [{ verb: 'get', path: '/metrics' }, false],
  ])('non-resource %o is allowed=%s', async (nonResourceAttributes, allowed) => {
    const answer = await post(ADMIN, SSAR, { spec: { nonResourceAttributes } });
    expect(answer.body).toMatchObject({ status: { allowed } });
  });

  it.each([
    ['neither attributes', { spec: {} }, 'spec.resourceAttributes'],
    ['both attributes', { spec: { resourceAttributes: { verb: 'get' }, nonResourceAttributes: { verb: 'get', path: '/api' } } }, 'spec.resourceAttributes'],
    ['another kind', { kind: 'SubjectAccessReview', spec: { resourceAttributes: { verb: 'get' } } }, 'kind'],
    ['another version', { apiVersion: 'authorization.k8s.io/v1beta1', spec: { resourceAttributes: { verb: 'get' } } }, 'apiVersion'],
  ])('refuses %s with a 422 naming the field', async (_what, body, field) => {
    const answer = await post(ADMIN, SSAR, body);
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ kind: 'Status', details: { causes: [expect.objectContaining({ field })] } });
  });

  it('a GET of the review resource is a 405', async () => {
    expect((await post(ADMIN, SSAR, {}, 'GET')).status).toBe(405);
  });
});

describe('self rules review and whoami', () => {
  it('lists the rules of the principal: Secrets without get for a restricted caller, the reviews, discovery', async () => {
    const answer = await post(RESTRICTED, '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { spec: { namespace: 'default' } });
    expect(answer.status).toBe(201);
    const rules = isRecord(answer.body.status) && Array.isArray(answer.body.status.resourceRules) ? answer.body.status.resourceRules : [];
    expect(rules).toContainEqual({ verbs: ['list', 'watch'], apiGroups: [''], resources: ['secrets'] });
    expect(rules).toContainEqual({ verbs: ['get', 'list', 'watch'], apiGroups: ['cluster.x-k8s.io'], resources: ['machinepools'] });
    expect(rules).toContainEqual({ verbs: ['get', 'patch', 'update'], apiGroups: ['cluster.x-k8s.io'], resources: ['machinedeployments/scale'] });
    expect(rules).toContainEqual({ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] });
    expect(answer.body).toMatchObject({ status: { incomplete: false, nonResourceRules: [{ verbs: ['get'] }] } });
  });

  it('a rules review without a namespace is a 422 naming spec.namespace', async () => {
    const answer = await post(ADMIN, '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { spec: {} });
    expect(answer).toMatchObject({ status: 422, body: { details: { causes: [{ field: 'spec.namespace' }] } } });
  });

  it('whoami names the principal', async () => {
    const answer = await post(RESTRICTED, '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    expect(answer).toMatchObject({ status: 201, body: { kind: 'SelfSubjectReview', status: { userInfo: { username: 'reader', groups: ['system:authenticated'] } } } });
  });

  it('discovery lists the review groups and their create-only resources', async () => {
    const groups = await post(ADMIN, '/apis', undefined, 'GET');
    const names = Array.isArray(groups.body.groups) ? groups.body.groups.map((g) => isRecord(g) && g.name) : [];
    expect(names).toEqual(expect.arrayContaining(['authorization.k8s.io', 'authentication.k8s.io']));
    const resources = await post(ADMIN, '/apis/authorization.k8s.io/v1', undefined, 'GET');
    expect(resources.body).toMatchObject({
      groupVersion: 'authorization.k8s.io/v1',
      resources: [
        { name: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', verbs: ['create'], namespaced: false },
        { name: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', verbs: ['create'], namespaced: false },
      ],
    });
  });
});
