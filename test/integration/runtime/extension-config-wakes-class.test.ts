/**
 * Cluster API's extensionConfigToClusterClass through the embedded control plane's API: a
 * ClusterClass whose external patch discovers its variables through an ExtensionConfig that does
 * not exist yet reports VariablesReady=False, and becomes ready when that ExtensionConfig's
 * handlers are discovered: the change wakes it, not its own retry. The class is in a namespace of
 * its own: the cluster-scoped ExtensionConfig finds its classes in every namespace.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VARIABLE_DISCOVERY_RETRY_SECONDS } from '../../../functions/reconcile/topology/clusterclass/reconciler.js';
import { type ControlPlane, startControlPlane } from '../../../local/control-plane.js';
import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import { valueAt } from '../../../shared/contracts/json.js';
import { eventually } from '../../support/eventually.js';
import { discoveryAnswer, type ExtensionAnswer, handler, type RecordedCall, startExtensionServer, type TestExtensionServer } from '../../support/extension-server.js';
import { RestClient } from '../../support/rest-client.js';

const CORE = 'cluster.x-k8s.io/v1beta2';
const EC = 'runtime.cluster.x-k8s.io/v1beta2';
const HOOKS = 'hooks.runtime.cluster.x-k8s.io/v1alpha1';

let dataDir: string;
let plane: ControlPlane;
let rest: RestClient;
let server: TestExtensionServer;

function answer(call: RecordedCall): ExtensionAnswer {
  const path = call.url.split('?')[0] ?? '';
  if (path === `/late/${HOOKS}/discovery`) return discoveryAnswer([handler('vars', 'DiscoverVariables')]);
  if (path === `/late/${HOOKS}/discovervariables/vars`) {
    const variables = [{ name: 'region', required: false, schema: { openAPIV3Schema: { type: 'string' } } }];
    return { body: JSON.stringify({ apiVersion: HOOKS, kind: 'DiscoverVariablesResponse', status: 'Success', variables }) };
  }
  return { status: 404, body: '{}' };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-ec-class-'));
  plane = await startControlPlane({ dataDir, port: 0, persist: false });
  rest = new RestClient(plane.url, plane.token);
  server = await startExtensionServer(answer);
});

afterAll(async () => {
  await plane?.stop();
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function variablesReady(status: 'True' | 'False', options: { timeoutMs?: number } = {}) {
  return eventually(
    `ClusterClass VariablesReady=${status}`,
    async (report) => {
      const object = await rest.get(CORE, 'ClusterClass', 'tenant-a', 'late');
      const condition = findCondition(conditionsOf(object?.status), 'VariablesReady');
      report(condition);
      return condition?.status === status ? object : undefined;
    },
    options,
  );
}

describe('an ExtensionConfig wakes the ClusterClasses that discover variables through it', () => {
  it('a class created before its extension becomes VariablesReady once the extension is discovered', async () => {
    await rest.mustCreate({
      apiVersion: CORE,
      kind: 'ClusterClass',
      metadata: { name: 'late', namespace: 'tenant-a' },
      spec: {
        controlPlane: { templateRef: { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlaneTemplate', name: 'cp' } },
        infrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'DevClusterTemplate', name: 'infra' } },
        patches: [{ name: 'from-extension', external: { discoverVariablesExtension: 'vars.late-ext' } }],
      },
    });
    const failed = await variablesReady('False');
    expect(findCondition(conditionsOf(failed.status), 'VariablesReady')?.message).toContain('late-ext');

    await rest.mustCreate({ apiVersion: EC, kind: 'ExtensionConfig', metadata: { name: 'late-ext' }, spec: { clientConfig: { url: `${server.url}/late`, caBundle: server.caBundle } } });
    // The class's own retry comes after VARIABLE_DISCOVERY_RETRY_SECONDS (20 s): in less than
    // that, only the ExtensionConfig's change can have woken it.
    const ready = await variablesReady('True', { timeoutMs: (VARIABLE_DISCOVERY_RETRY_SECONDS * 1000) / 2 });
    expect(valueAt(ready, 'status', 'variables')).toEqual([
      { name: 'region', definitionsConflict: false, definitions: [{ from: 'from-extension', required: false, schema: { openAPIV3Schema: { type: 'string' } } }] },
    ]);
  });
});
