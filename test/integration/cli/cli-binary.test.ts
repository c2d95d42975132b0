import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, startTestApi } from '../../support/api-server.js';

/** The installed entry point (bin/capless.mjs → cli/main.ts → COMMANDS) as a user runs it. */
const run = promisify(execFile);
const BIN = resolve(import.meta.dirname, '../../../bin/capless.mjs');
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
  await api.store.create({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'from-bin', namespace: 'team-a' }, spec: {} });
});
afterAll(() => api.close());

describe('bin/capless.mjs', () => {
  it('get clusters -A through KUBECONFIG, over TLS with the kubeconfig CA', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'get', 'clusters', '-A'], { env: { ...process.env, KUBECONFIG: api.kubeconfigPath } });
    expect(stdout).toMatch(/^NAMESPACE\s+NAME\s+AVAILABLE\s+PHASE\s+AGE\nteam-a\s+from-bin\s+-\s+\d+s\n$/);
  });

  it('exits 1 with the server message for a missing object', async () => {
    const failed = await run(process.execPath, [BIN, 'get', 'cluster', 'nope', '--kubeconfig', api.kubeconfigPath]).catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: 1, stderr: 'Error from server (NotFound): clusters.cluster.x-k8s.io "nope" not found\n' });
  });
});
