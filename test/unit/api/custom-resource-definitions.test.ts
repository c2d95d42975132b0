import { describe, expect, it } from 'vitest';
import { handleApiRequest } from '../../../functions/api/api.js';
import { contractLabels } from '../../../shared/contracts/crds/custom-resource-definition.js';
import { isRecord, stringAt } from '../../../shared/contracts/json.js';
import { builtinProviderLookup } from '../../../shared/contracts/providers/builtin-lookup.js';
import { memoryApiDeps } from '../../support/api-deps.js';

const deps = memoryApiDeps({ contracts: builtinProviderLookup });
const { kinds } = deps;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

async function get(path: string, query = '', method = 'GET') {
  const response = await handleApiRequest({ method, path, query: new URLSearchParams(query), headers: {}, body: method === 'GET' ? '' : '{}' }, deps);
  return { status: response.status, body: JSON.parse(response.body) as Record<string, unknown> };
}

describe('CustomResourceDefinitions, read-only, one per served kind outside the core group', () => {
  it('lists a CRD for every kind of the registry outside the core group, and none for Secrets or ConfigMaps', async () => {
    const { status, body } = await get(CRDS);
    expect(status).toBe(200);
    expect(body.kind).toBe('CustomResourceDefinitionList');
    const names = (Array.isArray(body.items) ? body.items : []).map((item) => stringAt(item, 'metadata', 'name'));
    const expected = kinds.all().filter((k) => k.group !== '').map((k) => `${k.plural}.${k.group}`).sort();
    expect(names).toEqual(expected);
  });

  const clusterctl = (provider: string) => ({ 'clusterctl.cluster.x-k8s.io': '', 'cluster.x-k8s.io/provider': provider });
  const bothContracts = { 'cluster.x-k8s.io/v1beta1': 'v1beta1', 'cluster.x-k8s.io/v1beta2': 'v1beta2' };
  it.each([
    ['clusters.cluster.x-k8s.io', { ...bothContracts, ...clusterctl('cluster-api') }],
    ['kubeadmconfigs.bootstrap.cluster.x-k8s.io', { ...bothContracts, ...clusterctl('bootstrap-kubeadm') }],
    ['kubeadmcontrolplanes.controlplane.cluster.x-k8s.io', { ...bothContracts, ...clusterctl('control-plane-kubeadm') }],
    ['inmemorymachines.infrastructure.cluster.x-k8s.io', { 'cluster.x-k8s.io/v1beta2': 'v1beta2', ...clusterctl('infrastructure-in-memory') }],
    ['dockermachines.infrastructure.cluster.x-k8s.io', { ...bothContracts, ...clusterctl('infrastructure-docker') }],
    // The in-cluster IPAM provider's kustomize patch: a pool moves with the addresses it owns.
    ['inclusterippools.ipam.cluster.x-k8s.io', { ...clusterctl('ipam-in-cluster'), 'clusterctl.cluster.x-k8s.io/move-hierarchy': '' }],
    ['globalinclusterippools.ipam.cluster.x-k8s.io', { ...clusterctl('ipam-in-cluster'), 'clusterctl.cluster.x-k8s.io/move-hierarchy': '' }],
    // Kinds no provider declares are Cluster API core's (its IPAM claim and address CRDs ship with the core).
    ['ipaddressclaims.ipam.cluster.x-k8s.io', { ...bothContracts, ...clusterctl('cluster-api') }],
    // clusterctl's own inventory CRD carries its core label, not the component label move discovers by.
    ['providers.clusterctl.cluster.x-k8s.io', { 'clusterctl.cluster.x-k8s.io/core': 'inventory' }],
  ])('%s carries the labels %j', async (name, labels) => {
    const { status, body } = await get(`${CRDS}/${name}`);
    expect(status).toBe(200);
    expect(isRecord(body.metadata) ? body.metadata.labels : undefined).toEqual(labels);
  });

  it("clusterctl move's discovery (labelSelector=clusterctl.cluster.x-k8s.io) finds every served kind but clusterctl's own", async () => {
    const { body } = await get(CRDS, 'labelSelector=clusterctl.cluster.x-k8s.io');
    const names = (Array.isArray(body.items) ? body.items : []).map((item) => stringAt(item, 'metadata', 'name'));
    const expected = kinds
      .all()
      .filter((k) => k.group !== '' && k.group !== 'clusterctl.cluster.x-k8s.io')
      .map((k) => `${k.plural}.${k.group}`)
      .sort();
    expect(names).toEqual(expected);
  });

  it("the Cluster CRD has the registration's names, the storage version with its schema and Cluster API's printer columns", async () => {
    const { body } = await get(`${CRDS}/clusters.cluster.x-k8s.io`);
    expect(body).toMatchObject({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      spec: { group: 'cluster.x-k8s.io', scope: 'Namespaced', names: { kind: 'Cluster', plural: 'clusters', singular: 'cluster', listKind: 'ClusterList', shortNames: ['cl'] } },
      status: { storedVersions: ['v1beta2'], acceptedNames: { kind: 'Cluster' } },
    });
    const versions = isRecord(body.spec) && Array.isArray(body.spec.versions) ? body.spec.versions : [];
    expect(versions.map((v) => [stringAt(v, 'name'), isRecord(v) && v.storage, isRecord(v) && v.served])).toEqual([
      ['v1beta2', true, true],
      ['v1beta1', false, true],
    ]);
    const storage = versions[0];
    expect(stringAt(storage, 'schema', 'openAPIV3Schema', 'properties', 'spec', 'type')).toBe('object');
    const columns = isRecord(storage) && Array.isArray(storage.additionalPrinterColumns) ? storage.additionalPrinterColumns : [];
    expect(columns.map((c) => stringAt(c, 'name'))).toContain('CP Desired');
    expect(isRecord(storage) && storage.subresources).toEqual({ status: {} });
  });

  it('filters by label selector', async () => {
    const { body } = await get(CRDS, 'labelSelector=cluster.x-k8s.io%2Fv1beta1');
    const names = (Array.isArray(body.items) ? body.items : []).map((item) => stringAt(item, 'metadata', 'name'));
    expect(names).toContain('clusters.cluster.x-k8s.io');
    expect(names).not.toContain('inmemorymachines.infrastructure.cluster.x-k8s.io');
  });

  it.each([
    ['a CRD capless does not serve', 'GET', `${CRDS}/widgets.example.com`, '', 404],
    ['a create', 'POST', CRDS, '', 405],
    ['a delete', 'DELETE', `${CRDS}/clusters.cluster.x-k8s.io`, '', 405],
    ['a watch', 'GET', CRDS, 'watch=true', 405],
    ['a path below a CRD', 'GET', `${CRDS}/clusters.cluster.x-k8s.io/status`, '', 404],
  ])('%s is a %s … %i Status', async (_what, method, path, query, code) => {
    const { status, body } = await get(path, query, method);
    expect(status).toBe(code);
    expect(body).toMatchObject({ kind: 'Status', code });
  });

  it('discovery lists the apiextensions.k8s.io group and its one resource', async () => {
    const groups = await get('/apis');
    expect(JSON.stringify(groups.body)).toContain('"name":"apiextensions.k8s.io"');
    const resources = await get('/apis/apiextensions.k8s.io/v1');
    expect(resources.body).toMatchObject({ groupVersion: 'apiextensions.k8s.io/v1', resources: [{ name: 'customresourcedefinitions', namespaced: false, verbs: ['get', 'list'] }] });
  });

  it('MachinePools are served read-only: listed (empty), never created', async () => {
    expect((await get('/apis/cluster.x-k8s.io/v1beta2/namespaces/default/machinepools')).body).toMatchObject({ kind: 'MachinePoolList', items: [] });
    const created = await get('/apis/cluster.x-k8s.io/v1beta2/namespaces/default/machinepools', '', 'POST');
    expect(created.status).toBe(405);
    expect(String(created.body.message)).toMatch(/read-only/);
  });
});

describe('contract labels', () => {
  const info = { group: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachine', plural: 'awsmachines', versions: ['v1beta2', 'v1beta1'], namespaced: true, statusSubresource: true };
  it.each([
    [undefined, { 'cluster.x-k8s.io/v1beta1': 'v1beta1', 'cluster.x-k8s.io/v1beta2': 'v1beta2' }],
    ['v1beta2', { 'cluster.x-k8s.io/v1beta1': 'v1beta1', 'cluster.x-k8s.io/v1beta2': 'v1beta2' }],
    ['v1beta1', { 'cluster.x-k8s.io/v1beta1': 'v1beta1_v1beta2' }],
  ] as const)('a provider on contract %s', (contract, labels) => {
    expect(contractLabels(info, contract)).toEqual(labels);
  });
});
