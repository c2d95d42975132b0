import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject, ObjectKey } from '../../../shared/contracts/object.js';
import { type TestApi, startTestApi } from '../../support/api-server.js';
import { eventually } from '../../support/eventually.js';
import { KUBECTL_BINARIES, runTool, startTool, toolEnv } from '../../support/kubectl-binaries.js';

/** `kubectl get -w` and `kubectl wait` against the management API's watch, once per kubectl binary. */
describe.each(KUBECTL_BINARIES)('kubectl (%s) watches the capless API', (KUBECTL) => {
  let api: TestApi;
  let home: string;
  const env = () => toolEnv(home, api.kubeconfigPath);

  beforeAll(async () => {
    api = await startTestApi();
    home = await mkdtemp(join(tmpdir(), 'capless-kubectl-watch-'));
  });
  afterAll(async () => {
    await api.close();
    await rm(home, { recursive: true, force: true });
  });

  const cmKey = (name: string): ObjectKey => ({ group: '', kind: 'ConfigMap', namespace: 'default', name });
  const configMap = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { step: '0' } });

  it('get -w --output-watch-events shows each change in order', async () => {
    await api.store.create(configMap('w-existing'));
    const watch = startTool(KUBECTL, ['get', 'configmaps', '-w', '--output-watch-events', '--no-headers'], env());
    try {
      await eventually('the initial list', async (seen) => {
        seen(watch.stdout());
        return watch.stdout().includes('w-existing') ? true : undefined;
      }, { timeoutMs: 30_000, intervalMs: 100 });
      await api.store.create(configMap('w-new'));
      const created = await api.store.get(cmKey('w-new'));
      if (!created) throw new Error('w-new missing');
      await api.store.update({ ...created, data: { step: '1' } });
      await api.store.delete(cmKey('w-new'));
      const lines = await eventually(
        'the three changes',
        async (seen) => {
          const out = watch.stdout().trim().split('\n').map((line) => line.split(/\s+/).slice(0, 2).join(' '));
          seen({ out, err: watch.stderr() });
          return out.length >= 4 ? out : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 100 },
      );
      expect(lines).toEqual(['ADDED w-existing', 'ADDED w-new', 'MODIFIED w-new', 'DELETED w-new']);
    } finally {
      watch.stop();
      await watch.exited;
    }
  });

  it('wait --for=condition=Available returns once a status write makes the condition true', async () => {
    const cluster = await api.store.create({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      metadata: { name: `waited-${KUBECTL_BINARIES.indexOf(KUBECTL)}`, namespace: 'default' },
      spec: {},
    });
    const waiting = startTool(KUBECTL, ['wait', '--for=condition=Available', `clusters.cluster.x-k8s.io/${cluster.metadata.name}`, '--timeout=60s'], env());
    // kubectl has read the object and is watching before the condition turns true.
    await eventually('kubectl to watch', async () => ((api.watches?.openWatches() ?? 0) > 0 ? true : undefined), { timeoutMs: 30_000, intervalMs: 50 });
    await api.store.updateStatus({ ...cluster, status: { conditions: [{ type: 'Available', status: 'True', reason: 'Available', lastTransitionTime: new Date().toISOString() }] } });
    const code = await waiting.exited;
    expect({ code, stdout: waiting.stdout(), stderr: waiting.stderr() }).toEqual({ code: 0, stdout: `cluster.cluster.x-k8s.io/${cluster.metadata.name} condition met\n`, stderr: '' });
  });

  it('wait on a condition that never comes times out with an error, not a hang', async () => {
    await api.store.create({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: `never-${KUBECTL_BINARIES.indexOf(KUBECTL)}`, namespace: 'default' }, spec: {} });
    const result = await runTool(KUBECTL, ['wait', '--for=condition=Available', `clusters.cluster.x-k8s.io/never-${KUBECTL_BINARIES.indexOf(KUBECTL)}`, '--timeout=2s'], env());
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/timed out waiting for the condition/);
  });
});
