/**
 * The cluster lifecycle end to end ("Cluster lifecycle end to end"), through the embedded
 * control plane's HTTP API only: apply a kubeadm cluster on the in-memory provider, scale,
 * upgrade, delete; real Cluster API sample manifests on Docker kinds; bad input. The store's
 * change feed is read (never written) to record deletion order and surge precisely.
 */

import { X509Certificate } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { type ControlPlane, startControlPlane } from '../../local/control-plane.js';
import { conditionsOf, findCondition } from '../../shared/contracts/conditions.js';
import { isRecord, numberAt, stringAt, valueAt } from '../../shared/contracts/json.js';
import { defaultKinds } from '../../shared/contracts/kinds.js';
import { groupOf, isDeleting, type KubeObject, LABEL_CLUSTER_NAME, type StoredObject } from '../../shared/contracts/object.js';
import { eventually } from '../support/eventually.js';
import {
  CONTROL_PLANE_V1BETA2,
  CORE_V1BETA2,
  controlPlaneName,
  INFRA_V1BETA2,
  lifecycleCluster,
  workerPoolName,
} from '../support/lifecycle-manifests.js';
import { RestClient, statusCauseFields } from '../support/rest-client.js';
import { pendingReason } from '../support/upstream-samples.js';

const NS = 'lifecycle';
const CLUSTER = 'life';
const KCP = controlPlaneName(CLUSTER);
const MD = workerPoolName(CLUSTER);
const LABEL_CONTROL_PLANE = 'cluster.x-k8s.io/control-plane';
const LABEL_DEPLOYMENT = 'cluster.x-k8s.io/deployment-name';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHARED = resolve(REPO_ROOT, '../shared');
const EXAMPLES = join(SHARED, 'capi-samples/examples');
const SEED = join(SHARED, 'seed/000_8998c448e40c2758.txt');

let plane: ControlPlane;
let api: RestClient;
let dataDir: string;
const timings: Record<string, number> = {};
/** Every change the store saw, in order (read-only tap on the change feed). */
const changes: { type: string; object: StoredObject }[] = [];

async function timed<T>(step: string, run: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await run();
  } finally {
    timings[step] = (Date.now() - started) / 1000;
  }
}

function condition(obj: KubeObject | undefined, type: string) {
  return findCondition(conditionsOf(obj?.status), type);
}

async function clusterMachines(namespace = NS, cluster = CLUSTER): Promise<KubeObject[]> {
  return api.list(CORE_V1BETA2, 'Machine', namespace, `${LABEL_CLUSTER_NAME}=${cluster}`);
}

const isControlPlane = (m: KubeObject) => m.metadata.labels?.[LABEL_CONTROL_PLANE] !== undefined;
const isWorker = (m: KubeObject) => m.metadata.labels?.[LABEL_DEPLOYMENT] === MD;
const isRunning = (m: KubeObject) => m.status?.phase === 'Running' && !isDeleting(m);

function describeMachines(machines: readonly KubeObject[]) {
  return machines.map((m) => `${m.metadata.name}:${String(m.status?.phase)}:${stringAt(m, 'spec', 'version')}${isDeleting(m) ? ':deleting' : ''}`);
}

/** Exactly `count` machines of the role, none deleting, all Running the version. */
async function converged(role: 'controlPlane' | 'worker', count: number, version: string, report: (seen: unknown) => void) {
  const machines = (await clusterMachines()).filter(role === 'controlPlane' ? isControlPlane : isWorker);
  report(describeMachines(machines));
  const done = machines.length === count && machines.every((m) => isRunning(m) && stringAt(m, 'spec', 'version') === version);
  return done ? machines : undefined;
}

async function kcp(): Promise<KubeObject | undefined> {
  return api.get(CONTROL_PLANE_V1BETA2, 'KubeadmControlPlane', NS, KCP);
}

async function controlPlaneConverged(count: number, version: string) {
  return eventually(`${count} control-plane machines Running ${version}`, async (report) => {
    const machines = await converged('controlPlane', count, version, report);
    const status = (await kcp())?.status;
    if (!machines) return undefined;
    report({ readyReplicas: status?.readyReplicas, replicas: status?.replicas, upToDate: status?.upToDateReplicas });
    return status?.readyReplicas === count && status?.replicas === count ? machines : undefined;
  });
}

async function workersConverged(count: number, version: string) {
  return eventually(`${count} worker machines Running ${version}`, async (report) => {
    const machines = await converged('worker', count, version, report);
    if (!machines) return undefined;
    const md = await api.get(CORE_V1BETA2, 'MachineDeployment', NS, MD);
    report({ md: md?.status });
    return numberAt(md, 'status', 'readyReplicas') === count && numberAt(md, 'status', 'replicas') === count ? machines : undefined;
  });
}

function secretText(secret: KubeObject | undefined, key: string): string {
  const value = secret?.data?.[key];
  if (value === undefined) throw new Error(`secret ${secret?.metadata.name} has no ${key}`);
  return Buffer.from(value, 'base64').toString('utf8');
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-e2e-'));
  plane = await startControlPlane({ dataDir, port: 0, persist: false });
  api = new RestClient(plane.url, plane.token);
  plane.store.onChange((change) => {
    const object = change.newObject ?? change.oldObject;
    if (object) changes.push({ type: change.type, object });
  });
});

afterAll(async () => {
  console.info(`cluster-lifecycle timings (s): ${JSON.stringify(timings)}`);
  await plane?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('cluster lifecycle through the HTTP API', () => {
  it('applies a cluster: 3 control-plane and 2 worker machines Running, Cluster Provisioned, kubeconfig chains to the CA', async () => {
    await timed('create', async () => {
      for (const object of lifecycleCluster(CLUSTER, { namespace: NS })) await api.mustCreate(object);
      await controlPlaneConverged(3, 'v1.32.0');
      await workersConverged(2, 'v1.32.0');
    });

    const controlPlane = await kcp();
    expect(controlPlane?.status?.readyReplicas).toBe(numberAt(controlPlane, 'spec', 'replicas'));
    expect(valueAt(controlPlane, 'status', 'initialization', 'controlPlaneInitialized')).toBe(true);

    const cluster = await eventually('Cluster Provisioned with its control plane initialized', async (report) => {
      const c = await api.get(CORE_V1BETA2, 'Cluster', NS, CLUSTER);
      report(c?.status);
      return c?.status?.phase === 'Provisioned' && valueAt(c, 'status', 'initialization', 'controlPlaneInitialized') === true ? c : undefined;
    });
    expect(condition(cluster, 'ControlPlaneInitialized')?.status).toBe('True');
    expect(condition(cluster, 'InfrastructureReady')?.status).toBe('True');

    const kubeconfigSecret = await api.get('v1', 'Secret', NS, `${CLUSTER}-kubeconfig`);
    const caSecret = await api.get('v1', 'Secret', NS, `${CLUSTER}-ca`);
    const kubeconfig: unknown = parse(secretText(kubeconfigSecret, 'value'));
    const clusters = valueAt(kubeconfig, 'clusters');
    const users = valueAt(kubeconfig, 'users');
    if (!Array.isArray(clusters) || !Array.isArray(users)) throw new Error('kubeconfig without clusters or users');
    expect(stringAt(clusters[0], 'cluster', 'server')).toMatch(/^https:\/\/\S+:\d+$/);
    const clientPem = Buffer.from(stringAt(users[0], 'user', 'client-certificate-data') ?? '', 'base64').toString('utf8');
    const client = new X509Certificate(clientPem);
    const ca = new X509Certificate(secretText(caSecret, 'tls.crt'));
    expect(client.checkIssued(ca)).toBe(true);
    expect(client.verify(ca.publicKey)).toBe(true);
    expect(Buffer.from(stringAt(clusters[0], 'cluster', 'certificate-authority-data') ?? '', 'base64').toString('utf8').trim()).toBe(ca.toString().trim());
  });

  it('scales the control plane 3 → 5 → 3', async () => {
    await timed('scale control plane 3→5→3', async () => {
      await api.mergePatch(CONTROL_PLANE_V1BETA2, 'KubeadmControlPlane', NS, KCP, { spec: { replicas: 5 } });
      await controlPlaneConverged(5, 'v1.32.0');
      await api.mergePatch(CONTROL_PLANE_V1BETA2, 'KubeadmControlPlane', NS, KCP, { spec: { replicas: 3 } });
      await controlPlaneConverged(3, 'v1.32.0');
    });
  });

  it('scales the workers 2 → 4 → 1', async () => {
    await timed('scale workers 2→4→1', async () => {
      await api.mergePatch(CORE_V1BETA2, 'MachineDeployment', NS, MD, { spec: { replicas: 4 } });
      await workersConverged(4, 'v1.32.0');
      await api.mergePatch(CORE_V1BETA2, 'MachineDeployment', NS, MD, { spec: { replicas: 1 } });
      await workersConverged(1, 'v1.32.0');
    });
  });

  it('rolls the control plane to a new version one machine at a time, never below spec.replicas ready', async () => {
    const before = new Set((await clusterMachines()).filter(isControlPlane).map((m) => m.metadata.name));
    const fromChange = changes.length;
    let minReady = Number.POSITIVE_INFINITY;
    let minRunning = Number.POSITIVE_INFINITY;
    await timed('control-plane upgrade', async () => {
      await api.mergePatch(CONTROL_PLANE_V1BETA2, 'KubeadmControlPlane', NS, KCP, { spec: { version: 'v1.33.0' } });
      await eventually('3 control-plane machines Running v1.33.0', async (report) => {
        const status = (await kcp())?.status;
        const ready = typeof status?.readyReplicas === 'number' ? status.readyReplicas : 0;
        const machines = await converged('controlPlane', 3, 'v1.33.0', report);
        const running = (await clusterMachines()).filter((m) => isControlPlane(m) && isRunning(m)).length;
        minReady = Math.min(minReady, ready);
        minRunning = Math.min(minRunning, running);
        return machines && status?.readyReplicas === 3 ? machines : undefined;
      }, { timeoutMs: 120_000 });
    });
    expect({ minReady, minRunning }).toEqual({ minReady: 3, minRunning: 3 });
    const after = (await clusterMachines()).filter(isControlPlane);
    expect(after.filter((m) => before.has(m.metadata.name))).toEqual([]);
    expect(maxLive(fromChange, isControlPlane)).toBe(4);
  });

  it('rolls the workers to a new version', async () => {
    const fromChange = changes.length;
    await timed('worker upgrade', async () => {
      await api.mergePatch(CORE_V1BETA2, 'MachineDeployment', NS, MD, { spec: { template: { spec: { version: 'v1.33.0' } } } });
      await workersConverged(1, 'v1.33.0');
    });
    expect(maxLive(fromChange, isWorker)).toBe(2);
  });

  it('deletes the Cluster: workers, then control plane, then infrastructure; nothing orphaned, no finalizer left', async () => {
    const fromChange = changes.length;
    await timed('delete', async () => {
      const response = await api.delete(CORE_V1BETA2, 'Cluster', NS, CLUSTER);
      expect([200, 202]).toContain(response.status);
      await eventually('the Cluster to be gone', async (report) => {
        const c = await api.get(CORE_V1BETA2, 'Cluster', NS, CLUSTER);
        report(c?.status);
        return c ? undefined : true;
      });
    });

    const removed = changes.slice(fromChange).filter((c) => c.type === 'REMOVE').map((c) => c.object);
    const lastIndex = (match: (o: StoredObject) => boolean) => removed.reduce((at, o, i) => (match(o) ? i : at), -1);
    const firstIndex = (match: (o: StoredObject) => boolean) => removed.findIndex(match);
    const kindIs = (kind: string) => (o: StoredObject) => o.kind === kind;
    const machineOf = (role: (m: KubeObject) => boolean) => (o: StoredObject) => o.kind === 'Machine' && role(o);

    expect(removed.filter(machineOf(isWorker))).toHaveLength(1);
    expect(removed.filter(machineOf(isControlPlane))).toHaveLength(3);
    expect(lastIndex(machineOf(isWorker))).toBeLessThan(firstIndex(machineOf(isControlPlane)));
    expect(lastIndex(machineOf(isControlPlane))).toBeLessThan(firstIndex(kindIs('InMemoryCluster')));
    expect(lastIndex(kindIs('KubeadmControlPlane'))).toBeLessThan(firstIndex(kindIs('InMemoryCluster')));
    expect(lastIndex(kindIs('InMemoryMachine'))).toBeLessThan(firstIndex(kindIs('InMemoryCluster')));
    expect(lastIndex(kindIs('InMemoryCluster'))).toBeLessThan(firstIndex(kindIs('Cluster')));

    // Nothing labelled with the cluster is left, in any kind, Secrets included; nothing holds a
    // finalizer. Dependents are garbage-collected in the background after their owner goes (as in
    // Kubernetes), so this is checked until it holds; a real orphan never clears and is reported.
    await eventually('nothing of the cluster left', async (report) => {
      const leftovers = await leftoversIn(NS);
      report(leftovers);
      return leftovers.length === 0 ? true : undefined;
    }, { timeoutMs: 30_000 });
    expect(await plane.store.listByCluster(NS, CLUSTER)).toEqual([]);
    // The whole lifecycle ran without a request exhausting its retries.
    expect(plane.queue.deadLetters).toEqual([]);
  });
});

/** Objects in the namespace labelled with the cluster or holding a finalizer, and any Secret. */
async function leftoversIn(namespace: string): Promise<string[]> {
  const leftovers: string[] = [];
  for (const info of defaultKinds.all()) {
    const apiVersion = info.group === '' ? (info.versions[0] ?? 'v1') : `${info.group}/${info.versions[0]}`;
    for (const object of await api.list(apiVersion, info.kind, namespace)) {
      const labelled = object.metadata.labels?.[LABEL_CLUSTER_NAME] === CLUSTER;
      const finalizers = object.metadata.finalizers ?? [];
      if (labelled || finalizers.length > 0 || info.kind === 'Secret') {
        const owners = (object.metadata.ownerReferences ?? []).map((o) => `${o.kind}/${o.name}`);
        leftovers.push(`${info.kind}/${object.metadata.name} owners=${owners} finalizers=${finalizers}`);
      }
    }
  }
  return leftovers;
}

/** The most machines of a role alive at once (created, not yet removed) since change `from`. */
function maxLive(from: number, role: (m: KubeObject) => boolean): number {
  const live = new Set<string>();
  for (const c of changes.slice(0, from)) {
    if (c.object.kind !== 'Machine' || c.object.metadata.namespace !== NS || !role(c.object)) continue;
    if (c.type === 'REMOVE') live.delete(c.object.metadata.name);
    else live.add(c.object.metadata.name);
  }
  let max = live.size;
  for (const c of changes.slice(from)) {
    if (c.object.kind !== 'Machine' || c.object.metadata.namespace !== NS || !role(c.object)) continue;
    if (c.type === 'REMOVE') live.delete(c.object.metadata.name);
    else live.add(c.object.metadata.name);
    max = Math.max(max, live.size);
  }
  return max;
}

/**
 * Upstream examples (one file at a time: they share names) and the seed text's sample manifests.
 * clusterctl templates (`${VAR}` placeholders) are not manifests until `capless generate cluster`
 * fills them, and their Clusters need their ClusterClass: topology-lifecycle.test.ts applies each
 * with its class (in-memory converges, development waits on the Docker backend).
 */
function sampleSets(): [string, unknown[]][] {
  const sets: [string, unknown[]][] = [];
  if (existsSync(EXAMPLES)) {
    const isClusterctlTemplate = (file: string) => readFileSync(join(EXAMPLES, file), 'utf8').includes('${');
    for (const file of readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml') && !isClusterctlTemplate(f)).sort()) {
      const docs = parseAllDocuments(readFileSync(join(EXAMPLES, file), 'utf8'))
        .map((d): unknown => d.toJS())
        .filter((d) => d !== null);
      sets.push([file, docs]);
    }
  }
  if (existsSync(SEED)) {
    const lines = readFileSync(SEED, 'utf8').split('\n');
    const docs: unknown[] = [];
    lines.forEach((line, index) => {
      if (!/^# 檔案: config\/samples\/\S+\.yaml$/.test(line.trim())) return;
      const end = lines.findIndex((next, j) => j > index && next.trim() === '');
      docs.push(parse(lines.slice(index + 1, end === -1 ? undefined : end).join('\n')));
    });
    if (docs.length > 0) sets.push(['seed sample manifests', docs]);
  }
  return sets;
}

describe('real Cluster API sample manifests on Docker kinds', () => {
  const sets = sampleSets();
  if (sets.length === 0) {
    it('sample manifests', (context) => context.skip(`neither ${EXAMPLES} nor ${SEED} exists: sample manifests not applied`));
    return;
  }
  const pending = (docs: unknown[]) => docs.map((doc) => pendingReason(doc, defaultKinds)).find((reason) => reason !== undefined);
  for (const [name, docs] of sets) {
    const reason = pending(docs);
    if (reason !== undefined) it(`${name} skipped: ${reason}`, (context) => context.skip(reason));
  }

  it.each(sets.filter(([, docs]) => pending(docs) === undefined))('%s is accepted unchanged; its Cluster waits for the missing provider without errors piling up', async (_name, docs) => {
    const created: KubeObject[] = [];
    for (const doc of docs) created.push(await api.mustCreateDocument(doc));
    const clusters = created.filter((o) => o.kind === 'Cluster' && groupOf(o.apiVersion) === 'cluster.x-k8s.io');
    for (const c of clusters) {
      const namespace = c.metadata.namespace ?? 'default';
      const waiting = await eventually(`${c.metadata.name} to report the missing provider`, async (report) => {
        const current = await api.get(CORE_V1BETA2, 'Cluster', namespace, c.metadata.name);
        const infra = condition(current, 'InfrastructureReady');
        report(current?.status);
        return infra?.reason === 'ProviderNotInstalled' ? current : undefined;
      });
      expect(condition(waiting, 'InfrastructureReady')).toMatchObject({ status: 'False', message: expect.stringMatching(/Docker/) });
      expect(condition(waiting, 'ReconcileSucceeded')?.status).not.toBe('False');
    }
    const failedBefore = plane.queue.counters.failed;
    await plane.queue.idle();
    expect(plane.queue.deadLetters).toEqual([]);
    expect(plane.queue.counters.failed).toBe(failedBefore);

    for (const o of [...created].reverse()) {
      const response = await api.delete(o.apiVersion, o.kind, o.metadata.namespace ?? 'default', o.metadata.name);
      expect([200, 202, 404]).toContain(response.status);
    }
    for (const o of created) {
      await eventually(`${o.kind} ${o.metadata.name} to be gone`, async () =>
        (await api.get(o.apiVersion, o.kind, o.metadata.namespace ?? 'default', o.metadata.name)) ? undefined : true,
      );
    }
  });
});

describe('bad input', () => {
  const base = () => lifecycleCluster('bad', { namespace: 'bad-input' });
  const pick = (kind: string): KubeObject => {
    const found = base().find((o) => o.kind === kind);
    if (!found) throw new Error(`no ${kind} in the fixture`);
    return found;
  };
  const withSpec = (kind: string, change: (spec: Record<string, unknown>) => void): KubeObject => {
    const object = structuredClone(pick(kind));
    const spec = object.spec ?? {};
    change(spec);
    return { ...object, spec };
  };
  const template = (spec: Record<string, unknown>) => {
    const t = spec.template;
    return isRecord(t) ? t : {};
  };

  it.each([
    ['even control-plane replicas', withSpec('KubeadmControlPlane', (s) => (s.replicas = 4)), 'spec.replicas'],
    [
      'a reference to a kind no provider serves',
      withSpec('Cluster', (s) => (s.infrastructureRef = { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'VSphereCluster', name: 'bad' })),
      'spec.infrastructureRef.kind',
    ],
    ['a non-semver control-plane version', withSpec('KubeadmControlPlane', (s) => (s.version = 'latest')), 'spec.version'],
    [
      'a non-semver worker version',
      withSpec('MachineDeployment', (s) => {
        const spec = template(s).spec;
        if (isRecord(spec)) spec.version = '1.32';
      }),
      'spec.template.spec.version',
    ],
    [
      'an MD selector that does not match its template',
      withSpec('MachineDeployment', (s) => {
        s.selector = { matchLabels: { pool: 'a' } };
        template(s).metadata = { labels: { pool: 'b' } };
      }),
      'spec.selector',
    ],
  ])('rejects %s with 422 and the field path', async (_name, object, field) => {
    const response = await api.create(object);
    expect(response.status).toBe(422);
    expect(valueAt(response.body, 'reason')).toBe('Invalid');
    expect(statusCauseFields(response.body)).toContain(field);
    expect(await api.get(object.apiVersion, object.kind, 'bad-input', object.metadata.name)).toBeUndefined();
  });

  it('references to objects that do not exist yet make the Cluster wait with conditions; it proceeds once they are created', async () => {
    const namespace = 'late';
    const all = lifecycleCluster('late', { namespace, controlPlaneReplicas: 1 });
    const byKind = (kind: string) => all.filter((o) => o.kind === kind);
    const [cluster] = byKind('Cluster');
    if (!cluster) throw new Error('fixture without a Cluster');
    await api.mustCreate(cluster);
    const waiting = await eventually('the Cluster to wait for its InMemoryCluster and KubeadmControlPlane', async (report) => {
      const c = await api.get(CORE_V1BETA2, 'Cluster', namespace, 'late');
      report(c?.status);
      const infra = condition(c, 'InfrastructureReady')?.reason;
      const cp = condition(c, 'ControlPlaneInitialized')?.reason;
      return infra === 'InfrastructureDoesNotExist' && cp === 'ControlPlaneDoesNotExist' ? c : undefined;
    });
    expect(condition(waiting, 'InfrastructureReady')?.status).toBe('False');
    expect(condition(waiting, 'ReconcileSucceeded')?.status).not.toBe('False');

    await timed('late references resolved', async () => {
      for (const infra of byKind('InMemoryCluster')) await api.mustCreate(infra);
      await eventually('the Cluster to see its infrastructure provisioned', async (report) => {
        const c = await api.get(CORE_V1BETA2, 'Cluster', namespace, 'late');
        report(c?.status);
        return valueAt(c, 'status', 'initialization', 'infrastructureProvisioned') === true ? c : undefined;
      });
      for (const o of [...byKind('InMemoryMachineTemplate'), ...byKind('KubeadmControlPlane')]) await api.mustCreate(o);
      await eventually('the Cluster to find its KubeadmControlPlane', async (report) => {
        const c = await api.get(CORE_V1BETA2, 'Cluster', namespace, 'late');
        report(c?.status);
        const reason = condition(c, 'ControlPlaneInitialized')?.reason;
        return reason !== undefined && reason !== 'ControlPlaneDoesNotExist' ? c : undefined;
      });
    });

    await api.delete(CORE_V1BETA2, 'Cluster', namespace, 'late');
    await eventually('the late Cluster, its InMemoryCluster and KubeadmControlPlane to be gone', async () => {
      const c = await api.get(CORE_V1BETA2, 'Cluster', namespace, 'late');
      const i = await api.get(INFRA_V1BETA2, 'InMemoryCluster', namespace, 'late');
      const k = await api.get(CONTROL_PLANE_V1BETA2, 'KubeadmControlPlane', namespace, controlPlaneName('late'));
      return c || i || k ? undefined : true;
    });
  });
});
