/**
 * The IPAM scenario (200 claims against 150 addresses, both pool kinds) on DynamoDB Local: the
 * embedded control plane keeps its objects in the emulator (`capless up --endpoint`) and runs 16
 * reconciles at once, so claims race for addresses through real conditional writes.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { type ControlPlane, startControlPlane } from '../../local/control-plane.js';
import { POOL_CASES, runPoolScenario } from '../support/ipam-scenario.js';
import { RestClient } from '../support/rest-client.js';

/** Names no earlier run left in the emulator's table. */
const RUN = Date.now().toString(36);

let plane: ControlPlane;
let api: RestClient;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-ipam-ddb-'));
  plane = await startControlPlane({ dataDir, port: 0, endpoint: inject('dynamodbEndpoint'), resyncSeconds: 3600, concurrency: 16 });
  api = new RestClient(plane.url, plane.token);
});

afterAll(async () => {
  await plane?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('200 claims against 150 addresses on DynamoDB Local', () => {
  it.each(POOL_CASES.map((c, i) => [c.title, c, `ddb-${RUN}-${i}`] as const))('%s', async (_title, c, pool) => {
    await runPoolScenario(api, c, pool);
  }, 900_000);
});
