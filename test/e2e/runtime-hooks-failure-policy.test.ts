/**
 * failurePolicy on a topology lifecycle hook through the embedded control plane's API: an HTTPS
 * extension whose BeforeClusterCreate handler never answers within its 1 s timeout. Under `Fail`
 * the topology is not created and TopologyReconciled says the hook failed and why; once the
 * extension announces the handler with `Ignore` (re-discovered after the ExtensionConfig changes)
 * the timeout no longer blocks and the topology's objects are created.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCluster } from '../../cli/templates/clusterctl-variables.js';
import { type ControlPlane, startControlPlane } from '../../local/control-plane.js';
import { conditionsOf, findCondition } from '../../shared/contracts/conditions.js';
import { isRecord, valueAt } from '../../shared/contracts/json.js';
import type { KubeObject } from '../../shared/contracts/object.js';
import { eventually } from '../support/eventually.js';
import { discoveryAnswer, type ExtensionAnswer, handler, type RecordedCall, startExtensionServer, type TestExtensionServer } from '../support/extension-server.js';
import { RestClient } from '../support/rest-client.js';
import { exampleText as example, TOPOLOGY_EXAMPLES_SOURCE, yamlDocuments as documents } from '../support/topology-examples.js';


const CORE = 'cluster.x-k8s.io/v1beta2';
const CP_API = 'controlplane.cluster.x-k8s.io/v1beta2';
const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta2';
const EC = 'runtime.cluster.x-k8s.io/v1beta2';
const HOOKS = 'hooks.runtime.cluster.x-k8s.io/v1alpha1';
const NS = 'policy';
const CLUSTER = 'pc';

let plane: ControlPlane;
let api: RestClient;
let dataDir: string;
let server: TestExtensionServer;
let failurePolicy: 'Fail' | 'Ignore' = 'Fail';

function respond(call: RecordedCall): ExtensionAnswer {
  const path = call.url.split('?')[0] ?? '';
  if (path === `/slow/${HOOKS}/discovery`) return discoveryAnswer([handler('create', 'BeforeClusterCreate', { timeoutSeconds: 1, failurePolicy })]);
  if (path === `/slow/${HOOKS}/beforeclustercreate/create`) return { delayMs: 3000, body: JSON.stringify({ status: 'Success', retryAfterSeconds: 0 }) };
  return { status: 404, body: '{}' };
}

const condition = (o: KubeObject | undefined, type: string) => findCondition(conditionsOf(o?.status), type);

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-policy-'));
  plane = await startControlPlane({ dataDir, port: 0, persist: false });
  api = new RestClient(plane.url, plane.token);
  server = await startExtensionServer(respond);
});

afterAll(async () => {
  await plane?.stop();
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function discoveredWith(policy: 'Fail' | 'Ignore') {
  return eventually(`handler discovered with failurePolicy ${policy}`, async (report) => {
    const object = await api.get(EC, 'ExtensionConfig', 'default', 'slow');
    const handlers = valueAt(object, 'status', 'handlers');
    report(handlers);
    return Array.isArray(handlers) && isRecord(handlers[0]) && handlers[0].failurePolicy === policy ? object : undefined;
  });
}

describe(`failurePolicy of a BeforeClusterCreate handler that times out (in-memory class: ${TOPOLOGY_EXAMPLES_SOURCE})`, { timeout: 300_000 }, () => {
  it('Fail: the topology is not created and TopologyReconciled says the hook failed', async () => {
    await api.mustCreate({ apiVersion: EC, kind: 'ExtensionConfig', metadata: { name: 'slow' }, spec: { clientConfig: { url: `${server.url}/slow`, caBundle: server.caBundle } } });
    await discoveredWith('Fail');
    for (const object of documents(example('clusterclass-in-memory.yaml'))) await api.mustCreateDocument({ ...object, metadata: { ...object.metadata, namespace: NS } });
    const generated = generateCluster(
      example('cluster-template-in-memory.yaml'),
      { clusterName: CLUSTER, kubernetesVersion: 'v1.33.0', controlPlaneMachineCount: 1, workerMachineCount: 1, targetNamespace: NS },
      {},
    );
    for (const object of documents(generated)) await api.mustCreateDocument({ ...object, metadata: { ...object.metadata, namespace: NS } });
    const failed = await eventually('TopologyReconciled ReconcileFailed', async (report) => {
      const c = await api.get(CORE, 'Cluster', NS, CLUSTER);
      report(condition(c, 'TopologyReconciled'));
      return condition(c, 'TopologyReconciled')?.reason === 'ReconcileFailed' ? c : undefined;
    });
    expect(condition(failed, 'TopologyReconciled')?.message).toMatch(/error calling the BeforeClusterCreate hook: .*timed out/);
    expect(await api.list(CP_API, 'KubeadmControlPlane', NS)).toEqual([]);
    expect(await api.list(INFRA, 'DevCluster', NS)).toEqual([]);
  });

  it('Ignore: the same timeout no longer blocks and the topology is created', async () => {
    failurePolicy = 'Ignore';
    // A change to the ExtensionConfig re-runs discovery.
    await api.mergePatch(EC, 'ExtensionConfig', 'default', 'slow', { spec: { settings: { round: 'two' } } });
    await discoveredWith('Ignore');
    const created = await eventually('the control plane created', async () => (await api.list(CP_API, 'KubeadmControlPlane', NS))[0]);
    expect(created.metadata.labels?.['cluster.x-k8s.io/cluster-name']).toBe(CLUSTER);
  });
});
