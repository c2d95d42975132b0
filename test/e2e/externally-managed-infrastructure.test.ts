/**
 * Externally managed infrastructure (Cluster API's infra-cluster contract; ADR 0150), through the
 * embedded control plane's HTTP API: an InMemoryCluster with the `cluster.x-k8s.io/managed-by`
 * annotation is left alone by its provider (no finalizer, no status written), the Cluster waits
 * for it, and goes on once the external system fills in the contract (endpoint, provisioned).
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ControlPlane, startControlPlane } from '../../local/control-plane.js';
import { valueAt } from '../../shared/contracts/json.js';
import { ANNOTATION_MANAGED_BY, type KubeObject } from '../../shared/contracts/object.js';
import { eventually } from '../support/eventually.js';
import { CORE_V1BETA2, INFRA_V1BETA2, lifecycleCluster } from '../support/lifecycle-manifests.js';
import { RestClient } from '../support/rest-client.js';

const NS = 'external';
const CLUSTER = 'ext';
const ENDPOINT = { host: '10.40.0.10', port: 6443 };

let plane: ControlPlane;
let api: RestClient;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-external-'));
  plane = await startControlPlane({ dataDir, port: 0, persist: false, resyncSeconds: 3600 });
  api = new RestClient(plane.url, plane.token);
});

afterAll(async () => {
  await plane?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const managed = (object: KubeObject): KubeObject =>
  object.kind === 'InMemoryCluster'
    ? { ...object, metadata: { ...object.metadata, annotations: { [ANNOTATION_MANAGED_BY]: 'my-infrastructure-system' } } }
    : object;

describe('an externally managed InfraCluster, through the HTTP API', () => {
  it('is left alone by its provider, and the Cluster waits for the external system', async () => {
    for (const object of lifecycleCluster(CLUSTER, { namespace: NS, controlPlaneReplicas: 1, workerReplicas: 0 })) await api.mustCreate(managed(object));
    await plane.queue.idle();
    const infra = await api.get(INFRA_V1BETA2, 'InMemoryCluster', NS, CLUSTER);
    expect(infra?.metadata.finalizers ?? []).toEqual([]);
    expect(infra?.status ?? {}).toEqual({});
    // The Cluster (Cluster API core) still owns it, as it owns any InfraCluster it names.
    expect(infra?.metadata.ownerReferences?.map((o) => o.kind)).toEqual(['Cluster']);
    const cluster = await api.get(CORE_V1BETA2, 'Cluster', NS, CLUSTER);
    expect(valueAt(cluster, 'status', 'initialization', 'infrastructureProvisioned')).not.toBe(true);
    expect(await api.list(CORE_V1BETA2, 'Machine', NS)).toEqual([]);
  }, 60_000);

  it('goes on once the external system sets the endpoint and says provisioned; the provider still writes nothing', async () => {
    await api.mergePatch(INFRA_V1BETA2, 'InMemoryCluster', NS, CLUSTER, { spec: { controlPlaneEndpoint: ENDPOINT } });
    await api.mergePatchStatus(INFRA_V1BETA2, 'InMemoryCluster', NS, CLUSTER, { status: { initialization: { provisioned: true } } });
    const cluster = await eventually('the Cluster takes the infrastructure as provisioned', async (report) => {
      const c = await api.get(CORE_V1BETA2, 'Cluster', NS, CLUSTER);
      report(valueAt(c, 'status', 'initialization'));
      return valueAt(c, 'status', 'initialization', 'infrastructureProvisioned') === true ? c : undefined;
    });
    expect(valueAt(cluster, 'spec', 'controlPlaneEndpoint')).toEqual(ENDPOINT);
    await plane.queue.idle();
    const infra = await api.get(INFRA_V1BETA2, 'InMemoryCluster', NS, CLUSTER);
    expect(infra?.metadata.finalizers ?? []).toEqual([]);
    expect(infra?.status).toEqual({ initialization: { provisioned: true } });
  }, 60_000);
});
