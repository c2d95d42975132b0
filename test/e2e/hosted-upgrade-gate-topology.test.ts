/**
 * capless's own hosted extension (functions/hooks, the upgrade gate) registered with capless
 * itself through the ExtensionConfig `capless extension-config` prints (capless's HTTPS endpoint,
 * path secret, serving CA), holding a real topology upgrade through the embedded control plane's
 * API: a topology.version change waits on BeforeClusterUpgrade (TopologyReconciled names the hook,
 * the control plane keeps its version) until the Cluster approves the version; then every machine
 * moves to it and no hook is left pending.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { extensionConfigCommand } from '../../cli/commands/extension-config.js';
import { generateCluster } from '../../cli/templates/clusterctl-variables.js';
import { type ControlPlane, startControlPlane } from '../../local/control-plane.js';
import { conditionsOf, findCondition } from '../../shared/contracts/conditions.js';
import { isRecord, stringAt, valueAt } from '../../shared/contracts/json.js';
import { isDeleting, type KubeObject, LABEL_CLUSTER_NAME } from '../../shared/contracts/object.js';
import { eventually } from '../support/eventually.js';
import { RestClient, type SendRequest } from '../support/rest-client.js';
import { runCli } from '../support/run-cli.js';
import { exampleText as example, TOPOLOGY_EXAMPLES_SOURCE, yamlDocuments as documents } from '../support/topology-examples.js';


const CORE = 'cluster.x-k8s.io/v1beta2';
const CP_API = 'controlplane.cluster.x-k8s.io/v1beta2';
const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta2';
const EC = 'runtime.cluster.x-k8s.io/v1beta2';
const NS = 'gated';
const CLUSTER = 'gc';
const APPROVED = 'upgrade-gate.capless.dev/approved-version';

let plane: ControlPlane;
let api: RestClient;
let dataDir: string;
let extensionConfig: KubeObject;

/** fetch over node:https trusting capless's serving CA. */
function sendWithCa(ca: string): SendRequest {
  return (url, init) =>
    new Promise((done, fail) => {
      const req = request(url, { method: init.method, headers: init.headers, ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          done(new Response(body, { status, headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') } }));
        });
      });
      req.on('error', fail);
      req.end(init.body);
    });
}

const condition = (o: KubeObject | undefined, type: string) => findCondition(conditionsOf(o?.status), type);

async function applyAll(objects: readonly KubeObject[]) {
  for (const object of objects) await api.mustCreateDocument({ ...object, metadata: { ...object.metadata, namespace: NS } });
}

async function machinesRunning(version: string, what: string) {
  return eventually(
    what,
    async (report) => {
      const all = await api.list(CORE, 'Machine', NS, `${LABEL_CLUSTER_NAME}=${CLUSTER}`);
      report(all.map((m) => `${m.metadata.name}:${String(m.status?.phase)}:${stringAt(m.spec, 'version')}`));
      return all.length === 2 && all.every((m) => m.status?.phase === 'Running' && !isDeleting(m) && stringAt(m.spec, 'version') === version) ? all : undefined;
    },
    { timeoutMs: 180_000 },
  );
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-gate-'));
  plane = await startControlPlane({ dataDir, port: 0, persist: false, tls: true });
  const run = await runCli(extensionConfigCommand, ['--data-dir', dataDir, '--name', 'capless-gate'], { kubeconfigPath: plane.kubeconfigPath });
  expect(run.stderr).toBe('');
  const printed: unknown = parse(run.stdout);
  if (!isRecord(printed) || printed.kind !== 'ExtensionConfig' || !isRecord(printed.spec)) throw new Error('capless extension-config printed no ExtensionConfig');
  extensionConfig = { apiVersion: EC, kind: 'ExtensionConfig', metadata: { name: 'capless-gate' }, spec: printed.spec };
  const ca = Buffer.from(stringAt(printed, 'spec', 'clientConfig', 'caBundle') ?? '', 'base64').toString('utf8');
  api = new RestClient(plane.url, plane.token, sendWithCa(ca));
});

afterAll(async () => {
  await plane?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe(`the hosted upgrade gate holds a topology upgrade (in-memory class: ${TOPOLOGY_EXAMPLES_SOURCE})`, { timeout: 300_000 }, () => {
  it('registers capless own extension and builds a 1+1 topology cluster', async () => {
    // The gate asks again after 2 s instead of its default minute.
    await api.mustCreate({ ...extensionConfig, spec: { ...extensionConfig.spec, settings: { retryAfterSeconds: '2' } } });
    await eventually('capless-gate discovered', async () => {
      const object = await api.get(EC, 'ExtensionConfig', 'default', 'capless-gate');
      return condition(object, 'Discovered')?.status === 'True' ? object : undefined;
    });
    await applyAll(documents(example('clusterclass-in-memory.yaml')));
    const quick = { provisioning: { startupDuration: '1s', startupJitter: '0.2' } };
    await api.mustCreate({ apiVersion: INFRA, kind: 'DevMachineTemplate', metadata: { name: 'fast', namespace: NS }, spec: { template: { spec: { backend: { inMemory: { vm: quick, node: quick, apiServer: quick, etcd: quick } } } } } });
    const cc = await eventually('ClusterClass reconciled', async () => {
      const found = await api.get(CORE, 'ClusterClass', NS, 'in-memory');
      return condition(found, 'VariablesReady')?.status === 'True' ? found : undefined;
    });
    const workers = valueAt(cc, 'spec', 'workers', 'machineDeployments');
    if (!Array.isArray(workers)) throw new Error('class without workers');
    const fast = { templateRef: { apiVersion: INFRA, kind: 'DevMachineTemplate', name: 'fast' } };
    await api.mergePatch(CORE, 'ClusterClass', NS, 'in-memory', {
      spec: { controlPlane: { machineInfrastructure: fast }, workers: { machineDeployments: workers.map((w: unknown) => (isRecord(w) ? { ...w, infrastructure: fast } : w)) } },
    });
    const generated = generateCluster(
      example('cluster-template-in-memory.yaml'),
      { clusterName: CLUSTER, kubernetesVersion: 'v1.33.0', controlPlaneMachineCount: 1, workerMachineCount: 1, targetNamespace: NS },
      {},
    );
    await applyAll(documents(generated));
    await machinesRunning('v1.33.0', 'both machines Running v1.33.0');
  });

  it('holds topology.version v1.34.0 until the Cluster approves it, then upgrades every machine', async () => {
    await api.mergePatch(CORE, 'Cluster', NS, CLUSTER, { spec: { topology: { version: 'v1.34.0' } } });
    const held = await eventually('BeforeClusterUpgrade blocking', async (report) => {
      const c = await api.get(CORE, 'Cluster', NS, CLUSTER);
      report(condition(c, 'TopologyReconciled'));
      return condition(c, 'TopologyReconciled')?.message?.includes('Following hooks are blocking upgrade: BeforeClusterUpgrade') ? c : undefined;
    });
    expect(condition(held, 'TopologyReconciled')).toMatchObject({ status: 'False', reason: 'ClusterUpgrading' });
    expect(condition(held, 'TopologyReconciled')?.message).toContain(`${APPROVED}=v1.34.0`);
    const [kcp] = await api.list(CP_API, 'KubeadmControlPlane', NS);
    expect(stringAt(kcp?.spec, 'version')).toBe('v1.33.0');

    await api.mergePatch(CORE, 'Cluster', NS, CLUSTER, { metadata: { annotations: { [APPROVED]: 'v1.34.0' } } });
    await machinesRunning('v1.34.0', 'both machines Running v1.34.0');
    await eventually('no hook pending and TopologyReconciled True', async (report) => {
      const c = await api.get(CORE, 'Cluster', NS, CLUSTER);
      report({ annotations: c?.metadata.annotations, topology: condition(c, 'TopologyReconciled') });
      return c?.metadata.annotations?.['runtime.cluster.x-k8s.io/pending-hooks'] === undefined && condition(c, 'TopologyReconciled')?.status === 'True' ? c : undefined;
    });
  });
});
