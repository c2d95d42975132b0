import { describe, expect, it } from 'vitest';
import { handleApiRequest } from '../../../functions/api/api.js';
import { isRecord } from '../../../shared/contracts/json.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { memoryApiDeps } from '../../support/api-deps.js';
import { lifecycleCluster } from '../../support/lifecycle-manifests.js';

/**
 * The `/scale` subresource (autoscaling/v1 Scale) of MachineDeployments, MachineSets and
 * KubeadmControlPlanes, as the API server serves it for Cluster API's CRDs: what `kubectl scale`
 * and the cluster autoscaler's Cluster API provider use. A write sets `spec.replicas` and is an
 * update of the object, with the object's own validation.
 */
const admin = () => ({ name: 'admin', canReadSecrets: true, canWriteSecrets: true });
const CORE = '/apis/cluster.x-k8s.io/v1beta2/namespaces/default';
const MD = `${CORE}/machinedeployments/c1-md-0`;
const KCP = '/apis/controlplane.cluster.x-k8s.io/v1beta2/namespaces/default/kubeadmcontrolplanes/c1-control-plane';

type Deps = ReturnType<typeof memoryApiDeps>;

async function call(deps: Deps, method: string, path: string, body?: unknown, contentType = 'application/json', query = '') {
  const response = await handleApiRequest(
    { method, path, query: new URLSearchParams(query), headers: { 'content-type': contentType }, body: body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body) },
    deps,
  );
  const parsed: unknown = JSON.parse(response.body);
  return { status: response.status, body: isRecord(parsed) ? parsed : {} };
}

/** A MachineDeployment (2 replicas, 2 counted by its status) and a KubeadmControlPlane (1 replica). */
async function seeded(): Promise<Deps> {
  const deps = memoryApiDeps({ authenticate: admin });
  const objects = lifecycleCluster('c1', { controlPlaneReplicas: 1, workerReplicas: 2 });
  for (const object of objects.filter((o) => o.kind === 'MachineDeployment' || o.kind === 'KubeadmControlPlane')) {
    const plural = object.kind === 'MachineDeployment' ? `${CORE}/machinedeployments` : '/apis/controlplane.cluster.x-k8s.io/v1beta2/namespaces/default/kubeadmcontrolplanes';
    const created = await call(deps, 'POST', plural, object);
    expect(created.status).toBe(201);
  }
  const md = await call(deps, 'GET', MD);
  const selector = 'cluster.x-k8s.io/cluster-name=c1,cluster.x-k8s.io/deployment-name=c1-md-0';
  expect((await call(deps, 'PUT', `${MD}/status`, { ...md.body, status: { replicas: 2, selector } })).status).toBe(200);
  return deps;
}

async function object(deps: Deps, path: string): Promise<KubeObject & { spec?: { replicas?: number } }> {
  const { body } = await call(deps, 'GET', path);
  const metadata = isRecord(body.metadata) ? body.metadata : {};
  return { apiVersion: String(body.apiVersion), kind: String(body.kind), metadata: { name: String(metadata.name), resourceVersion: String(metadata.resourceVersion), generation: Number(metadata.generation) }, spec: isRecord(body.spec) ? { replicas: Number(body.spec.replicas) } : {} };
}

/** An object without the fields a scale write changes: its replicas, generation and resourceVersion. */
function withoutScaledFields(body: Record<string, unknown>): unknown {
  const copy = structuredClone(body);
  if (isRecord(copy.spec)) delete copy.spec.replicas;
  if (isRecord(copy.metadata)) {
    delete copy.metadata.generation;
    delete copy.metadata.resourceVersion;
  }
  return copy;
}

describe('the scale subresource', () => {
  it("GET reads the object's desired and counted replicas and its selector as a Scale", async () => {
    const deps = await seeded();
    const md = await call(deps, 'GET', MD);
    const scale = await call(deps, 'GET', `${MD}/scale`);
    expect(scale.status).toBe(200);
    const metadata = isRecord(md.body.metadata) ? md.body.metadata : {};
    expect(scale.body).toEqual({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'c1-md-0', namespace: 'default', uid: metadata.uid, resourceVersion: metadata.resourceVersion, creationTimestamp: metadata.creationTimestamp },
      spec: { replicas: 2 },
      status: { replicas: 2, selector: 'cluster.x-k8s.io/cluster-name=c1,cluster.x-k8s.io/deployment-name=c1-md-0' },
    });
  });

  it.each([
    ['a merge patch (kubectl scale)', 'PATCH', { spec: { replicas: 5 } }, 'application/merge-patch+json', 5],
    ['a JSON patch', 'PATCH', [{ op: 'replace', path: '/spec/replicas', value: 4 }], 'application/json-patch+json', 4],
    ['a PUT without a resourceVersion (unconditional)', 'PUT', { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'c1-md-0' }, spec: { replicas: 3 } }, 'application/json', 3],
    ['a PUT without spec.replicas: zero, as Go decodes it', 'PUT', { metadata: { name: 'c1-md-0' }, spec: {} }, 'application/json', 0],
  ])('%s sets spec.replicas and nothing else, as an update of the object', async (_how, method, body, contentType, replicas) => {
    const deps = await seeded();
    const before = await object(deps, MD);
    const { body: fullBefore } = await call(deps, 'GET', MD);
    const written = await call(deps, method, `${MD}/scale`, body, contentType);
    expect(written.status).toBe(200);
    expect(written.body).toMatchObject({ kind: 'Scale', spec: replicas === 0 ? {} : { replicas }, status: { replicas: 2 } });
    const after = await object(deps, MD);
    expect(after.spec?.replicas).toBe(replicas);
    expect(after.metadata.generation).toBe((before.metadata.generation ?? 0) + 1);
    expect(written.body).toMatchObject({ metadata: { resourceVersion: after.metadata.resourceVersion } });
    const { body: fullAfter } = await call(deps, 'GET', MD);
    expect(withoutScaledFields(fullAfter)).toEqual(withoutScaledFields(fullBefore));
  });

  it('a PUT with the resourceVersion the client read is a precondition: a stale one is a 409 and changes nothing', async () => {
    const deps = await seeded();
    const { body: scale } = await call(deps, 'GET', `${MD}/scale`);
    expect((await call(deps, 'PATCH', MD, { metadata: { labels: { touched: 'yes' } } }, 'application/merge-patch+json')).status).toBe(200);
    const stale = await call(deps, 'PUT', `${MD}/scale`, { ...scale, spec: { replicas: 7 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ kind: 'Status', reason: 'Conflict' });
    expect((await object(deps, MD)).spec?.replicas).toBe(2);
    const { body: fresh } = await call(deps, 'GET', `${MD}/scale`);
    expect((await call(deps, 'PUT', `${MD}/scale`, { ...fresh, spec: { replicas: 7 } })).status).toBe(200);
    expect((await object(deps, MD)).spec?.replicas).toBe(7);
  });

  it('dryRun=All answers the Scale it would write and writes nothing', async () => {
    const deps = await seeded();
    const before = await object(deps, MD);
    const dry = await call(deps, 'PATCH', `${MD}/scale`, { spec: { replicas: 9 } }, 'application/merge-patch+json', 'dryRun=All');
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ spec: { replicas: 9 } });
    expect(await object(deps, MD)).toEqual(before);
  });

  it.each([
    ['a negative count (the object validation)', MD, { spec: { replicas: -1 } }, 422, 'spec.replicas'],
    ['an even count for a stacked-etcd control plane (the object validation)', KCP, { spec: { replicas: 2 } }, 422, 'spec.replicas'],
    ['a count that is not an integer', MD, { spec: { replicas: 'three' } }, 400, 'spec.replicas'],
    ['a count past 32 bits', MD, { spec: { replicas: 2 ** 31 } }, 400, 'spec.replicas'],
    ['another API version', MD, { apiVersion: 'apps/v1', spec: { replicas: 1 } }, 400, 'apiVersion'],
    ['another kind', MD, { kind: 'Deployment', spec: { replicas: 1 } }, 400, 'kind'],
    ["another object's name", MD, { metadata: { name: 'other' }, spec: { replicas: 1 } }, 400, 'metadata.name'],
    ['another namespace', MD, { metadata: { namespace: 'kube-system' }, spec: { replicas: 1 } }, 400, 'metadata.namespace'],
    ['a spec that is not an object', MD, { spec: [1] }, 400, 'spec'],
  ])('refuses %s with a Status naming the field, and changes nothing', async (_what, path, patch, code, field) => {
    const deps = await seeded();
    const before = await object(deps, path);
    const refused = await call(deps, 'PATCH', `${path}/scale`, patch, 'application/merge-patch+json');
    expect(refused.status).toBe(code);
    expect(refused.body).toMatchObject({ kind: 'Status', code, details: { causes: [expect.objectContaining({ field })] } });
    expect(await object(deps, path)).toEqual(before);
  });

  it.each([
    ['POST', `${MD}/scale`, 405],
    ['DELETE', `${MD}/scale`, 405],
    ['GET', `${CORE}/clusters/c1/scale`, 404],
    ['GET', `${CORE}/machinedeployments/missing/scale`, 404],
    ['GET', `${CORE}/machinedeployments/c1-md-0/scale/more`, 404],
  ])('%s %s is a %s Status', async (method, path, code) => {
    const deps = await seeded();
    const answered = await call(deps, method, path, method === 'GET' ? undefined : { spec: { replicas: 1 } });
    expect(answered.status).toBe(code);
    expect(answered.body).toMatchObject({ kind: 'Status', code });
  });

  it('discovery lists the scale subresources as autoscaling/v1 Scale, where the CRDs declare one', async () => {
    const deps = memoryApiDeps({ authenticate: admin });
    const { body } = await call(deps, 'GET', '/apis/cluster.x-k8s.io/v1beta2');
    const names = Array.isArray(body.resources) ? body.resources.filter(isRecord) : [];
    expect(names.filter((r) => String(r.name).endsWith('/scale'))).toEqual([
      { name: 'machinesets/scale', singularName: '', namespaced: true, verbs: ['get', 'patch', 'update'], group: 'autoscaling', version: 'v1', kind: 'Scale' },
      { name: 'machinedeployments/scale', singularName: '', namespaced: true, verbs: ['get', 'patch', 'update'], group: 'autoscaling', version: 'v1', kind: 'Scale' },
    ]);
  });
});
