/**
 * IPAM through the embedded control plane's HTTP API: the 200-claims-vs-150-addresses scenario
 * for both pool kinds on the embedded DynamoDB (dynalite), and the global-pool case again on the
 * in-memory store (the other ObjectStore the allocation must hold on).
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type ControlPlane, startControlPlane } from '../../../local/control-plane.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { POOL_CASES, runPoolScenario } from '../../support/ipam-scenario.js';
import { RestClient } from '../../support/rest-client.js';

describe.each([
  { backend: 'dynalite', cases: POOL_CASES },
  { backend: 'the memory store', cases: POOL_CASES.slice(0, 1) },
])('200 claims against 150 addresses on $backend', ({ backend, cases }) => {
  let plane: ControlPlane;
  let api: RestClient;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'capless-ipam-'));
    const store = backend === 'dynalite' ? { embeddedStore: 'dynalite' as const } : { store: new MemoryObjectStore() };
    plane = await startControlPlane({ dataDir, port: 0, persist: false, resyncSeconds: 3600, ...store });
    api = new RestClient(plane.url, plane.token);
  });

  afterAll(async () => {
    await plane?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it.each(cases.map((c, i) => [c.title, c, `pool-${i}`] as const))('%s', async (_title, c, pool) => {
    await runPoolScenario(api, c, pool);
  }, 900_000);
});
