/**
 * ExtensionConfig is cluster-scoped, as in Cluster API's CRD (`scope: Cluster`): the API serves it
 * at `/apis/runtime.cluster.x-k8s.io/v1beta2/extensionconfigs[/name]` without a namespace,
 * discovery says `namespaced: false`, namespaced paths are 404 as kube-apiserver answers them, and
 * the real kubectl applies Cluster API's example ExtensionConfig (../shared/capi-samples) and reads
 * it back without a namespace.
 */

import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ControlPlane, startControlPlane } from '../../../local/control-plane.js';
import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import { isRecord } from '../../../shared/contracts/json.js';
import { eventually } from '../../support/eventually.js';
import { KUBECTL_BINARIES, runTool, toolEnv } from '../../support/kubectl-binaries.js';
import { RestClient } from '../../support/rest-client.js';

const EC = 'runtime.cluster.x-k8s.io/v1beta2';
const BASE = `/apis/${EC}`;
const EXAMPLE = resolve(import.meta.dirname, '../../../../shared/capi-samples/examples/extensionconfig.yaml');

let dataDir: string;
let plane: ControlPlane;
let rest: RestClient;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-ec-scope-'));
  plane = await startControlPlane({ dataDir, port: 0, persist: false });
  rest = new RestClient(plane.url, plane.token);
});

afterAll(async () => {
  await plane?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${plane.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${plane.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const parsed: unknown = await response.json();
  return { status: response.status, body: isRecord(parsed) ? parsed : {} };
}

const config = (name: string) => ({ apiVersion: EC, kind: 'ExtensionConfig', metadata: { name }, spec: { clientConfig: { url: 'https://127.0.0.1:1/ext' } } });

describe('ExtensionConfig is cluster-scoped', () => {
  it('discovery lists extensionconfigs as not namespaced', async () => {
    const { status, body } = await call('GET', BASE);
    expect(status).toBe(200);
    const resources = Array.isArray(body.resources) ? body.resources : [];
    expect(resources.find((r: unknown) => isRecord(r) && r.name === 'extensionconfigs')).toMatchObject({ kind: 'ExtensionConfig', namespaced: false, shortNames: ['ext'] });
  });

  it('is created, read and listed at the cluster path, without a namespace (one given in the body is dropped)', async () => {
    const created = await call('POST', `${BASE}/extensionconfigs`, { ...config('scoped'), metadata: { name: 'scoped', namespace: 'elsewhere' } });
    expect(created.status).toBe(201);
    expect(isRecord(created.body.metadata) && 'namespace' in created.body.metadata).toBe(false);
    const read = await call('GET', `${BASE}/extensionconfigs/scoped`);
    expect(read).toMatchObject({ status: 200, body: { kind: 'ExtensionConfig', metadata: { name: 'scoped' } } });
    expect(isRecord(read.body.metadata) && 'namespace' in read.body.metadata).toBe(false);
    const listed = await call('GET', `${BASE}/extensionconfigs`);
    expect(Array.isArray(listed.body.items) && listed.body.items.map((i: unknown) => (isRecord(i) && isRecord(i.metadata) ? i.metadata.name : undefined))).toContain('scoped');
    expect(await rest.get(EC, 'ExtensionConfig', 'ignored', 'scoped')).toMatchObject({ metadata: { name: 'scoped' } });
  });

  it.each<[string, string, string, unknown]>([
    ['GET of a namespaced name', 'GET', '/namespaces/default/extensionconfigs/scoped', undefined],
    ['a namespaced list', 'GET', '/namespaces/default/extensionconfigs', undefined],
    ['a namespaced create', 'POST', '/namespaces/default/extensionconfigs', config('nested')],
    ['a namespaced delete', 'DELETE', '/namespaces/default/extensionconfigs/scoped', undefined],
  ])('%s is a 404 Status, as kube-apiserver answers', async (_name, method, path, body) => {
    const response = await call(method, `${BASE}${path}`, body);
    expect(response).toMatchObject({ status: 404, body: { kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 } });
    expect((await call('GET', `${BASE}/extensionconfigs/nested`)).status).toBe(404);
  });
});

describe("Cluster API's example ExtensionConfig through the real kubectl (it sends its token over TLS only)", () => {
  let tlsDir: string;
  let tlsPlane: ControlPlane;

  beforeAll(async () => {
    tlsDir = await mkdtemp(join(tmpdir(), 'capless-ec-tls-'));
    tlsPlane = await startControlPlane({ dataDir: tlsDir, port: 0, persist: false, tls: true });
  });

  afterAll(async () => {
    await tlsPlane?.stop();
    await rm(tlsDir, { recursive: true, force: true });
  });

  it.for(KUBECTL_BINARIES)('%s applies it and reads it back cluster-scoped; discovery without its CA Secret is Discovered=False, not a crash', async (kubectl, context) => {
    if (!existsSync(EXAMPLE)) return context.skip('../shared/capi-samples/examples/extensionconfig.yaml is absent');
    const home = await mkdtemp(join(tmpdir(), 'capless-ec-kubectl-'));
    try {
      const env = toolEnv(home, tlsPlane.kubeconfigPath);
      await runTool(kubectl, ['delete', 'extensionconfigs.runtime.cluster.x-k8s.io', 'test-extension', '--ignore-not-found'], env);
      const applied = await runTool(kubectl, ['apply', '-f', EXAMPLE], env);
      expect(applied).toEqual({ code: 0, stdout: 'extensionconfig.runtime.cluster.x-k8s.io/test-extension created\n', stderr: '' });
      const listed = await runTool(kubectl, ['get', 'extensionconfigs', '-o', 'name'], env);
      expect(listed.stdout).toContain('extensionconfig.runtime.cluster.x-k8s.io/test-extension');
      const notDiscovered = await eventually('Discovered=False, read through kubectl', async (report) => {
        const got = await runTool(kubectl, ['get', 'ext', 'test-extension', '-o', 'json'], env);
        const parsed: unknown = got.code === 0 ? JSON.parse(got.stdout) : undefined;
        const object = isRecord(parsed) ? parsed : undefined;
        report(object?.status ?? got.stderr);
        return findCondition(conditionsOf(isRecord(object?.status) ? object.status : undefined), 'Discovered')?.status === 'False' ? object : undefined;
      });
      expect(notDiscovered).toMatchObject({ kind: 'ExtensionConfig', metadata: { name: 'test-extension' }, spec: { settings: { extensionConfigName: 'test-extension' } } });
      expect(isRecord(notDiscovered.metadata) && 'namespace' in notDiscovered.metadata).toBe(false);
      expect(findCondition(conditionsOf(isRecord(notDiscovered.status) ? notDiscovered.status : undefined), 'Discovered')?.message).toContain('test-extension-system/test-extension-webhook-service-cert');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
