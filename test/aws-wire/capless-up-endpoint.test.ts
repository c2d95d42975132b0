/**
 * `capless up --endpoint URL`: the embedded control plane with its DynamoDB on an external
 * AWS-compatible endpoint instead of the embedded dynalite (the queue stays in-process). A Cluster
 * on the in-memory provider is created through the HTTP API with the bearer token and must be
 * reconciled: the handlers read and write the external DynamoDB, and its change tap drives them.
 * Runs against DynamoDB Local and against moto's server.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ControlPlane, startControlPlane } from '../../local/control-plane.js';
import { conditionsOf, findCondition } from '../../shared/contracts/conditions.js';
import { booleanAt, isRecord, numberAt, recordAt, stringAt } from '../../shared/contracts/json.js';

const CORE = '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters';
const INFRA = '/apis/infrastructure.cluster.x-k8s.io/v1beta2/namespaces/default/inmemoryclusters';
const WAIT_LIMIT_MS = 60_000;

/** A name no earlier run left in the emulator's table. */
const RUN = Date.now().toString(36);

describe.each([
  { emulator: 'DynamoDB Local', endpoint: () => inject('dynamodbEndpoint') },
  { emulator: "moto's server", endpoint: () => inject('motoEndpoint') },
])('capless up --endpoint on $emulator', ({ emulator, endpoint }) => {
  let plane: ControlPlane;
  let dataDir: string;
  const name = `ext-${emulator.split(/\W/)[0]?.toLowerCase()}-${RUN}`;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'capless-up-endpoint-'));
    plane = await startControlPlane({ dataDir, port: 0, endpoint: endpoint(), resyncSeconds: 3600 });
  });

  afterAll(async () => {
    await plane?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${plane.url}${path}`, { ...init, headers: { authorization: `Bearer ${plane.token}`, 'content-type': 'application/json' } });

  it('keeps the API behind the bearer token', async () => {
    const anonymous = await fetch(`${plane.url}${CORE}`);
    await anonymous.arrayBuffer();
    expect(anonymous.status).toBe(401);
  });

  it('reconciles a Cluster on the in-memory provider created through the API', async () => {
    const infra = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'InMemoryCluster', metadata: { name }, spec: {} };
    const cluster = {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      metadata: { name },
      spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryCluster', name } },
    };
    expect((await call(INFRA, { method: 'POST', body: JSON.stringify(infra) })).status).toBe(201);
    expect((await call(CORE, { method: 'POST', body: JSON.stringify(cluster) })).status).toBe(201);

    const reconciled = await pollObject(`${CORE}/${name}`, (body) => {
      const ready = findCondition(conditionsOf(recordAt(body, 'status')), 'InfrastructureReady');
      return numberAt(body, 'status', 'observedGeneration') === numberAt(body, 'metadata', 'generation') && ready?.status === 'True';
    });
    expect(reconciled.metadata).toMatchObject({ finalizers: ['cluster.cluster.x-k8s.io'] });
    expect(booleanAt(reconciled, 'status', 'initialization', 'infrastructureProvisioned')).toBe(true);
    // The provider's endpoint was copied into spec, a second generation the reconciler also observed.
    expect(numberAt(reconciled, 'metadata', 'generation')).toBe(2);
    expect(stringAt(reconciled, 'spec', 'controlPlaneEndpoint', 'host')).toBe(`${name}.default.in-memory.capless.local`);

    const owned = await pollObject(`${INFRA}/${name}`, (body) => booleanAt(body, 'status', 'initialization', 'provisioned') === true);
    expect(owned.metadata).toMatchObject({ ownerReferences: [{ kind: 'Cluster', name }] });
    expect(stringAt(owned, 'metadata', 'uid')).toBeTruthy();
  });

  /** GETs `path` until `done` holds for its body; the limit only guards against a hang. */
  async function pollObject(path: string, done: (body: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    const deadline = Date.now() + WAIT_LIMIT_MS;
    let last: unknown;
    while (Date.now() < deadline) {
      const response = await call(path);
      last = await response.json();
      if (response.ok && isRecord(last) && done(last)) return last;
      await new Promise((resolveDelay) => setTimeout(resolveDelay, 100));
    }
    throw new Error(`${path} never reached the expected state on ${emulator}; last seen: ${JSON.stringify(last)}`);
  }
});
