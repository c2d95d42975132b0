import { describe, expect, it } from 'vitest';
import { handleApiRequest } from '../../../functions/api/api.js';
import { memoryApiDeps } from '../../support/api-deps.js';

const NAMESPACES = '/api/v1/namespaces';
const admin = () => ({ name: 'admin', canReadSecrets: true, canWriteSecrets: true });

function call(deps: ReturnType<typeof memoryApiDeps>, method: string, path: string, body?: unknown) {
  return handleApiRequest(
    { method, path, query: new URLSearchParams(), headers: { 'content-type': 'application/json' }, body: body === undefined ? '' : JSON.stringify(body) },
    deps,
  ).then((response) => ({ status: response.status, body: JSON.parse(response.body) as Record<string, unknown> }));
}

const namespace = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, ...extra });

describe('Namespaces: served so clients that make one first find it; objects never need one', () => {
  it('create: Active, cluster-scoped, listed and read back', async () => {
    const deps = memoryApiDeps({ authenticate: admin });
    const created = await call(deps, 'POST', NAMESPACES, namespace('team-a'));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'Namespace', metadata: { name: 'team-a' }, status: { phase: 'Active' } });
    expect((await call(deps, 'GET', `${NAMESPACES}/team-a`)).body).toMatchObject({ metadata: { name: 'team-a' } });
    const listed = await call(deps, 'GET', NAMESPACES);
    expect(listed.body).toMatchObject({ kind: 'NamespaceList', items: [{ metadata: { name: 'team-a' } }] });
  });

  it.each([
    ['a Namespace', NAMESPACES, namespace('team-b', { metadata: { name: 'team-b', creationTimestamp: null }, spec: {}, status: {} })],
    ['a Secret', `${NAMESPACES}/default/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', creationTimestamp: null }, stringData: { a: 'b' } }],
  ])("%s as Go clients write it in JSON (kubectl 1.20's create: creationTimestamp null) is created", async (_what, path, body) => {
    const deps = memoryApiDeps({ authenticate: admin });
    const created = await call(deps, 'POST', path, body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ metadata: { creationTimestamp: expect.any(String) } });
  });

  it('an object goes into a namespace that has no Namespace, as before', async () => {
    const deps = memoryApiDeps({ authenticate: admin });
    const created = await call(deps, 'POST', `${NAMESPACES}/nowhere/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
    expect(created.status).toBe(201);
    expect((await call(deps, 'GET', `${NAMESPACES}/nowhere`)).status).toBe(404);
  });

  it.each([
    ['a name that is not a DNS-1123 label', namespace('team.a'), 'metadata.name'],
    ['a phase Kubernetes does not have', namespace('team-b', { status: { phase: 'Sleeping' } }), 'status.phase'],
    ['an unknown spec field', namespace('team-c', { spec: { quota: 3 } }), 'spec'],
  ])('create refuses %s: 422 naming the field', async (_what, body, field) => {
    const deps = memoryApiDeps({ authenticate: admin });
    const refused = await call(deps, 'POST', NAMESPACES, body);
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain(`"field":"${field}`);
  });

  it('delete is refused while the namespace holds objects, naming one; allowed once it is empty', async () => {
    const deps = memoryApiDeps({ authenticate: admin });
    await call(deps, 'POST', NAMESPACES, namespace('team-a'));
    const template = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'InMemoryMachineTemplate', metadata: { name: 'c1' }, spec: { template: { spec: {} } } };
    const templates = '/apis/infrastructure.cluster.x-k8s.io/v1beta2/namespaces/team-a/inmemorymachinetemplates';
    expect((await call(deps, 'POST', templates, template)).status).toBe(201);
    const refused = await call(deps, 'DELETE', `${NAMESPACES}/team-a`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ kind: 'Status', reason: 'Conflict', details: { kind: 'namespaces', name: 'team-a' } });
    expect(String(refused.body.message)).toContain('inmemorymachinetemplates.infrastructure.cluster.x-k8s.io "c1"');
    expect((await call(deps, 'GET', `${NAMESPACES}/team-a`)).status).toBe(200);

    expect((await call(deps, 'DELETE', `${templates}/c1`)).status).toBe(200);
    expect((await call(deps, 'DELETE', `${NAMESPACES}/team-a`)).status).toBe(200);
    expect((await call(deps, 'GET', `${NAMESPACES}/team-a`)).status).toBe(404);
  });
});
