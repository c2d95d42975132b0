/**
 * IPAM through the embedded control plane's HTTP API (dynalite): the 200-claims-vs-150-addresses
 * scenario for both pool kinds, and the bad input the API must refuse.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type ControlPlane, startControlPlane } from '../../../local/control-plane.js';
import { POOL_CASES, runPoolScenario } from '../../support/ipam-scenario.js';
import { RestClient } from '../../support/rest-client.js';

let plane: ControlPlane;
let api: RestClient;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-ipam-'));
  plane = await startControlPlane({ dataDir, port: 0, persist: false, resyncSeconds: 3600 });
  api = new RestClient(plane.url, plane.token);
});

afterAll(async () => {
  await plane?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('200 claims against 150 addresses', () => {
  it.each(POOL_CASES.map((c, i) => [c.title, c, `pool-${i}`] as const))('%s', async (_title, c, pool) => {
    await runPoolScenario(api, c, pool);
  }, 900_000);
});
