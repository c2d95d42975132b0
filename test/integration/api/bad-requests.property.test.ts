import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRecord, numberAt, stringAt } from '../../../shared/contracts/json.js';
import type { StoredObject } from '../../../shared/contracts/object.js';
import { type TestApi, startTestApi } from '../../support/api-server.js';
import { type BadRequest, type Seed, badRequests } from '../../support/bad-requests.js';

/**
 * Property: every malformed or illegitimate request gets a 4xx Kubernetes `Status` that names the
 * problem — never a 5xx — and leaves the store exactly as it was.
 */
const RUNS = 1_200;
const KINDS = [
  { group: 'cluster.x-k8s.io', kind: 'Cluster' },
  { group: 'cluster.x-k8s.io', kind: 'Machine' },
  { group: 'cluster.x-k8s.io', kind: 'MachineDeployment' },
  { group: '', kind: 'ConfigMap' },
  { group: '', kind: 'Secret' },
];

let api: TestApi;
let seed: Seed;

async function snapshot(): Promise<string> {
  const lists = await Promise.all(KINDS.map((k) => api.store.list(k)));
  return JSON.stringify(lists.map((l) => l.items));
}

function checkStatus(bad: BadRequest, status: number, body: string): void {
  const doc: unknown = JSON.parse(body);
  const context = `${bad.label}: ${bad.request.method} ${bad.request.path.slice(0, 120)} -> ${status} ${body.slice(0, 300)}`;
  expect(status, context).toBeGreaterThanOrEqual(400);
  expect(status, context).toBeLessThan(500);
  expect(bad.codes, context).toContain(status);
  expect(stringAt(doc, 'kind'), context).toBe('Status');
  expect(stringAt(doc, 'status'), context).toBe('Failure');
  expect(numberAt(doc, 'code'), context).toBe(status);
  expect(stringAt(doc, 'message'), context).toMatch(bad.mentions);
}

beforeAll(async () => {
  api = await startTestApi({ tls: false });
  const created: StoredObject = await api.store.create({
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: 'seed', namespace: 'default', labels: { app: 'seed' } },
    spec: { clusterNetwork: { pods: { cidrBlocks: ['192.168.0.0/16'] } } },
  });
  await api.store.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' } });
  seed = {
    token: api.token,
    clusterResourceVersion: created.metadata.resourceVersion,
    clusterBody: { apiVersion: created.apiVersion, kind: created.kind, metadata: created.metadata, spec: created.spec },
  };
});
afterAll(() => api.close());

describe('bad requests (fast-check)', () => {
  it(`${RUNS} generated bad requests in-process: 4xx Status naming the problem, store unchanged`, async () => {
    const before = await snapshot();
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(badRequests(seed), async (bad) => {
        seen.set(bad.label, (seen.get(bad.label) ?? 0) + 1);
        const response = await api.handle(bad.request);
        checkStatus(bad, response.status, response.body);
        expect(await snapshot(), bad.label).toBe(before);
      }),
      { numRuns: RUNS, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
    );
    expect([...seen.values()].reduce((a, b) => a + b, 0)).toBe(RUNS);
    expect(seen.size).toBeGreaterThanOrEqual(25);
  });

  it('a sample of bad requests over real HTTP get the same answers', async () => {
    const before = await snapshot();
    const sample = fc.sample(badRequests(seed), { numRuns: 40, seed: 7 });
    for (const bad of sample) {
      const url = new URL(api.url + encodeURI(bad.request.path));
      for (const [k, v] of bad.request.query) url.searchParams.set(k, v);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(bad.request.headers)) if (v !== undefined) headers[k] = v;
      const method = bad.request.method === 'HEAD2' ? 'OPTIONS' : bad.request.method;
      const response = await fetch(url, { method, headers, ...(method === 'GET' ? {} : { body: bad.request.body }) });
      checkStatus(bad, response.status, await response.text());
    }
    expect(await snapshot()).toBe(before);
  });

  it('the seed objects are still served after all that', async () => {
    const response = await api.handle({
      method: 'GET',
      path: '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters/seed',
      query: new URLSearchParams(),
      headers: { authorization: `Bearer ${api.token}` },
      body: '',
    });
    expect(response.status).toBe(200);
    const doc: unknown = JSON.parse(response.body);
    expect(isRecord(doc) && stringAt(doc, 'metadata', 'resourceVersion')).toBe(seed.clusterResourceVersion);
  });
});
