/**
 * A paused Cluster pauses its parts (ADR 0146), end to end through the embedded control plane's
 * HTTP API, as `clusterctl move` and users pause clusters: a cluster applied with `spec.paused`
 * builds nothing and every part says why in its Paused condition, with no finalizer added (an
 * IPAM pool labelled with it for clusterctl move is not a part, ADR 0148); unpausing builds it; pausing again marks every running part paused and holds a Machine's
 * deletion (its finalizer, its InMemoryMachine, no replacement) until the Cluster is unpaused.
 * Then a MachineDeployment's own `spec.paused`, which Cluster API treats otherwise: its Machines
 * still follow its replicas, and a new template waits for the unpause to roll out.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ControlPlane, startControlPlane } from '../../local/control-plane.js';
import { conditionsOf, findCondition } from '../../shared/contracts/conditions.js';
import { LABEL_DEPLOYMENT_NAME } from '../../shared/contracts/defaulting/labels.js';
import { stringAt, valueAt } from '../../shared/contracts/json.js';
import { isDeleting, type KubeObject, LABEL_CLUSTER_NAME } from '../../shared/contracts/object.js';
import { eventually } from '../support/eventually.js';
import {
  BOOTSTRAP_V1BETA2,
  CONTROL_PLANE_V1BETA2,
  CORE_V1BETA2,
  controlPlaneName,
  INFRA_V1BETA2,
  lifecycleCluster,
  workerPoolName,
} from '../support/lifecycle-manifests.js';
import { RestClient } from '../support/rest-client.js';

const NS = 'held';
const CLUSTER = 'held';
const KCP = controlPlaneName(CLUSTER);
const MD = workerPoolName(CLUSTER);
const CLUSTER_PAUSED = 'Cluster spec.paused is set to true';

let plane: ControlPlane;
let api: RestClient;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-pause-'));
  plane = await startControlPlane({ dataDir, port: 0, persist: false, resyncSeconds: 3600 });
  api = new RestClient(plane.url, plane.token);
});

afterAll(async () => {
  await plane?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const paused = (object: KubeObject | undefined) => findCondition(conditionsOf(object?.status), 'Paused');
const isWorker = (m: KubeObject) => m.metadata.labels?.[LABEL_DEPLOYMENT_NAME] === MD;
const isRunning = (m: KubeObject) => m.status?.phase === 'Running' && !isDeleting(m);

async function machines(): Promise<KubeObject[]> {
  return api.list(CORE_V1BETA2, 'Machine', NS, `${LABEL_CLUSTER_NAME}=${CLUSTER}`);
}

async function setClusterPaused(value: boolean): Promise<void> {
  await api.mergePatch(CORE_V1BETA2, 'Cluster', NS, CLUSTER, { spec: { paused: value } });
}

/** 1 control-plane and 2 worker Machines Running, none of `without`. */
async function running(without: readonly string[] = []): Promise<KubeObject[]> {
  return eventually('1 control-plane and 2 worker machines Running', async (report) => {
    const all = await machines();
    report(all.map((m) => `${m.metadata.name}:${String(m.status?.phase)}${isDeleting(m) ? ':deleting' : ''}`));
    const ok = all.length === 3 && all.every(isRunning) && all.filter(isWorker).length === 2 && all.every((m) => !without.includes(m.metadata.name));
    return ok ? all : undefined;
  }, { timeoutMs: 120_000 });
}

/** The cluster's parts, and whether they name their Cluster before it has reconciled once. */
const PARTS = [
  // By spec.clusterName (and the cluster-name label admission adds).
  { apiVersion: CORE_V1BETA2, kind: 'MachineDeployment', name: MD, namesItsCluster: true },
  // Only through the ownerReference the Cluster's reconcile adds, as in Cluster API.
  { apiVersion: CONTROL_PLANE_V1BETA2, kind: 'KubeadmControlPlane', name: KCP, namesItsCluster: false },
  { apiVersion: INFRA_V1BETA2, kind: 'InMemoryCluster', name: CLUSTER, namesItsCluster: false },
];

describe('a paused Cluster pauses its parts, through the HTTP API', () => {
  it('a cluster applied with spec.paused builds nothing, and a part that names its Cluster says the Cluster is paused', async () => {
    for (const object of lifecycleCluster(CLUSTER, { namespace: NS, controlPlaneReplicas: 1, workerReplicas: 2 })) {
      await api.mustCreate(object.kind === 'Cluster' ? { ...object, spec: { ...object.spec, paused: true } } : object);
    }
    await plane.queue.idle();
    const cluster = await api.get(CORE_V1BETA2, 'Cluster', NS, CLUSTER);
    expect(paused(cluster)?.message).toBe(CLUSTER_PAUSED);
    expect(cluster?.metadata.finalizers ?? []).toEqual([]);
    for (const part of PARTS.filter((p) => p.namesItsCluster)) {
      const object = await api.get(part.apiVersion, part.kind, NS, part.name);
      expect({ kind: part.kind, paused: paused(object)?.status, message: paused(object)?.message }).toEqual({
        kind: part.kind,
        paused: 'True',
        message: CLUSTER_PAUSED,
      });
      expect({ kind: part.kind, finalizers: object?.metadata.finalizers ?? [] }).toEqual({ kind: part.kind, finalizers: [] });
    }
    // A control plane and an InfraCluster know their Cluster by the ownerReference it gives them.
    for (const part of PARTS.filter((p) => !p.namesItsCluster)) {
      const object = await api.get(part.apiVersion, part.kind, NS, part.name);
      expect({ kind: part.kind, owners: object?.metadata.ownerReferences ?? [] }).toEqual({ kind: part.kind, owners: [] });
    }
    expect(await machines()).toEqual([]);
    expect(await api.list(CORE_V1BETA2, 'MachineSet', NS)).toEqual([]);
    expect(await api.list(BOOTSTRAP_V1BETA2, 'KubeadmConfig', NS)).toEqual([]);
  }, 60_000);

  it('an IPAM pool labelled with the paused Cluster (for clusterctl move) is not paused with it', async () => {
    await api.mustCreate({
      apiVersion: 'ipam.cluster.x-k8s.io/v1alpha2',
      kind: 'InClusterIPPool',
      metadata: { name: 'held-pool', namespace: NS, labels: { [LABEL_CLUSTER_NAME]: CLUSTER } },
      spec: { addresses: ['10.30.0.10-10.30.0.12'], prefix: 24, gateway: '10.30.0.1' },
    });
    await plane.queue.idle();
    const pool = await api.get('ipam.cluster.x-k8s.io/v1alpha2', 'InClusterIPPool', NS, 'held-pool');
    expect(paused(pool)?.status).toBe('False');
    expect(valueAt(pool, 'status', 'ipAddresses', 'total')).toBe(3);
    expect(pool?.metadata.finalizers?.length).toBe(1);
  }, 60_000);

  it('unpausing the Cluster builds it, and its parts say they are no longer paused', async () => {
    await setClusterPaused(false);
    await running();
    for (const part of PARTS) expect(paused(await api.get(part.apiVersion, part.kind, NS, part.name))?.status).toBe('False');
  }, 150_000);

  it('pausing it again marks every running part paused and holds a Machine deletion until it is unpaused', async () => {
    const before = await running();
    await setClusterPaused(true);
    await eventually('every Machine and InMemoryMachine says the Cluster is paused', async (report) => {
      const objects = [...(await machines()), ...(await api.list(INFRA_V1BETA2, 'InMemoryMachine', NS))];
      report(objects.map((o) => `${o.kind}/${o.metadata.name}:${String(paused(o)?.status)}`));
      return objects.length === 6 && objects.every((o) => paused(o)?.message === CLUSTER_PAUSED) ? objects : undefined;
    });

    const victim = before.find(isWorker);
    if (!victim) throw new Error('no worker');
    const deleted = await api.delete(CORE_V1BETA2, 'Machine', NS, victim.metadata.name);
    expect(deleted.status).toBe(200);
    await plane.queue.idle();
    const held = await api.get(CORE_V1BETA2, 'Machine', NS, victim.metadata.name);
    expect(held && isDeleting(held)).toBe(true);
    expect(held?.metadata.finalizers?.length).toBeGreaterThan(0);
    const infra = await api.get(INFRA_V1BETA2, 'InMemoryMachine', NS, stringAt(victim, 'spec', 'infrastructureRef', 'name') ?? '');
    expect(infra && !isDeleting(infra)).toBe(true);
    expect((await machines()).map((m) => m.metadata.name).sort()).toEqual(before.map((m) => m.metadata.name).sort());

    await setClusterPaused(false);
    const after = await running([victim.metadata.name]);
    expect(after.map((m) => m.metadata.name)).not.toContain(victim.metadata.name);
    expect(await api.get(INFRA_V1BETA2, 'InMemoryMachine', NS, stringAt(infra, 'metadata', 'name') ?? '')).toBeUndefined();
  }, 150_000);
});

describe("a MachineDeployment's own spec.paused stops rollouts, not scaling", () => {
  const NEW_VERSION = 'v1.32.1';
  const workers = async (): Promise<KubeObject[]> => (await machines()).filter((m) => isWorker(m) && !isDeleting(m));
  const versionOf = (m: KubeObject) => stringAt(m, 'spec', 'version');

  it('a paused MachineDeployment scales to 3 workers on its old template, and rolls out the new one once unpaused', async () => {
    await running();
    await api.mergePatch(CORE_V1BETA2, 'MachineDeployment', NS, MD, { spec: { paused: true, replicas: 3, template: { spec: { version: NEW_VERSION } } } });
    const old = await eventually('3 workers Running on the old template', async (report) => {
      const all = await workers();
      report(all.map((m) => `${m.metadata.name}:${String(m.status?.phase)}:${String(versionOf(m))}`));
      return all.length === 3 && all.every(isRunning) ? all : undefined;
    }, { timeoutMs: 120_000 });
    await plane.queue.idle();
    expect(old.map(versionOf)).not.toContain(NEW_VERSION);
    expect(await api.list(CORE_V1BETA2, 'MachineSet', NS, `${LABEL_DEPLOYMENT_NAME}=${MD}`)).toHaveLength(1);
    expect(paused(await api.get(CORE_V1BETA2, 'MachineDeployment', NS, MD))?.status).toBe('False');

    await api.mergePatch(CORE_V1BETA2, 'MachineDeployment', NS, MD, { spec: { paused: false } });
    await eventually('3 workers Running on the new template, the old ones gone', async (report) => {
      const all = await machines();
      const pool = all.filter(isWorker);
      report(pool.map((m) => `${m.metadata.name}:${String(m.status?.phase)}:${String(versionOf(m))}${isDeleting(m) ? ':deleting' : ''}`));
      return pool.length === 3 && pool.every((m) => isRunning(m) && versionOf(m) === NEW_VERSION) ? pool : undefined;
    }, { timeoutMs: 150_000 });
  }, 300_000);
});
