/**
 * In-memory machines taking their addresses from an IPAM pool, through the embedded control
 * plane's HTTP API: a cluster whose machine templates name an InClusterIPPool comes up with each
 * Machine's InternalIP from the pool, all distinct; deleting the cluster releases every address.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ControlPlane, startControlPlane } from '../../local/control-plane.js';
import { numberAt, valueAt } from '../../shared/contracts/json.js';
import { isDeleting, type KubeObject, LABEL_CLUSTER_NAME } from '../../shared/contracts/object.js';
import { eventually } from '../support/eventually.js';
import { CORE_V1BETA2, lifecycleCluster } from '../support/lifecycle-manifests.js';
import { RestClient } from '../support/rest-client.js';

const NS = 'pooled';
const CLUSTER = 'pooled';
const POOL = 'node-ips';
const POOL_V1ALPHA2 = 'ipam.cluster.x-k8s.io/v1alpha2';
const POOL_ADDRESSES = ['10.20.0.10', '10.20.0.11', '10.20.0.12'];

let plane: ControlPlane;
let api: RestClient;
let dataDir: string;

/** The cluster's objects with every InMemoryMachineTemplate taking addresses from the pool. */
function pooledCluster(): KubeObject[] {
  return lifecycleCluster(CLUSTER, { namespace: NS, controlPlaneReplicas: 1, workerReplicas: 2 }).map((object) => {
    if (object.kind !== 'InMemoryMachineTemplate') return object;
    const template = valueAt(object, 'spec', 'template', 'spec');
    return {
      ...object,
      spec: { template: { spec: { ...(typeof template === 'object' ? template : {}), addressesFromPools: [{ apiGroup: 'ipam.cluster.x-k8s.io', kind: 'InClusterIPPool', name: POOL }] } } },
    };
  });
}

function internalIPs(machine: KubeObject): string[] {
  const addresses = machine.status?.addresses;
  if (!Array.isArray(addresses)) return [];
  return addresses.flatMap((a: unknown) => (typeof a === 'object' && a !== null && 'type' in a && a.type === 'InternalIP' && 'address' in a && typeof a.address === 'string' ? [a.address] : []));
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-pooled-'));
  plane = await startControlPlane({ dataDir, port: 0, persist: false, resyncSeconds: 3600 });
  api = new RestClient(plane.url, plane.token);
});

afterAll(async () => {
  await plane?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('machines with addresses from an IPAM pool', () => {
  it('come up with distinct pool addresses, and give them back when the cluster goes', async () => {
    await api.mustCreate({
      apiVersion: POOL_V1ALPHA2,
      kind: 'InClusterIPPool',
      metadata: { name: POOL, namespace: NS },
      spec: { addresses: ['10.20.0.10-10.20.0.12'], prefix: 24, gateway: '10.20.0.1' },
    });
    for (const object of pooledCluster()) await api.mustCreate(object);

    const machines = await eventually('3 Running machines with pool addresses', async (report) => {
      const all = await api.list(CORE_V1BETA2, 'Machine', NS, `${LABEL_CLUSTER_NAME}=${CLUSTER}`);
      report(all.map((m) => `${m.metadata.name}:${String(m.status?.phase)}:${internalIPs(m).join(',')}`));
      return all.length === 3 && all.every((m) => m.status?.phase === 'Running' && internalIPs(m).length === 1) ? all : undefined;
    }, { timeoutMs: 180_000 });
    const ips = machines.flatMap(internalIPs).sort();
    expect(ips).toEqual(POOL_ADDRESSES);
    const used = await eventually('the pool counts 3 used', async (report) => {
      const pool = await api.get(POOL_V1ALPHA2, 'InClusterIPPool', NS, POOL);
      report(pool?.status);
      return numberAt(pool, 'status', 'ipAddresses', 'used') === 3 ? pool : undefined;
    });
    expect(numberAt(used, 'status', 'ipAddresses', 'free')).toBe(0);

    await api.delete(CORE_V1BETA2, 'Cluster', NS, CLUSTER);
    await eventually('every claim released and the pool empty', async (report) => {
      const claims = await api.list('ipam.cluster.x-k8s.io/v1beta2', 'IPAddressClaim', NS);
      const addresses = await api.list('ipam.cluster.x-k8s.io/v1beta2', 'IPAddress', NS);
      const pool = await api.get(POOL_V1ALPHA2, 'InClusterIPPool', NS, POOL);
      report({ claims: claims.map((c) => `${c.metadata.name}${isDeleting(c) ? ':deleting' : ''}`), addresses: addresses.length, pool: pool?.status });
      return claims.length === 0 && addresses.length === 0 && numberAt(pool, 'status', 'ipAddresses', 'used') === 0 ? true : undefined;
    }, { timeoutMs: 180_000 });
  }, 400_000);
});
