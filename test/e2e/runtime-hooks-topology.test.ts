/**
 * Runtime Extension lifecycle hooks on a managed topology, through the embedded control plane's
 * HTTP API (the scenario): an HTTPS extension server with its own CA, discovered through
 * an ExtensionConfig, answers the hooks of a cluster built from Cluster API's in-memory
 * ClusterClass. BeforeClusterCreate blocks twice (nothing of the topology exists meanwhile), then
 * passes; AfterControlPlaneInitialized is called and its pending mark cleared; a version change
 * asks BeforeClusterUpgrade (blocked once, the control plane keeps its version), then
 * BeforeControlPlaneUpgrade and the control plane upgrades; AfterControlPlaneUpgrade, then
 * BeforeWorkersUpgrade (blocked once: no MachineDeployment moves meanwhile), then the workers
 * upgrade; AfterWorkersUpgrade, then AfterClusterUpgrade; deleting the Cluster waits on BeforeClusterDelete until it passes.
 * What the store held at each call is read from its change feed, never from timing.
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
import { LABEL_CONTROL_PLANE } from '../../shared/contracts/topology/well-known.js';
import { eventually } from '../support/eventually.js';
import { discoveryAnswer, type ExtensionAnswer, handler, type RecordedCall, startExtensionServer, type TestExtensionServer } from '../support/extension-server.js';
import { RestClient } from '../support/rest-client.js';
import { exampleText as example, TOPOLOGY_EXAMPLES_SOURCE, yamlDocuments as documents } from '../support/topology-examples.js';
import { LIFECYCLE_HOOKS, type LifecycleHook } from '../../shared/contracts/hooks/catalog.js';
import { ANNOTATION_PENDING_HOOKS } from '../../shared/contracts/topology/well-known.js';


const CORE = 'cluster.x-k8s.io/v1beta2';
const CP_API = 'controlplane.cluster.x-k8s.io/v1beta2';
const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta2';
const EC = 'runtime.cluster.x-k8s.io/v1beta2';
const HOOKS = 'hooks.runtime.cluster.x-k8s.io/v1alpha1';
const NS = 'hooked';
const CLUSTER = 'hc';
const PENDING = ANNOTATION_PENDING_HOOKS;
const HOOK_NAMES = LIFECYCLE_HOOKS;
type Hook = LifecycleHook;
const UPGRADE_ORDER: Hook[] = ['BeforeClusterUpgrade', 'BeforeControlPlaneUpgrade', 'AfterControlPlaneUpgrade', 'BeforeWorkersUpgrade', 'AfterWorkersUpgrade', 'AfterClusterUpgrade'];

let plane: ControlPlane;
let api: RestClient;
let dataDir: string;
let server: TestExtensionServer;
/** Every change the store saw, in order (read-only tap). */
const changes: { type: string; object: KubeObject }[] = [];

interface HookCall {
  hook: Hook;
  request: Record<string, unknown>;
  /** What the store's change feed had shown when the call arrived. */
  seen: { topologyObjects: string[]; controlPlaneVersions: string[]; workerVersions: string[]; clusterDeleting: boolean; kcpDeleting: boolean };
}
const hookCalls: HookCall[] = [];
/** How many times each hook blocks before it passes. */
const blockTimes: Partial<Record<Hook, number>> = { BeforeClusterCreate: 2, BeforeClusterUpgrade: 1, BeforeWorkersUpgrade: 1, BeforeClusterDelete: 1 };

function seenNow(): HookCall['seen'] {
  const latest = new Map<string, { type: string; object: KubeObject }>();
  for (const change of changes) latest.set(`${change.object.kind}/${change.object.metadata.namespace}/${change.object.metadata.name}`, change);
  const live = [...latest.values()].filter((c) => c.type !== 'REMOVE' && c.object.metadata.namespace === NS).map((c) => c.object);
  return {
    topologyObjects: live.filter((o) => ['DevCluster', 'KubeadmControlPlane', 'MachineDeployment', 'DevMachine', 'Machine'].includes(o.kind)).map((o) => `${o.kind}/${o.metadata.name}`),
    controlPlaneVersions: live.filter((o) => o.kind === 'KubeadmControlPlane').map((o) => stringAt(o.spec, 'version') ?? ''),
    workerVersions: live.filter((o) => o.kind === 'MachineDeployment').map((o) => stringAt(o.spec, 'template', 'spec', 'version') ?? ''),
    clusterDeleting: live.some((o) => o.kind === 'Cluster' && o.metadata.name === CLUSTER && isDeleting(o)),
    kcpDeleting: live.some((o) => o.kind === 'KubeadmControlPlane' && isDeleting(o)),
  };
}

function respond(call: RecordedCall): ExtensionAnswer {
  const path = call.url.split('?')[0] ?? '';
  if (path === `/ext/${HOOKS}/discovery`) {
    return discoveryAnswer(HOOK_NAMES.map((hook) => handler(hook.toLowerCase(), hook, { timeoutSeconds: 5, failurePolicy: 'Fail' })));
  }
  const hook = HOOK_NAMES.find((h) => path === `/ext/${HOOKS}/${h.toLowerCase()}/${h.toLowerCase()}`);
  if (!hook) return { status: 404, body: '{}' };
  const request: unknown = JSON.parse(call.body);
  hookCalls.push({ hook, request: isRecord(request) ? request : {}, seen: seenNow() });
  const calledBefore = hookCalls.filter((c) => c.hook === hook).length - 1;
  const retryAfterSeconds = calledBefore < (blockTimes[hook] ?? 0) ? 5 : 0;
  const kind = `${hook}Response`;
  const body = hook === 'AfterControlPlaneInitialized' ? { apiVersion: HOOKS, kind, status: 'Success' } : { apiVersion: HOOKS, kind, status: 'Success', retryAfterSeconds, message: retryAfterSeconds ? 'not yet' : '' };
  return { body: JSON.stringify(body) };
}

const callsOf = (hook: Hook) => hookCalls.filter((c) => c.hook === hook);
const condition = (o: KubeObject | undefined, type: string) => findCondition(conditionsOf(o?.status), type);

async function applyAll(objects: readonly KubeObject[]) {
  for (const object of objects) await api.mustCreateDocument({ ...object, metadata: { ...object.metadata, namespace: NS } });
}

/** A DevMachineTemplate like the class's but quicker to start. */
function fastTemplate(name: string): KubeObject {
  const quick = { provisioning: { startupDuration: '1s', startupJitter: '0.2' } };
  return {
    apiVersion: INFRA,
    kind: 'DevMachineTemplate',
    metadata: { name, namespace: NS },
    spec: { template: { spec: { backend: { inMemory: { vm: quick, node: quick, apiServer: quick, etcd: quick } } } } },
  };
}

async function cluster(): Promise<KubeObject | undefined> {
  return api.get(CORE, 'Cluster', NS, CLUSTER);
}

async function machinesRunning(version: string, what: string) {
  return eventually(
    what,
    async (report) => {
      const all = await api.list(CORE, 'Machine', NS, `${LABEL_CLUSTER_NAME}=${CLUSTER}`);
      report(all.map((m) => `${m.metadata.name}:${String(m.status?.phase)}:${stringAt(m.spec, 'version')}`));
      const ok = all.length === 2 && all.filter((m) => m.metadata.labels?.[LABEL_CONTROL_PLANE] !== undefined).length === 1;
      return ok && all.every((m) => m.status?.phase === 'Running' && !isDeleting(m) && stringAt(m.spec, 'version') === version) ? all : undefined;
    },
    { timeoutMs: 180_000 },
  );
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-hooks-'));
  plane = await startControlPlane({ dataDir, port: 0, persist: false });
  api = new RestClient(plane.url, plane.token);
  server = await startExtensionServer(respond);
  plane.store.onChange((change) => {
    const object = change.newObject ?? change.oldObject;
    if (object) changes.push({ type: change.type, object });
  });
});

afterAll(async () => {
  await plane?.stop();
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe(`lifecycle hooks of a topology cluster through an HTTPS Runtime Extension (in-memory class: ${TOPOLOGY_EXAMPLES_SOURCE})`, { timeout: 300_000 }, () => {
  it('discovers the extension through an ExtensionConfig whose caBundle is the server CA', async () => {
    await api.mustCreate({ apiVersion: EC, kind: 'ExtensionConfig', metadata: { name: 'ext' }, spec: { clientConfig: { url: `${server.url}/ext`, caBundle: server.caBundle } } });
    const discovered = await eventually('ExtensionConfig Discovered', async (report) => {
      const object = await api.get(EC, 'ExtensionConfig', 'default', 'ext');
      report(object?.status);
      return condition(object, 'Discovered')?.status === 'True' ? object : undefined;
    });
    expect(valueAt(discovered, 'status', 'handlers')).toHaveLength(HOOK_NAMES.length);
  });

  it('BeforeClusterCreate holds creation twice (nothing of the topology exists), then the cluster converges; AfterControlPlaneInitialized is called and cleared', async () => {
    await applyAll(documents(example('clusterclass-in-memory.yaml')));
    await api.mustCreate(fastTemplate('fast'));
    await eventually('ClusterClass reconciled', async () => {
      const cc = await api.get(CORE, 'ClusterClass', NS, 'in-memory');
      return condition(cc, 'VariablesReady')?.status === 'True' ? cc : undefined;
    });
    const cc = await api.get(CORE, 'ClusterClass', NS, 'in-memory');
    const workers = valueAt(cc, 'spec', 'workers', 'machineDeployments');
    if (!Array.isArray(workers)) throw new Error('class without workers');
    const fast = { templateRef: { apiVersion: INFRA, kind: 'DevMachineTemplate', name: 'fast' } };
    await api.mergePatch(CORE, 'ClusterClass', NS, 'in-memory', {
      spec: {
        controlPlane: { machineInfrastructure: fast },
        workers: { machineDeployments: workers.map((w: unknown) => (isRecord(w) ? { ...w, infrastructure: fast } : w)) },
      },
    });
    const generated = generateCluster(
      example('cluster-template-in-memory.yaml'),
      { clusterName: CLUSTER, kubernetesVersion: 'v1.33.0', controlPlaneMachineCount: 1, workerMachineCount: 1, targetNamespace: NS },
      {},
    );
    await applyAll(documents(generated));

    const held = await eventually('BeforeClusterCreate blocking, as TopologyReconciled says', async (report) => {
      const c = await cluster();
      report(condition(c, 'TopologyReconciled'));
      return condition(c, 'TopologyReconciled')?.reason === 'ClusterCreating' ? c : undefined;
    });
    expect(condition(held, 'TopologyReconciled')?.message).toBe('Following hooks are blocking Cluster topology creation: BeforeClusterCreate: not yet');
    await machinesRunning('v1.33.0', 'one control-plane and one worker machine Running v1.33.0');

    const creates = callsOf('BeforeClusterCreate');
    expect(creates.length).toBeGreaterThanOrEqual(3);
    for (const call of creates.slice(0, 3)) expect(call.seen.topologyObjects).toEqual([]);
    expect(creates[0]?.request).toMatchObject({ apiVersion: HOOKS, kind: 'BeforeClusterCreateRequest', cluster: { kind: 'Cluster', metadata: { name: CLUSTER, namespace: NS } } });

    const initialized = await eventually('AfterControlPlaneInitialized called and no longer pending', async (report) => {
      const c = await cluster();
      report({ annotations: c?.metadata.annotations, calls: callsOf('AfterControlPlaneInitialized').length });
      return callsOf('AfterControlPlaneInitialized').length > 0 && c?.metadata.annotations?.[PENDING] === undefined ? c : undefined;
    });
    expect(condition(initialized, 'ControlPlaneInitialized')?.status).toBe('True');
    expect(callsOf('AfterControlPlaneInitialized')[0]?.seen.topologyObjects).toEqual(expect.arrayContaining([expect.stringMatching(/^KubeadmControlPlane\//)]));
  });

  it("a version change runs Cluster API's upgrade sequence: BeforeClusterUpgrade and BeforeWorkersUpgrade hold what they guard, every hook in order", async () => {
    await api.mergePatch(CORE, 'Cluster', NS, CLUSTER, { spec: { topology: { version: 'v1.34.0' } } });
    await machinesRunning('v1.34.0', 'both machines Running v1.34.0');
    await eventually('AfterClusterUpgrade called', async () => (callsOf('AfterClusterUpgrade').length > 0 ? true : undefined));

    const upgradeCalls = hookCalls.filter((c) => UPGRADE_ORDER.includes(c.hook)).map((c) => c.hook);
    expect(upgradeCalls.filter((h, i) => h !== upgradeCalls[i - 1])).toEqual(UPGRADE_ORDER);

    const before = callsOf('BeforeClusterUpgrade');
    expect(before).toHaveLength(2);
    // The second call came after the first blocked: the control plane had not moved meanwhile.
    expect(before[1]?.seen.controlPlaneVersions).toEqual(['v1.33.0']);
    const plan = { controlPlaneUpgrades: [{ version: 'v1.34.0' }], workersUpgrades: [{ version: 'v1.34.0' }] };
    expect(before[0]?.request).toMatchObject({ kind: 'BeforeClusterUpgradeRequest', fromKubernetesVersion: 'v1.33.0', toKubernetesVersion: 'v1.34.0', ...plan });

    const cpStep = callsOf('BeforeControlPlaneUpgrade');
    expect(cpStep).toHaveLength(1);
    expect(cpStep[0]?.seen.controlPlaneVersions).toEqual(['v1.33.0']);
    expect(cpStep[0]?.request).toMatchObject({ kind: 'BeforeControlPlaneUpgradeRequest', fromKubernetesVersion: 'v1.33.0', toKubernetesVersion: 'v1.34.0', ...plan });

    const afterCp = callsOf('AfterControlPlaneUpgrade');
    expect(afterCp[0]?.seen.controlPlaneVersions).toEqual(['v1.34.0']);
    expect(afterCp[0]?.seen.workerVersions).toEqual(['v1.33.0']);
    expect(afterCp[0]?.request).toMatchObject({ kind: 'AfterControlPlaneUpgradeRequest', kubernetesVersion: 'v1.34.0', controlPlaneUpgrades: [], workersUpgrades: [{ version: 'v1.34.0' }] });

    const workersStep = callsOf('BeforeWorkersUpgrade');
    expect(workersStep).toHaveLength(2);
    expect(workersStep[0]?.request).toMatchObject({ kind: 'BeforeWorkersUpgradeRequest', fromKubernetesVersion: 'v1.33.0', toKubernetesVersion: 'v1.34.0', controlPlaneUpgrades: [], workersUpgrades: [{ version: 'v1.34.0' }] });
    // Asked again after blocking: the control plane had upgraded, no MachineDeployment had moved.
    expect(workersStep[1]?.seen.controlPlaneVersions).toEqual(['v1.34.0']);
    expect(workersStep[1]?.seen.workerVersions).toEqual(['v1.33.0']);
    const blockedStatus = changes.some(
      (c) => c.object.kind === 'Cluster' && condition(c.object, 'TopologyReconciled')?.message?.includes('Following hooks are blocking upgrade: BeforeWorkersUpgrade: not yet'),
    );
    expect(blockedStatus).toBe(true);

    const afterWorkers = callsOf('AfterWorkersUpgrade');
    expect(afterWorkers).toHaveLength(1);
    expect(afterWorkers[0]?.seen.workerVersions).toEqual(['v1.34.0']);
    expect(afterWorkers[0]?.request).toMatchObject({ kind: 'AfterWorkersUpgradeRequest', kubernetesVersion: 'v1.34.0', controlPlaneUpgrades: [], workersUpgrades: [] });

    const afterCluster = callsOf('AfterClusterUpgrade');
    expect(afterCluster[0]?.seen.workerVersions).toEqual(['v1.34.0']);
    expect(afterCluster[0]?.request).toMatchObject({ kind: 'AfterClusterUpgradeRequest', kubernetesVersion: 'v1.34.0' });

    await eventually('no hook pending once the upgrade is done', async (report) => {
      const c = await cluster();
      report(c?.metadata.annotations);
      return c?.metadata.annotations?.[PENDING] === undefined ? c : undefined;
    });
  });

  it('deleting the Cluster waits on BeforeClusterDelete until it passes; then nothing is left', async () => {
    const response = await fetch(`${plane.url}/apis/cluster.x-k8s.io/v1beta2/namespaces/${NS}/clusters/${CLUSTER}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${plane.token}` },
    });
    expect(response.status).toBe(200);
    await eventually('Cluster gone', async () => ((await cluster()) === undefined ? true : undefined), { timeoutMs: 120_000 });
    const deletes = callsOf('BeforeClusterDelete');
    expect(deletes.length).toBe(2);
    // When the hook was asked again after blocking, the Cluster was deleting and nothing had been torn down.
    expect(deletes[1]?.seen.clusterDeleting).toBe(true);
    expect(deletes[1]?.seen.kcpDeleting).toBe(false);
    expect(await api.list(CP_API, 'KubeadmControlPlane', NS)).toEqual([]);
    expect(await api.list(INFRA, 'DevCluster', NS)).toEqual([]);
  });
});
