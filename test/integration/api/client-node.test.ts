import { ApiException, KubeConfig, type KubernetesObject, KubernetesObjectApi, PatchStrategy, loadAllYaml } from '@kubernetes/client-node';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringAt } from '../../../shared/contracts/json.js';
import { type TestApi, startTestApi } from '../../support/api-server.js';

/** @kubernetes/client-node 1.4.0 (the official TypeScript client) against the management API over TLS. */
const SAMPLE = resolve(import.meta.dirname, '../../fixtures/simple-cluster.yaml');

let api: TestApi;
let objects: KubernetesObjectApi;

beforeAll(async () => {
  api = await startTestApi();
  const config = new KubeConfig();
  config.loadFromFile(api.kubeconfigPath);
  objects = KubernetesObjectApi.makeApiClient(config);
});
afterAll(() => api.close());

type ClusterObject = KubernetesObject & { spec?: Record<string, unknown> };

const clusterSpec = (name: string): ClusterObject => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Cluster',
  metadata: { name, namespace: 'default', labels: { team: 'a' } },
  spec: { clusterNetwork: { pods: { cidrBlocks: ['192.168.0.0/16'] } } },
});

async function statusOf(promise: Promise<unknown>): Promise<{ code: number; reason: string | undefined }> {
  try {
    await promise;
    return { code: 200, reason: undefined };
  } catch (error) {
    if (!(error instanceof ApiException)) throw error;
    const body: unknown = typeof error.body === 'string' ? JSON.parse(error.body) : error.body;
    return { code: error.code, reason: stringAt(body, 'reason') };
  }
}

describe('@kubernetes/client-node KubernetesObjectApi', () => {
  it('creates every object of the upstream sample (loadAllYaml)', async () => {
    const docs = loadAllYaml(await readFile(SAMPLE, 'utf8'));
    for (const doc of docs) {
      const created = await objects.create(doc);
      expect(created.metadata?.uid).toMatch(/./);
    }
    expect(docs).toHaveLength(7);
  });

  it('create, read, list (label selector), patch, replace, delete', async () => {
    const created = await objects.create(clusterSpec('client-node'));
    expect(created.metadata?.resourceVersion).toMatch(/./);

    const read = await objects.read({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'client-node', namespace: 'default' } });
    expect(read.metadata?.uid).toBe(created.metadata?.uid);

    const listed = await objects.list('cluster.x-k8s.io/v1beta2', 'Cluster', 'default', undefined, undefined, undefined, undefined, 'team=a');
    expect(listed.items.map((i) => i.metadata?.name)).toEqual(['client-node']);

    const patched = await objects.patch<KubernetesObject>(
      { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'client-node', namespace: 'default', labels: { tier: 'gold' } } },
      undefined, undefined, undefined, undefined, PatchStrategy.MergePatch,
    );
    expect(patched.metadata?.labels).toEqual({ team: 'a', tier: 'gold' });

    const replaced = await objects.replace({ ...patched, metadata: { ...patched.metadata, annotations: { note: 'replaced' } } });
    expect(replaced.metadata?.annotations).toEqual({ note: 'replaced' });
    expect(Number(replaced.metadata?.resourceVersion)).toBeGreaterThan(Number(patched.metadata?.resourceVersion));

    const stale = await statusOf(objects.replace({ ...patched, metadata: { ...patched.metadata, annotations: { note: 'stale' } } }));
    expect(stale).toEqual({ code: 409, reason: 'Conflict' });

    const deleted = await objects.delete({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'client-node', namespace: 'default' } });
    expect(deleted.status).toBe('Success');
    expect(await statusOf(objects.read({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'client-node', namespace: 'default' } }))).toEqual({
      code: 404,
      reason: 'NotFound',
    });
  });

  it('gets 409 AlreadyExists for a duplicate and 422 Invalid for a bad name', async () => {
    await objects.create(clusterSpec('twice'));
    expect(await statusOf(objects.create(clusterSpec('twice')))).toEqual({ code: 409, reason: 'AlreadyExists' });
    expect(await statusOf(objects.create(clusterSpec('Not_A_Name')))).toMatchObject({ code: 422, reason: 'Invalid' });
  });

  it('20 concurrent replaces with the same resourceVersion: exactly one wins, 19 get 409, the store holds the winner', async () => {
    const base = await objects.create(clusterSpec('contended'));
    const attempts = Array.from({ length: 20 }, (_, i) =>
      statusOf(objects.replace({ ...base, metadata: { ...base.metadata, annotations: { writer: String(i) } } })).then((s) => ({ ...s, writer: String(i) })),
    );
    const results = await Promise.all(attempts);
    const winners = results.filter((r) => r.code === 200);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.code === 409 && r.reason === 'Conflict')).toHaveLength(19);
    const stored = await api.store.get({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: 'default', name: 'contended' });
    expect(stored?.metadata.annotations).toEqual({ writer: winners[0]?.writer });
    expect(stored?.metadata.resourceVersion).not.toBe(base.metadata?.resourceVersion);
  });
});
