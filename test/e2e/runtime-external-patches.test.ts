/**
 * External ClusterClass patches through the embedded control plane's API: Cluster API's in-memory
 * ClusterClass with one `external` patch naming handlers of an HTTPS extension (its own CA,
 * discovered through an ExtensionConfig). GeneratePatches receives the topology's templates with
 * their holders and its JSONPatch lands in the generated KubeadmControlPlane; ValidateTopology is
 * asked with the patched templates, and its Failure stops the topology with ReconcileFailed.
 * DiscoverVariables: the class lists the variable the extension defines (`from` the patch), and a
 * Cluster setting it gets its value into GeneratePatches.
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
const EC = 'runtime.cluster.x-k8s.io/v1beta2';
const HOOKS = 'hooks.runtime.cluster.x-k8s.io/v1alpha1';
const NS = 'patched';
const EXTRA_COMMAND = 'extraCommand';

let plane: ControlPlane;
let api: RestClient;
let dataDir: string;
let server: TestExtensionServer;
let rejectTopology = false;
const requests: Array<{ hook: string; body: Record<string, unknown> }> = [];

function items(body: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(body.items) ? body.items.filter(isRecord) : [];
}

function respond(call: RecordedCall): ExtensionAnswer {
  const path = call.url.split('?')[0] ?? '';
  if (path === `/ext/${HOOKS}/discovery`) return discoveryAnswer([handler('gen', 'GeneratePatches'), handler('validate', 'ValidateTopology'), handler('vars', 'DiscoverVariables')]);
  const parsed: unknown = JSON.parse(call.body);
  const body = isRecord(parsed) ? parsed : {};
  if (path === `/ext/${HOOKS}/generatepatches/gen`) {
    requests.push({ hook: 'GeneratePatches', body });
    const controlPlane = items(body).find((i) => valueAt(i, 'holderReference', 'fieldPath') === 'spec.controlPlaneRef');
    const chosen = (Array.isArray(controlPlane?.variables) ? controlPlane.variables : []).find((v: unknown) => isRecord(v) && v.name === EXTRA_COMMAND);
    const command = isRecord(chosen) && typeof chosen.value === 'string' ? chosen.value : 'echo patched-by-extension';
    const patch = Buffer.from(JSON.stringify([{ op: 'add', path: '/spec/template/spec/kubeadmConfigSpec/preKubeadmCommands', value: [command] }])).toString('base64');
    const answered = controlPlane ? [{ uid: controlPlane.uid, patchType: 'JSONPatch', patch }] : [];
    return { body: JSON.stringify({ apiVersion: HOOKS, kind: 'GeneratePatchesResponse', status: 'Success', items: answered }) };
  }
  if (path === `/ext/${HOOKS}/discovervariables/vars`) {
    requests.push({ hook: 'DiscoverVariables', body });
    const variables = [{ name: EXTRA_COMMAND, required: false, schema: { openAPIV3Schema: { type: 'string', maxLength: 64 } } }];
    return { body: JSON.stringify({ apiVersion: HOOKS, kind: 'DiscoverVariablesResponse', status: 'Success', variables }) };
  }
  if (path === `/ext/${HOOKS}/validatetopology/validate`) {
    requests.push({ hook: 'ValidateTopology', body });
    return { body: JSON.stringify({ apiVersion: HOOKS, kind: 'ValidateTopologyResponse', ...(rejectTopology ? { status: 'Failure', message: 'two clusters are one too many' } : { status: 'Success' }) }) };
  }
  return { status: 404, body: '{}' };
}

const condition = (o: KubeObject | undefined, type: string) => findCondition(conditionsOf(o?.status), type);

async function createCluster(name: string, variables: unknown[] = []) {
  const generated = generateCluster(
    example('cluster-template-in-memory.yaml'),
    { clusterName: name, kubernetesVersion: 'v1.33.0', controlPlaneMachineCount: 1, workerMachineCount: 1, targetNamespace: NS },
    {},
  );
  for (const object of documents(generated)) {
    const topology = object.kind === 'Cluster' && isRecord(object.spec?.topology) ? object.spec.topology : undefined;
    const existing = Array.isArray(topology?.variables) ? topology.variables : [];
    const withVariables = topology && variables.length > 0 ? { ...object, spec: { ...object.spec, topology: { ...topology, variables: [...existing, ...variables] } } } : object;
    await api.mustCreateDocument({ ...withVariables, metadata: { ...withVariables.metadata, namespace: NS } });
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-extpatch-'));
  plane = await startControlPlane({ dataDir, port: 0, persist: false });
  api = new RestClient(plane.url, plane.token);
  server = await startExtensionServer(respond);
});

afterAll(async () => {
  await plane?.stop();
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe(`external patches of a ClusterClass through an HTTPS extension (in-memory class: ${TOPOLOGY_EXAMPLES_SOURCE})`, { timeout: 300_000 }, () => {
  it('GeneratePatches lands in the generated control plane; ValidateTopology sees the patched templates', async () => {
    await api.mustCreate({ apiVersion: EC, kind: 'ExtensionConfig', metadata: { name: 'ext' }, spec: { clientConfig: { url: `${server.url}/ext`, caBundle: server.caBundle } } });
    await eventually('ExtensionConfig Discovered', async () => {
      const object = await api.get(EC, 'ExtensionConfig', 'default', 'ext');
      return condition(object, 'Discovered')?.status === 'True' ? object : undefined;
    });
    for (const object of documents(example('clusterclass-in-memory.yaml'))) {
      const withPatch =
        object.kind === 'ClusterClass' ? { ...object, spec: { ...object.spec, patches: [{ name: 'from-extension', external: { generatePatchesExtension: 'gen.ext', validateTopologyExtension: 'validate.ext', discoverVariablesExtension: 'vars.ext', settings: { flavour: 'test' } } }] } } : object;
      await api.mustCreateDocument({ ...withPatch, metadata: { ...withPatch.metadata, namespace: NS } });
    }
    await createCluster('p1');
    const kcp = await eventually('the patched control plane', async () => (await api.list(CP_API, 'KubeadmControlPlane', NS))[0]);
    expect(valueAt(kcp, 'spec', 'kubeadmConfigSpec', 'preKubeadmCommands')).toEqual(['echo patched-by-extension']);

    const generate = requests.find((r) => r.hook === 'GeneratePatches');
    expect(generate?.body).toMatchObject({ apiVersion: HOOKS, kind: 'GeneratePatchesRequest' });
    expect(items(generate?.body ?? {}).map((i) => valueAt(i, 'holderReference', 'fieldPath'))).toEqual(
      expect.arrayContaining(['spec.infrastructureRef', 'spec.controlPlaneRef', 'spec.template.spec.bootstrap.configRef', 'spec.template.spec.infrastructureRef']),
    );
    const validate = requests.find((r) => r.hook === 'ValidateTopology');
    const validatedControlPlane = items(validate?.body ?? {}).find((i) => valueAt(i, 'holderReference', 'fieldPath') === 'spec.controlPlaneRef');
    expect(valueAt(validatedControlPlane, 'object', 'spec', 'template', 'spec', 'kubeadmConfigSpec', 'preKubeadmCommands')).toEqual(['echo patched-by-extension']);
  });

  it('a ValidateTopology Failure stops a new topology with ReconcileFailed naming the patch; nothing is created', async () => {
    rejectTopology = true;
    await createCluster('p2');
    const failed = await eventually('p2 TopologyReconciled ReconcileFailed', async (report) => {
      const c = await api.get(CORE, 'Cluster', NS, 'p2');
      report(condition(c, 'TopologyReconciled'));
      return condition(c, 'TopologyReconciled')?.reason === 'ReconcileFailed' ? c : undefined;
    });
    expect(condition(failed, 'TopologyReconciled')?.message).toBe('patch "from-extension" (external validate.ext) rejected the topology: extension handler "validate.ext" answered Failure: two clusters are one too many');
    const controlPlanes = await api.list(CP_API, 'KubeadmControlPlane', NS);
    expect(controlPlanes.map((c) => c.metadata.labels?.['cluster.x-k8s.io/cluster-name'])).toEqual(['p1']);
  });

  it('DiscoverVariables: the class lists the variable from the patch; a Cluster setting it gets its value into GeneratePatches', async () => {
    rejectTopology = false;
    const cc = await eventually('ClusterClass status.variables with the discovered variable', async (report) => {
      const object = await api.get(CORE, 'ClusterClass', NS, 'in-memory');
      const variables = valueAt(object, 'status', 'variables');
      report({ variables, ready: condition(object, 'VariablesReady') });
      return Array.isArray(variables) && variables.some((v: unknown) => isRecord(v) && v.name === EXTRA_COMMAND) ? object : undefined;
    });
    expect(condition(cc, 'VariablesReady')?.status).toBe('True');
    const statusVariables = valueAt(cc, 'status', 'variables');
    expect(Array.isArray(statusVariables) && statusVariables.find((v: unknown) => isRecord(v) && v.name === EXTRA_COMMAND)).toEqual({
      name: EXTRA_COMMAND,
      definitionsConflict: false,
      definitions: [{ from: 'from-extension', required: false, schema: { openAPIV3Schema: { type: 'string', maxLength: 64 } } }],
    });
    expect(requests.find((r) => r.hook === 'DiscoverVariables')?.body).toMatchObject({ apiVersion: HOOKS, kind: 'DiscoverVariablesRequest', settings: { flavour: 'test' } });

    await createCluster('p3', [{ name: EXTRA_COMMAND, value: 'echo from-a-discovered-variable' }]);
    const kcp = await eventually('the control plane of p3', async () => (await api.list(CP_API, 'KubeadmControlPlane', NS)).find((c) => c.metadata.labels?.['cluster.x-k8s.io/cluster-name'] === 'p3'));
    expect(valueAt(kcp, 'spec', 'kubeadmConfigSpec', 'preKubeadmCommands')).toEqual(['echo from-a-discovered-variable']);
  });
});
