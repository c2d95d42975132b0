import { describe, expect, it } from 'vitest';
import { handleApiRequest } from '../../../functions/api/api.js';
import { isRecord, stringAt } from '../../../shared/contracts/json.js';
import { memoryApiDeps } from '../../support/api-deps.js';

/**
 * Server-side apply through the API (`PATCH` with `application/apply-patch+yaml`), as
 * `kubectl apply --server-side`, Flux and Helm 4 send it: create on first apply, no write when
 * nothing changes, conflicts as 409 Statuses naming field and manager, `force`, the options
 * refused as the API server refuses them, and other writes taking the fields they change once
 * an object carries managedFields.
 */
const admin = () => ({ name: 'admin', canReadSecrets: true, canWriteSecrets: true });
const MDS = '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/machinedeployments';
const MD = `${MDS}/pool`;
const APPLY = 'application/apply-patch+yaml';

type Deps = ReturnType<typeof memoryApiDeps>;

async function call(deps: Deps, method: string, path: string, body: unknown, contentType: string, query = '', userAgent = 'kubectl/v1.32.0 (linux/amd64)') {
  const response = await handleApiRequest(
    { method, path, query: new URLSearchParams(query), headers: { 'content-type': contentType, 'user-agent': userAgent }, body: body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body) },
    deps,
  );
  const parsed: unknown = JSON.parse(response.body);
  return { status: response.status, body: isRecord(parsed) ? parsed : {} };
}

const get = async (deps: Deps) => (await call(deps, 'GET', MD, undefined, 'application/json')).body;

/** A MachineDeployment configuration (YAML, as kubectl sends it). */
function config(replicas: number, extra = ''): string {
  return [
    'apiVersion: cluster.x-k8s.io/v1beta2',
    'kind: MachineDeployment',
    'metadata:',
    '  name: pool',
    extra,
    'spec:',
    '  clusterName: c1',
    `  replicas: ${replicas}`,
    '  template:',
    '    spec:',
    '      clusterName: c1',
    '      version: v1.32.0',
    '      bootstrap: {configRef: {apiGroup: bootstrap.cluster.x-k8s.io, kind: KubeadmConfigTemplate, name: pool}}',
    '      infrastructureRef: {apiGroup: infrastructure.cluster.x-k8s.io, kind: InMemoryMachineTemplate, name: pool}',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

const managers = (body: Record<string, unknown>) =>
  (isRecord(body.metadata) && Array.isArray(body.metadata.managedFields) ? body.metadata.managedFields : []).map((e) => [stringAt(e, 'manager'), stringAt(e, 'operation'), stringAt(e, 'subresource')]);

async function applied(deps: Deps, replicas = 1, manager = 'flux', extra = '') {
  return call(deps, 'PATCH', MD, config(replicas, extra), APPLY, `fieldManager=${manager}`);
}

describe('server-side apply through the API', () => {
  it('creates the object on first apply (201), then changes nothing when applied again', async () => {
    const deps = memoryApiDeps({ authenticate: admin });
    const created = await applied(deps);
    expect(created.status).toBe(201);
    expect(managers(created.body)).toEqual([['flux', 'Apply', undefined]]);
    const rv = stringAt(created.body, 'metadata', 'resourceVersion');
    const again = await applied(deps);
    expect(again.status).toBe(200);
    expect(stringAt(again.body, 'metadata', 'resourceVersion')).toBe(rv);
  });

  it("a value another manager set is a 409 naming the field and manager; force takes it", async () => {
    const deps = memoryApiDeps({ authenticate: admin });
    await applied(deps, 1, 'kubectl');
    const conflict = await applied(deps, 3, 'flux');
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({
      kind: 'Status',
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "kubectl" using cluster.x-k8s.io/v1beta2: .spec.replicas',
      details: { causes: [{ reason: 'FieldManagerConflict', field: '.spec.replicas' }] },
    });
    const forced = await call(deps, 'PATCH', MD, config(3), APPLY, 'fieldManager=flux&force=true');
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({ spec: { replicas: 3 } });
  });

  it('a scale or a patch after an apply takes the fields it changed: the next apply conflicts with it', async () => {
    const deps = memoryApiDeps({ authenticate: admin });
    await applied(deps);
    expect((await call(deps, 'PATCH', `${MD}/scale`, { spec: { replicas: 4 } }, 'application/merge-patch+json')).status).toBe(200);
    expect((await call(deps, 'PATCH', MD, { metadata: { labels: { team: 'a' } } }, 'application/merge-patch+json', 'fieldManager=kubectl-label')).status).toBe(200);
    expect(managers(await get(deps))).toEqual([
      ['flux', 'Apply', undefined],
      ['kubectl', 'Update', 'scale'],
      ['kubectl-label', 'Update', undefined],
    ]);
    const conflict = await applied(deps, 1);
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ details: { causes: [{ message: 'conflict with "kubectl" with subresource "scale" using cluster.x-k8s.io/v1beta2', field: '.spec.replicas' }] } });
    expect(await applied(deps, 4)).toMatchObject({ status: 200 });
  });

  it('a field the manager no longer applies is removed', async () => {
    const deps = memoryApiDeps({ authenticate: admin });
    await applied(deps, 1, 'flux', '  labels: {team: a, tier: b}');
    const after = await applied(deps, 1, 'flux', '  labels: {team: a}');
    expect(after.body).toMatchObject({ metadata: { labels: { team: 'a' } } });
    expect(stringAt(after.body, 'metadata', 'labels', 'tier')).toBeUndefined();
  });

  it('an object never applied gets no managedFields from other writes', async () => {
    const deps = memoryApiDeps({ authenticate: admin });
    const created = await call(deps, 'PATCH', MD, config(1), APPLY, 'fieldManager=flux&dryRun=All');
    expect(created.status).toBe(201);
    expect((await call(deps, 'GET', MD, undefined, 'application/json')).status).toBe(404);
    const { parse } = await import('yaml');
    expect((await call(deps, 'POST', MDS, parse(config(1)), 'application/json')).status).toBe(201);
    await call(deps, 'PATCH', MD, { spec: { replicas: 2 } }, 'application/merge-patch+json');
    expect(managers(await get(deps))).toEqual([]);
  });

  it('a replacement without managedFields keeps them; [] resets them', async () => {
    const deps = memoryApiDeps({ authenticate: admin });
    await applied(deps);
    const current = await get(deps);
    const { managedFields: _kept, ...metadata } = isRecord(current.metadata) ? current.metadata : {};
    const replaced = await call(deps, 'PUT', MD, { ...current, metadata }, 'application/json');
    expect(managers(replaced.body)).toEqual([['flux', 'Apply', undefined]]);
    const reset = await call(deps, 'PUT', MD, { ...replaced.body, metadata: { ...(isRecord(replaced.body.metadata) ? replaced.body.metadata : {}), managedFields: [] } }, 'application/json');
    expect(managers(reset.body)).toEqual([]);
  });

  it.each([
    ['no fieldManager', config(1), '', 422, 'fieldManager'],
    ['a fieldManager over 128 characters', config(1), `fieldManager=${'m'.repeat(129)}`, 422, 'fieldManager'],
    ['force that is not a boolean', config(1), 'fieldManager=flux&force=maybe', 422, 'force'],
    ['another kind', config(1).replace('kind: MachineDeployment', 'kind: MachineSet'), 'fieldManager=flux', 400, 'kind'],
    ['another group', config(1).replace('cluster.x-k8s.io/v1beta2', 'apps/v1'), 'fieldManager=flux', 400, 'apiVersion'],
    ["another object's name", config(1).replace('name: pool', 'name: other'), 'fieldManager=flux', 400, 'metadata.name'],
    ['an invalid spec (admission)', config(-1), 'fieldManager=flux', 422, 'spec.replicas'],
  ])('an apply with %s is refused with a Status naming the field', async (_what, body, query, code, field) => {
    const deps = memoryApiDeps({ authenticate: admin });
    const refused = await call(deps, 'PATCH', MD, body, APPLY, query);
    expect(refused.status).toBe(code);
    expect(refused.body).toMatchObject({ kind: 'Status', code, details: { causes: [expect.objectContaining({ field })] } });
    expect((await call(deps, 'GET', MD, undefined, 'application/json')).status).toBe(404);
  });

  it('apply on the status subresource is a 415 that says so, and changes nothing', async () => {
    const deps = memoryApiDeps({ authenticate: admin });
    await applied(deps);
    const before = await get(deps);
    const refused = await call(deps, 'PATCH', `${MD}/status`, config(5), APPLY, 'fieldManager=flux');
    expect(refused.status).toBe(415);
    expect(refused.body).toMatchObject({ kind: 'Status', message: expect.stringContaining('machinedeployments/status') });
    expect(await get(deps)).toEqual(before);
  });

  it.each([
    ['force on a merge patch', { spec: { replicas: 2 } }, 'application/merge-patch+json', 'force=true', 'force'],
    ['managedFields with an unknown operation', { metadata: { managedFields: [{ manager: 'x', operation: 'Delete', fieldsType: 'FieldsV1', fieldsV1: {} }] } }, 'application/merge-patch+json', '', 'metadata.managedFields[0].operation'],
    ['managedFields that are not field sets', { metadata: { managedFields: [{ manager: 'x', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { spec: {} } }] } }, 'application/merge-patch+json', '', 'metadata.managedFields[0].fieldsV1'],
  ])('a write with %s is refused with a Status naming the field', async (_what, body, contentType, query, field) => {
    const deps = memoryApiDeps({ authenticate: admin });
    await applied(deps);
    const before = await get(deps);
    const refused = await call(deps, 'PATCH', MD, body, contentType, query);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ kind: 'Status', details: { causes: [expect.objectContaining({ field })] } });
    expect(await get(deps)).toEqual(before);
  });
});
