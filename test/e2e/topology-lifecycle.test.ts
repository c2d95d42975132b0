/**
 * Managed topology end to end through the embedded control plane's HTTP API: Cluster API's own
 * in-memory ClusterClass applied unchanged (capless's copy in test/fixtures/topology when
 * ../shared is absent) and a cluster generated from its clusterctl template
 * (3 control-plane, 2 worker machines) converge; template rotation rolls only what changed;
 * scaling and MachineDeployment add/remove follow the topology; a version change upgrades the
 * control plane before any worker; the quick-start class lands its patches and waits on the
 * Docker backend; deleting the Cluster leaves nothing behind. The store's change feed is only read.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCluster } from '../../cli/templates/clusterctl-variables.js';
import { type ControlPlane, startControlPlane } from '../../local/control-plane.js';
import { conditionsOf, findCondition } from '../../shared/contracts/conditions.js';
import { isRecord, stringAt, valueAt } from '../../shared/contracts/json.js';
import { isDeleting, type KubeObject, LABEL_CLUSTER_NAME } from '../../shared/contracts/object.js';
import { LABEL_CONTROL_PLANE, LABEL_TOPOLOGY_DEPLOYMENT_NAME } from '../../shared/contracts/topology/well-known.js';
import { eventually } from '../support/eventually.js';
import { RestClient } from '../support/rest-client.js';
import {
  exampleText as example,
  haveUpstreamExample,
  TOPOLOGY_EXAMPLES_SOURCE,
  upstreamExampleMissing,
  yamlDocuments as documents,
} from '../support/topology-examples.js';

const CORE = 'cluster.x-k8s.io/v1beta2';
const CP_API = 'controlplane.cluster.x-k8s.io/v1beta2';
const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta2';
const BOOTSTRAP = 'bootstrap.cluster.x-k8s.io/v1beta2';
const NS = 'topology';
const CLUSTER = 'tc';

let plane: ControlPlane;
let api: RestClient;
let dataDir: string;
/** Every change the store saw, in order (read-only tap). */
const changes: { type: string; object: KubeObject }[] = [];

async function applyAll(objects: readonly KubeObject[], namespace: string) {
  for (const object of objects) await api.mustCreateDocument({ ...object, metadata: { ...object.metadata, namespace } });
}

const condition = (o: KubeObject | undefined, type: string) => findCondition(conditionsOf(o?.status), type);
const isRunning = (m: KubeObject) => m.status?.phase === 'Running' && !isDeleting(m);
const isControlPlane = (m: KubeObject) => m.metadata.labels?.[LABEL_CONTROL_PLANE] !== undefined;
const topologyName = (m: KubeObject) => m.metadata.labels?.[LABEL_TOPOLOGY_DEPLOYMENT_NAME];

async function machines(namespace = NS, cluster = CLUSTER): Promise<KubeObject[]> {
  return api.list(CORE, 'Machine', namespace, `${LABEL_CLUSTER_NAME}=${cluster}`);
}

function describeMachines(list: readonly KubeObject[]) {
  return list.map((m) => `${m.metadata.name}:${String(m.status?.phase)}:${stringAt(m.spec, 'version')}${isDeleting(m) ? ':deleting' : ''}`);
}

/** Control plane: `cp` machines, each worker pool its count, all Running `version`, nothing else left. */
async function converged(cp: number, workers: Record<string, number>, version: string, what: string) {
  return eventually(
    what,
    async (report) => {
      const all = await machines();
      report(describeMachines(all));
      const cpMachines = all.filter(isControlPlane);
      const ok =
        cpMachines.length === cp &&
        Object.entries(workers).every(([name, n]) => all.filter((m) => topologyName(m) === name).length === n) &&
        all.length === cp + Object.values(workers).reduce((a, b) => a + b, 0) &&
        all.every((m) => isRunning(m) && stringAt(m.spec, 'version') === version);
      return ok ? all : undefined;
    },
    { timeoutMs: 240_000 },
  );
}

async function cluster(): Promise<KubeObject | undefined> {
  return api.get(CORE, 'Cluster', NS, CLUSTER);
}

async function patchTopology(patch: Record<string, unknown>) {
  await api.mergePatch(CORE, 'Cluster', NS, CLUSTER, { spec: { topology: patch } });
}

async function currentTopology(): Promise<Record<string, unknown>> {
  const topology = valueAt(await cluster(), 'spec', 'topology');
  if (!isRecord(topology)) throw new Error('the Cluster has no topology');
  return topology;
}

/** A DevMachineTemplate like the class's but quicker to start (a new template, as a user would add). */
function fastTemplate(name: string): KubeObject {
  const quick = { provisioning: { startupDuration: '1s', startupJitter: '0.2' } };
  return {
    apiVersion: INFRA,
    kind: 'DevMachineTemplate',
    metadata: { name, namespace: NS },
    spec: { template: { spec: { backend: { inMemory: { vm: quick, node: quick, apiServer: quick, etcd: quick } } } } },
  };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-topology-'));
  plane = await startControlPlane({ dataDir, port: 0, persist: false });
  api = new RestClient(plane.url, plane.token);
  plane.store.onChange((change) => {
    const object = change.newObject ?? change.oldObject;
    if (object) changes.push({ type: change.type, object });
  });
});

afterAll(async () => {
  await plane?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

// Machines boot on the class's own simulated durations (10 s VMs): scenario steps get minutes, not the default 2.
describe(`managed topology through the HTTP API (in-memory class: ${TOPOLOGY_EXAMPLES_SOURCE})`, { timeout: 300_000 }, () => {
  it('converges the in-memory ClusterClass and its clusterctl template: 3 control-plane and 2 worker machines Running, the Cluster Available', async () => {
    await applyAll(documents(example('clusterclass-in-memory.yaml')), NS);
    await eventually('ClusterClass reconciled', async (report) => {
      const cc = await api.get(CORE, 'ClusterClass', NS, 'in-memory');
      report(cc?.status);
      return condition(cc, 'VariablesReady')?.status === 'True' && condition(cc, 'RefVersionsUpToDate')?.status === 'True' ? cc : undefined;
    });
    const generated = generateCluster(
      example('cluster-template-in-memory.yaml'),
      { clusterName: CLUSTER, kubernetesVersion: 'v1.33.0', controlPlaneMachineCount: 3, workerMachineCount: 2, targetNamespace: NS },
      {},
    );
    await applyAll(documents(generated), NS);
    await converged(3, { 'md-0': 2 }, 'v1.33.0', '3 control-plane and 2 md-0 machines Running v1.33.0');
    const available = await eventually('Cluster Available', async (report) => {
      const c = await cluster();
      report(c?.status?.conditions);
      return condition(c, 'Available')?.status === 'True' ? c : undefined;
    });
    expect(condition(available, 'TopologyReconciled')).toMatchObject({ status: 'True', reason: 'ReconcileSucceeded' });

    const [md] = await api.list(CORE, 'MachineDeployment', NS, `${LABEL_TOPOLOGY_DEPLOYMENT_NAME}=md-0`);
    expect(md?.metadata.labels).toMatchObject({ [LABEL_CLUSTER_NAME]: CLUSTER, 'topology.cluster.x-k8s.io/owned': '' });
    expect(md?.metadata.name).toMatch(new RegExp(`^${CLUSTER}-md-0-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
    const checks = await api.list(CORE, 'MachineHealthCheck', NS, `${LABEL_CLUSTER_NAME}=${CLUSTER}`);
    expect(checks.map((c) => valueAt(c, 'spec', 'selector', 'matchLabels'))).toEqual(
      expect.arrayContaining([
        { 'topology.cluster.x-k8s.io/owned': '', [LABEL_CONTROL_PLANE]: '' },
        { 'topology.cluster.x-k8s.io/owned': '', [LABEL_TOPOLOGY_DEPLOYMENT_NAME]: 'md-0' },
      ]),
    );
    expect(checks).toHaveLength(2);
  });

  it('rolls the workers to a new infrastructure template of the class; the control plane is untouched', async () => {
    const cpBefore = (await machines()).filter(isControlPlane).map((m) => m.metadata.name).sort();
    const kcpBefore = (await api.list(CP_API, 'KubeadmControlPlane', NS))[0];
    await api.mustCreate(fastTemplate('fast-worker'));
    const cc = await api.get(CORE, 'ClusterClass', NS, 'in-memory');
    const workers = valueAt(cc, 'spec', 'workers', 'machineDeployments');
    if (!Array.isArray(workers)) throw new Error('class without workers');
    const rotated = workers.map((w: unknown) => (isRecord(w) ? { ...w, infrastructure: { templateRef: { apiVersion: INFRA, kind: 'DevMachineTemplate', name: 'fast-worker' } } } : w));
    await api.mergePatch(CORE, 'ClusterClass', NS, 'in-memory', { spec: { workers: { machineDeployments: rotated } } });
    const after = await eventually('md-0 machines from the fast-worker template', async (report) => {
      const all = await machines();
      const infra = await api.list(INFRA, 'DevMachine', NS, `${LABEL_CLUSTER_NAME}=${CLUSTER}`);
      const fromFast = infra.filter((i) => i.spec && isRecord(i.spec.backend) && JSON.stringify(i.spec.backend).includes('"1s"'));
      report({ machines: describeMachines(all), fromFast: fromFast.map((f) => f.metadata.name) });
      const workersNow = all.filter((m) => topologyName(m) === 'md-0');
      return workersNow.length === 2 && workersNow.every(isRunning) && fromFast.length === 2 && all.length === 5 ? all : undefined;
    }, { timeoutMs: 180_000 });
    expect(after.filter(isControlPlane).map((m) => m.metadata.name).sort()).toEqual(cpBefore);
    const kcpAfter = (await api.list(CP_API, 'KubeadmControlPlane', NS))[0];
    expect(kcpAfter?.metadata.generation).toBe(kcpBefore?.metadata.generation);
  });

  it('scales the control plane 3 → 5 → 3 and md-0 2 → 3 → 1, adds a second MachineDeployment and removes it again', async () => {
    // The control plane first moves to a quick template too, so the scaling steps do not wait on 10 s VMs.
    await api.mustCreate(fastTemplate('fast-control-plane'));
    await api.mergePatch(CORE, 'ClusterClass', NS, 'in-memory', {
      spec: { controlPlane: { machineInfrastructure: { templateRef: { apiVersion: INFRA, kind: 'DevMachineTemplate', name: 'fast-control-plane' } } } },
    });
    await eventually('control plane rolled to the quick template', async (report) => {
      const kcp = (await api.list(CP_API, 'KubeadmControlPlane', NS))[0];
      report(kcp?.status);
      return kcp?.status?.upToDateReplicas === 3 && kcp.status.readyReplicas === 3 && kcp.status.replicas === 3 ? kcp : undefined;
    }, { timeoutMs: 180_000 });
    await converged(3, { 'md-0': 2 }, 'v1.33.0', 'control plane rolled');

    await patchTopology({ controlPlane: { replicas: 5 } });
    await converged(5, { 'md-0': 2 }, 'v1.33.0', '5 control-plane machines');
    await patchTopology({ controlPlane: { replicas: 3 } });
    await converged(3, { 'md-0': 2 }, 'v1.33.0', '3 control-plane machines');

    const topology = await currentTopology();
    const md0 = { class: 'default-worker', name: 'md-0' };
    await patchTopology({ workers: { machineDeployments: [{ ...md0, replicas: 3 }] } });
    await converged(3, { 'md-0': 3 }, 'v1.33.0', 'md-0 at 3');
    await patchTopology({ workers: { machineDeployments: [{ ...md0, replicas: 1 }, { class: 'default-worker', name: 'md-1', replicas: 1 }] } });
    await converged(3, { 'md-0': 1, 'md-1': 1 }, 'v1.33.0', 'md-0 at 1 and md-1 at 1');
    expect(await api.list(CORE, 'MachineHealthCheck', NS, `${LABEL_CLUSTER_NAME}=${CLUSTER}`)).toHaveLength(3);
    await patchTopology({ workers: { machineDeployments: [{ ...md0, replicas: 2 }] } });
    await converged(3, { 'md-0': 2 }, 'v1.33.0', 'md-1 removed, md-0 back at 2');
    expect(await api.list(CORE, 'MachineDeployment', NS, `${LABEL_TOPOLOGY_DEPLOYMENT_NAME}=md-1`)).toEqual([]);
    expect(await api.list(CORE, 'MachineHealthCheck', NS, `${LABEL_CLUSTER_NAME}=${CLUSTER}`)).toHaveLength(2);
    expect(topology.version).toBe('v1.33.0');
  });

  it('upgrades the control plane first: no worker moves before every control-plane machine runs the new version', async () => {
    const cpVersions = new Map<string, string | undefined>((await machines()).filter(isControlPlane).map((m) => [m.metadata.name, stringAt(m.spec, 'version')]));
    const from = changes.length;
    await patchTopology({ version: 'v1.34.0' });
    await converged(3, { 'md-0': 2 }, 'v1.34.0', 'every machine on v1.34.0');
    // Replay the change feed: when md-0 takes the new version, no control-plane Machine may still run the old one.
    const violations: string[] = [];
    for (const { type, object } of changes.slice(from)) {
      if (object.kind === 'Machine' && isControlPlane(object)) {
        if (type === 'REMOVE') cpVersions.delete(object.metadata.name);
        else cpVersions.set(object.metadata.name, stringAt(object.spec, 'version'));
      }
      if (object.kind === 'MachineDeployment' && stringAt(object.spec, 'template', 'spec', 'version') === 'v1.34.0') {
        const behind = [...cpVersions].filter(([, v]) => v !== 'v1.34.0');
        if (behind.length > 0) violations.push(`md ${object.metadata.name} took v1.34.0 while ${behind.map(([n, v]) => `${n}@${v}`).join(', ')}`);
      }
    }
    expect(violations).toEqual([]);
    await eventually('TopologyReconciled once the upgrade is done', async (report) => {
      const c = await cluster();
      report(condition(c, 'TopologyReconciled'));
      return condition(c, 'TopologyReconciled')?.status === 'True' ? c : undefined;
    });
  });

  it('accepts the quick-start class with the development template: patches land from variables, the Cluster waits on ProviderNotInstalled', async (context) => {
    for (const file of ['clusterclass-quick-start.yaml', 'cluster-template-development.yaml']) {
      if (!haveUpstreamExample(file)) context.skip(upstreamExampleMissing(file));
    }
    const ns = 'quick-start';
    await applyAll(documents(example('clusterclass-quick-start.yaml')), ns);
    const generated = generateCluster(
      example('cluster-template-development.yaml'),
      { clusterName: 'dev', kubernetesVersion: 'v1.33.0', controlPlaneMachineCount: 1, workerMachineCount: 1, targetNamespace: ns },
      {},
    );
    const [devCluster] = documents(generated);
    if (!devCluster) throw new Error('the template generated nothing');
    const values: Record<string, unknown> = { imageRepository: 'registry.example.com/k8s', etcdImageTag: '3.5.16-0', coreDNSImageTag: 'v1.11.3' };
    const topology = valueAt(devCluster, 'spec', 'topology');
    if (!isRecord(topology) || !Array.isArray(topology.variables)) throw new Error('template without variables');
    topology.variables = topology.variables.map((v: unknown) => (isRecord(v) && typeof v.name === 'string' && v.name in values ? { ...v, value: values[v.name] } : v));
    await eventually('quick-start ClusterClass reconciled', async () => {
      const cc = await api.get(CORE, 'ClusterClass', ns, 'quick-start');
      return condition(cc, 'RefVersionsUpToDate')?.status === 'True' ? cc : undefined;
    });
    await applyAll([devCluster], ns);
    const kcp = await eventually('the quick-start control plane', async () => (await api.list(CP_API, 'KubeadmControlPlane', ns))[0]);
    expect(valueAt(kcp, 'spec', 'kubeadmConfigSpec', 'clusterConfiguration')).toMatchObject({
      imageRepository: 'registry.example.com/k8s',
      etcd: { local: { imageTag: '3.5.16-0' } },
      dns: { imageTag: 'v1.11.3' },
    });
    const files = valueAt(kcp, 'spec', 'kubeadmConfigSpec', 'files');
    const admissionConfig = Array.isArray(files) ? stringAt(files[0], 'content') : undefined;
    expect(admissionConfig).toContain('enforce: "baseline"');
    expect(admissionConfig).toContain('apiVersion: pod-security.admission.config.k8s.io/v1\n');
    const templates = await eventually('both machine templates cloned', async (report) => {
      const found = await api.list(INFRA, 'DevMachineTemplate', ns, 'topology.cluster.x-k8s.io/owned');
      report(found.map((t) => t.metadata.name));
      return found.length === 2 ? found : undefined;
    });
    expect(templates.map((t) => valueAt(t, 'spec', 'template', 'spec', 'backend', 'docker', 'customImage')).sort()).toEqual(['kindest/node:v1.33.0', 'kindest/node:v1.33.0']);
    const waiting = await eventually('the dev Cluster waits on the Docker backend', async (report) => {
      const c = await api.get(CORE, 'Cluster', ns, 'dev');
      report(c?.status?.conditions);
      const infra = condition(c, 'InfrastructureReady');
      return infra?.status === 'False' && JSON.stringify(c?.status).includes('ProviderNotInstalled') ? c : undefined;
    });
    expect(condition(waiting, 'TopologyReconciled')?.status).toBe('True');
  });

  it('deletes the Cluster and everything the topology created', async () => {
    const response = await fetch(`${plane.url}/apis/cluster.x-k8s.io/v1beta2/namespaces/${NS}/clusters/${CLUSTER}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${plane.token}` },
    });
    expect(response.status).toBe(200);
    await eventually('Cluster gone', async () => ((await cluster()) === undefined ? true : undefined), { timeoutMs: 120_000 });
    const leftovers = await eventually('no topology object left', async (report) => {
      const kinds: Array<[string, string]> = [
        [CORE, 'MachineDeployment'], [CORE, 'MachineSet'], [CORE, 'Machine'], [CORE, 'MachineHealthCheck'],
        [CP_API, 'KubeadmControlPlane'], [INFRA, 'DevCluster'], [INFRA, 'DevMachine'], [BOOTSTRAP, 'KubeadmConfig'],
      ];
      const left: string[] = [];
      for (const [apiVersion, kind] of kinds) for (const o of await api.list(apiVersion, kind, NS)) left.push(`${kind}/${o.metadata.name}`);
      for (const [apiVersion, kind] of [[INFRA, 'DevMachineTemplate'], [BOOTSTRAP, 'KubeadmConfigTemplate']] as const) {
        for (const o of await api.list(apiVersion, kind, NS, 'topology.cluster.x-k8s.io/owned')) left.push(`${kind}/${o.metadata.name}`);
      }
      report(left);
      return left.length === 0 ? left : undefined;
    }, { timeoutMs: 120_000 });
    expect(leftovers).toEqual([]);
  });
});
