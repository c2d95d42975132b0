/**
 * Through the API: what Cluster API's CRD schemas refuse (a pattern, a list past maxItems, a CEL
 * rule) is a 422 Kubernetes Status whose causes name the field, on create (POST) and on update
 * (merge patch) alike.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { valueAt } from '../../../shared/contracts/json.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { startTestApi, type TestApi } from '../../support/api-server.js';
import { RestClient, statusCauses } from '../../support/rest-client.js';

const CORE = 'cluster.x-k8s.io/v1beta2';
const BOOTSTRAP = 'bootstrap.cluster.x-k8s.io/v1beta2';

let server: TestApi;
let api: RestClient;

beforeAll(async () => {
  server = await startTestApi({ tls: false });
  api = new RestClient(server.url, server.token);
});

afterAll(async () => {
  await server?.close();
});

const cluster = (name: string, spec: Record<string, unknown>): KubeObject => ({ apiVersion: CORE, kind: 'Cluster', metadata: { name, namespace: 'default' }, spec });
const config = (name: string, spec: Record<string, unknown>): KubeObject => ({ apiVersion: BOOTSTRAP, kind: 'KubeadmConfig', metadata: { name, namespace: 'default' }, spec });
const CIDRS = Array.from({ length: 101 }, (_, i) => `10.${i}.0.0/16`);

const CASES: [string, KubeObject, Record<string, unknown>, { field: string; reason: string }][] = [
  [
    'a list past maxItems',
    cluster('too-many', { clusterNetwork: { pods: { cidrBlocks: CIDRS } } }),
    { spec: { clusterNetwork: { pods: { cidrBlocks: CIDRS } } } },
    { field: 'spec.clusterNetwork.pods.cidrBlocks', reason: 'FieldValueTooMany' },
  ],
  [
    'a value not matching its pattern',
    cluster('bad-ref', { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DevCluster', name: 'Not_A_Name' } }),
    { spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DevCluster', name: 'Not_A_Name' } } },
    { field: 'spec.infrastructureRef.name', reason: 'FieldValueInvalid' },
  ],
  [
    'a CEL rule (exactly one of layout and diskLayout)',
    config('bad-partition', { diskSetup: { partitions: [{ device: '/dev/sdb' }] } }),
    { spec: { diskSetup: { partitions: [{ device: '/dev/sdb' }] } } },
    { field: 'spec.diskSetup.partitions[0]', reason: 'FieldValueInvalid' },
  ],
];

describe("Cluster API's CRD schemas at the API", () => {
  it.each(CASES)('%s: POST is a 422 Status naming the field', async (_what, object, _patch, cause) => {
    const response = await api.create(object);
    expect(response.status).toBe(422);
    expect(valueAt(response.body, 'kind')).toBe('Status');
    expect(valueAt(response.body, 'reason')).toBe('Invalid');
    expect(statusCauses(response.body)).toContainEqual(expect.objectContaining(cause));
  });

  it.each(CASES)('%s: a merge patch is a 422 Status naming the field, and the object is unchanged', async (_what, object, patch, cause) => {
    const valid = object.kind === 'Cluster' ? cluster(`${object.metadata.name}-ok`, { paused: true }) : config(`${object.metadata.name}-ok`, { format: 'cloud-config' });
    const stored = await api.mustCreate(valid);
    const response = await api.tryMergePatch(valid.apiVersion, valid.kind, 'default', valid.metadata.name, patch);
    expect(response.status).toBe(422);
    expect(statusCauses(response.body)).toContainEqual(expect.objectContaining(cause));
    expect((await api.get(valid.apiVersion, valid.kind, 'default', valid.metadata.name))?.metadata.resourceVersion).toBe(stored.metadata.resourceVersion);
  });
});
