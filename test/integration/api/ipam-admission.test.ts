/**
 * IPAM kinds through the API: Cluster API's and the in-cluster provider's samples are accepted
 * (v1beta1 claims converted, global pools cluster-scoped), and bad input is a 422 naming the
 * field: overlapping or malformed ranges, a gateway outside the prefix, mixed families, a claim
 * for a pool kind no provider serves, an inconsistent IPAddress, a changed claim or address spec.
 */

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { stringAt, valueAt } from '../../../shared/contracts/json.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { startTestApi, type TestApi } from '../../support/api-server.js';
import { RestClient, statusCauseFields } from '../../support/rest-client.js';

const IPAM_SAMPLES = resolve(fileURLToPath(new URL('../../../', import.meta.url)), '../shared/capi-samples/ipam');
const HAVE_SAMPLES = existsSync(IPAM_SAMPLES);
const POOL = 'ipam.cluster.x-k8s.io/v1alpha2';
const IPAM = 'ipam.cluster.x-k8s.io/v1beta2';

let server: TestApi;
let api: RestClient;

beforeAll(async () => {
  server = await startTestApi({ tls: false });
  api = new RestClient(server.url, server.token);
});

afterAll(async () => {
  await server?.close();
});

function sample(file: string): KubeObject {
  return parse(readFileSync(resolve(IPAM_SAMPLES, file), 'utf8'));
}

const pool = (name: string, spec: Record<string, unknown>, kind = 'InClusterIPPool'): KubeObject => ({ apiVersion: POOL, kind, metadata: { name }, spec });
const claim = (name: string, poolRef: Record<string, unknown>): KubeObject => ({ apiVersion: IPAM, kind: 'IPAddressClaim', metadata: { name }, spec: { poolRef } });
const address = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: IPAM,
  kind: 'IPAddress',
  metadata: { name },
  spec: { claimRef: { name }, poolRef: { apiGroup: 'ipam.cluster.x-k8s.io', kind: 'InClusterIPPool', name: 'p' }, ...spec },
});

describe('IPAM samples', () => {
  it('the in-cluster provider pool samples and the v1beta1 claim sample are accepted', async (context) => {
    if (!HAVE_SAMPLES) context.skip('needs the in-cluster IPAM provider samples in ../shared/capi-samples/ipam, not beside this checkout');
    await api.mustCreate(sample('ipam_v1alpha2_inclusterippool.yaml'));
    const global = await api.mustCreate(sample('ipam_v1alpha2_globalinclusterippool.yaml'));
    expect(global.metadata.namespace).toBeUndefined();
    const stored = await api.mustCreate(sample('claim.yaml'));
    expect(stored.apiVersion).toBe(IPAM);
    expect(valueAt(stored, 'spec', 'poolRef')).toEqual({ apiGroup: 'ipam.cluster.x-k8s.io', kind: 'InClusterIPPool', name: 'inclusterippool-sample' });
  });
});

describe('v1beta1 IPAM objects', () => {
  it('a v1beta1 IPAddress is converted to v1beta2 on admission', async () => {
    const stored = await api.mustCreate({
      apiVersion: 'ipam.cluster.x-k8s.io/v1beta1',
      kind: 'IPAddress',
      metadata: { name: 'legacy' },
      spec: { claimRef: { name: 'legacy' }, poolRef: { apiGroup: 'ipam.cluster.x-k8s.io', kind: 'InClusterIPPool', name: 'p' }, address: 'fd00::5', prefix: 64, gateway: 'fd00::1' },
    });
    expect(stored.apiVersion).toBe(IPAM);
    expect(valueAt(stored, 'spec', 'prefix')).toBe(64);
  });
});

describe('cluster-scoped GlobalInClusterIPPool', () => {
  it('is created, read and deleted without a namespace; a namespaced path for it is a 404', async () => {
    const created = await api.mustCreate({ ...pool('global-a', { addresses: ['10.1.0.0/24'], prefix: 24 }, 'GlobalInClusterIPPool'), metadata: { name: 'global-a', namespace: 'ignored' } });
    expect(created.metadata.namespace).toBeUndefined();
    expect((await api.get(POOL, 'GlobalInClusterIPPool', '', 'global-a'))?.metadata.name).toBe('global-a');
    const namespaced = await fetch(`${server.url}/apis/ipam.cluster.x-k8s.io/v1alpha2/namespaces/default/globalinclusterippools/global-a`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(namespaced.status).toBe(404);
    expect((await api.delete(POOL, 'GlobalInClusterIPPool', '', 'global-a')).status).toBe(200);
  });
});

describe('bad IPAM input is a 422 naming the field', () => {
  it.each<[string, KubeObject, string]>([
    ['overlapping address entries', pool('overlap', { addresses: ['10.0.0.0/28', '10.0.0.8-10.0.0.20'], prefix: 24 }), 'spec.addresses[1]'],
    ['a malformed range', pool('bad-range', { addresses: ['10.0.0.20-10.0.0.2'], prefix: 24 }), 'spec.addresses[0]'],
    ['a malformed CIDR', pool('bad-cidr', { addresses: ['10.0.0.0/33'], prefix: 24 }), 'spec.addresses[0]'],
    ['a gateway outside the prefix', pool('bad-gateway', { addresses: ['10.0.0.0/24'], prefix: 24, gateway: '10.0.1.1' }), 'spec.gateway'],
    ['mixed IP families', pool('mixed', { addresses: ['10.0.0.1', 'fd00::1'], prefix: 24 }), 'spec.addresses[1]'],
    ['no addresses at all', pool('empty', { addresses: [], prefix: 24 }), 'spec.addresses'],
    ['a prefix over 128', pool('long', { addresses: ['fd00::1'], prefix: 129 }), 'spec.prefix'],
    ['a claim for a pool kind no provider serves', claim('orphan', { apiGroup: 'ipam.example.com', kind: 'MagicPool', name: 'x' }), 'spec.poolRef.kind'],
    ['a claim without poolRef.apiGroup', claim('nogroup', { kind: 'InClusterIPPool', name: 'x' }), 'spec.poolRef.apiGroup'],
    ['an IPv4 address with prefix 33', address('a1', { address: '10.0.0.5', prefix: 33 }), 'spec.prefix'],
    ['an address that does not parse', address('a2', { address: '10.0.0.500', prefix: 24 }), 'spec.address'],
    ['a gateway of the other family', address('a3', { address: '10.0.0.5', prefix: 24, gateway: 'fd00::1' }), 'spec.gateway'],
  ])('%s', async (_name, object, field) => {
    const response = await api.create(object);
    expect(response.status).toBe(422);
    expect(statusCauseFields(response.body)).toContain(field);
  });

  it.each<[string, KubeObject, Record<string, unknown>]>([
    ['a claim’s poolRef', claim('fixed-claim', { apiGroup: 'ipam.cluster.x-k8s.io', kind: 'InClusterIPPool', name: 'one' }), { spec: { poolRef: { name: 'two' } } }],
    ['an address’s address', address('fixed-address', { address: '10.0.0.5', prefix: 24 }), { spec: { address: '10.0.0.6' } }],
  ])('%s cannot change', async (_name, object, patch) => {
    const created = await api.mustCreate(object);
    const response = await fetch(`${server.url}/apis/ipam.cluster.x-k8s.io/v1beta2/namespaces/default/${object.kind === 'IPAddress' ? 'ipaddresses' : 'ipaddressclaims'}/${created.metadata.name}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify(patch),
    });
    expect(response.status).toBe(422);
    expect(statusCauseFields(await response.json())).toEqual(['spec']);
    expect(stringAt(await api.get(IPAM, object.kind, 'default', created.metadata.name), 'spec', 'poolRef', 'name')).toBe(stringAt(created, 'spec', 'poolRef', 'name'));
  });
});
