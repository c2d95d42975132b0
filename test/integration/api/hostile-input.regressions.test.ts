import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../../functions/api/http.js';
import { isRecord, numberAt, stringAt } from '../../../shared/contracts/json.js';
import {
  type HostileApi,
  type HostileRequest,
  SECRET_NEEDLES,
  machineDeployment,
  nestedJson,
  prototypeBaseline,
  pollution,
  startHostileApi,
} from '../../support/hostile-requests.js';
import { hostile } from '../../support/hostile/model.js';

/** One deterministic repro per defect the hostile-input suite found (the hardening issue). */
const CM = '/api/v1/namespaces/default/configmaps';
const SECRETS = '/api/v1/namespaces/default/secrets';
const CLUSTER = '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters/cl';
const MS = '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/machinesets/ms';
const MDS = '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/machinedeployments';
const JSON_PATCH = 'application/json-patch+json';
const MERGE_PATCH = 'application/merge-patch+json';

let api: HostileApi;
const baseline = prototypeBaseline();

beforeAll(async () => {
  api = await startHostileApi();
});
// Each repro starts from the seeds: a defect that deleted or changed one must not mask the next.
beforeEach(() => api.restoreSeeds());
afterAll(() => api?.close());

type Call = Partial<HostileRequest> & { method: string; path: string };
const send = (call: Call, http = false): Promise<ApiResponse> => {
  const request = hostile({ family: 'regression', caller: 'admin', query: '', body: '', contentType: 'application/json', ...call });
  return http ? api.sendHttp(request) : api.send(request);
};

function status(response: ApiResponse): Record<string, unknown> {
  const doc: unknown = JSON.parse(response.body);
  if (!isRecord(doc)) throw new Error(`not an object: ${response.body.slice(0, 200)}`);
  return doc;
}

/** A 4xx Failure Status whose code is the HTTP status. */
function expectRefused(response: ApiResponse, codes?: number[]): Record<string, unknown> {
  const context = `${response.status} ${response.body.slice(0, 400)}`;
  expect(response.status, context).toBeGreaterThanOrEqual(400);
  expect(response.status, context).toBeLessThan(500);
  if (codes) expect(codes, context).toContain(response.status);
  const doc = status(response);
  expect(stringAt(doc, 'kind'), context).toBe('Status');
  expect(stringAt(doc, 'status'), context).toBe('Failure');
  expect(numberAt(doc, 'code'), context).toBe(response.status);
  return doc;
}

function causeFields(doc: Record<string, unknown>): string[] {
  const causes = isRecord(doc.details) && Array.isArray(doc.details.causes) ? doc.details.causes : [];
  return causes.map((c) => stringAt(c, 'field') ?? '');
}

function expectNoSecret(response: ApiResponse): void {
  for (const needle of SECRET_NEEDLES) expect(response.body.includes(needle), `the answer carries ${needle}: ${response.body.slice(0, 300)}`).toBe(false);
}

async function resourceVersionOf(path: string): Promise<string | undefined> {
  return stringAt(status(await send({ method: 'GET', path })), 'metadata', 'resourceVersion');
}

describe('a. prototype pollution through patches and bodies', () => {
  const cases: [string, Call][] = [
    ['json-patch add /__proto__/x', { method: 'PATCH', path: `${CM}/c`, query: 'dryRun=All', contentType: JSON_PATCH, body: '[{"op":"add","path":"/__proto__/x","value":1}]' }],
    ['json-patch add /constructor/prototype/x', { method: 'PATCH', path: `${CM}/c`, query: 'dryRun=All', contentType: JSON_PATCH, body: '[{"op":"add","path":"/constructor/prototype/x","value":1}]' }],
    ['json-patch add /metadata/labels/__proto__', { method: 'PATCH', path: `${CM}/c`, query: 'dryRun=All', contentType: JSON_PATCH, body: '[{"op":"add","path":"/metadata/labels/__proto__","value":{"x":1}}]' }],
    ['merge patch {"__proto__":{"y":1}}', { method: 'PATCH', path: `${CM}/c`, query: 'dryRun=All', contentType: MERGE_PATCH, body: '{"__proto__":{"y":1}}' }],
    ['merge patch {"constructor":{"prototype":{"x":1}}}', { method: 'PATCH', path: `${CM}/c`, query: 'dryRun=All', contentType: MERGE_PATCH, body: '{"constructor":{"prototype":{"x":1}}}' }],
    ['YAML body with __proto__:', { method: 'POST', path: CM, query: 'dryRun=All', contentType: 'application/yaml', body: '__proto__:\n  x: 1\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yaml-proto\n' }],
  ];
  it.each(cases)('%s -> 4xx, the next request works, ({}).x stays undefined', async (_label, call) => {
    const response = await send(call);
    const polluted = pollution(baseline);
    expectRefused(response);
    expect(polluted).toEqual([]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).y).toBeUndefined();
    expect((await send({ method: 'GET', path: `${CM}/c` })).status).toBe(200);
  });
});

describe('b. JSON Patch amplification', () => {
  const child = fileURLToPath(new URL('../../support/hostile/amplify-child.ts', import.meta.url));
  /** In a child process with a 512 MB heap, killed after 20 s: an unbounded expansion fails the test instead of hanging it. */
  function amplify(shape: string): Promise<{ status: number; body: string; ms: number; bodyBytes: number }> {
    return new Promise((resolve, reject) => {
      const proc = spawn(process.execPath, ['--import', 'tsx', '--max-old-space-size=512', child, shape, '24'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
        reject(new Error('the amplified patch did not get an answer within 20 s'));
      }, 20_000);
      proc.on('close', (code) => {
        clearTimeout(timer);
        if (code !== 0) reject(new Error(`the API process died (exit ${code}): ${err.slice(-600)}`));
        else resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}'));
      });
    });
  }
  it.each(['object', 'array'])('a 1.1 KB patch doubling a 40-char value 24 times (%s) -> 4xx promptly', async (shape) => {
    const result = await amplify(shape);
    expect(result.bodyBytes).toBeLessThan(1200);
    expect(result.status, result.body).toBeGreaterThanOrEqual(400);
    expect(result.status, result.body).toBeLessThan(500);
    expect(result.ms).toBeLessThan(5_000);
  }, 30_000);
});

describe('c. Secrets without permission, and Secret values in error messages', () => {
  const restricted: [string, Call][] = [
    ['PATCH {} (merge)', { method: 'PATCH', path: `${SECRETS}/s1`, contentType: MERGE_PATCH, body: '{}' }],
    ['PATCH [] (json patch)', { method: 'PATCH', path: `${SECRETS}/s1`, contentType: JSON_PATCH, body: '[]' }],
    ['PATCH test /data/k (an oracle)', { method: 'PATCH', path: `${SECRETS}/s1`, contentType: JSON_PATCH, body: JSON.stringify([{ op: 'test', path: '/data/k', value: 'x' }]) }],
    ['DELETE ?dryRun=All', { method: 'DELETE', path: `${SECRETS}/s1`, query: 'dryRun=All' }],
    ['DELETE', { method: 'DELETE', path: `${SECRETS}/s1` }],
    ['PUT the current object', { method: 'PUT', path: `${SECRETS}/s1`, body: { overlay: {} } }],
    ['POST a new Secret', { method: 'POST', path: SECRETS, body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'planted' }, stringData: { k: 'v' } }) }],
    ['GET', { method: 'GET', path: `${SECRETS}/s1` }],
  ];
  it.each(restricted)('%s by a principal without secrets permissions -> 403 without data', async (_label, call) => {
    const before = api.changes();
    const response = await send({ ...call, caller: 'restricted' });
    expectRefused(response, [403]);
    expectNoSecret(response);
    expect(api.changes()).toBe(before);
  });

  it('lists Secrets for that principal without data', async () => {
    const response = await send({ method: 'GET', path: SECRETS, caller: 'restricted' });
    expect(response.status).toBe(200);
    expectNoSecret(response);
    const items = status(response).items;
    expect(Array.isArray(items) && items.length > 0 && items.every((item) => isRecord(item) && !('data' in item))).toBe(true);
  });

  it('JSON Patch copy of /data/k into a label, with full permission: the 422 does not quote the value', async () => {
    const response = await send({ method: 'PATCH', path: `${SECRETS}/s1`, query: 'dryRun=All', contentType: JSON_PATCH, body: '[{"op":"copy","from":"/data/k","path":"/metadata/labels/x"}]' });
    expectRefused(response, [422]);
    expectNoSecret(response);
  });
});

describe('d. inputs that answered 500', () => {
  const longName = 'a'.repeat(1100);
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const cases: [string, Call][] = [
    ['JSON nested 10,000 levels (arrays)', { method: 'POST', path: CM, body: nestedJson(10_000, 'array') }],
    ['JSON nested 10,000 levels (objects)', { method: 'POST', path: CM, body: nestedJson(10_000, 'object') }],
    ['JSON nested 10,000 levels in labels (create)', { method: 'POST', path: CM, body: nestedJson(10_000, 'in-labels') }],
    ['JSON nested 10,000 levels in a merge patch', { method: 'PATCH', path: `${CLUSTER}`, contentType: MERGE_PATCH, body: nestedJson(10_000, 'in-spec') }],
    ['JSON nested 10,000 levels as a JSON Patch value', { method: 'PATCH', path: `${CLUSTER}`, contentType: JSON_PATCH, body: `[{"op":"add","path":"/spec/x","value":${nestedJson(10_000, 'array')}}]` }],
    ['continue: random base64', { method: 'GET', path: CM, query: 'limit=1&continue=q83vEjRWeJA%3D' }],
    ['continue: base64 of a JSON string', { method: 'GET', path: CM, query: `continue=${b64('default/c')}` }],
    ['continue: base64 of JSON with object fields', { method: 'GET', path: CM, query: `continue=${b64({ namespace: {}, name: [] })}` }],
    ['continue: base64 of JSON null', { method: 'GET', path: CM, query: `continue=${b64(null)}` }],
    ['continue: base64 of a 5,000-char name', { method: 'GET', path: CM, query: `continue=${b64({ namespace: 'default', name: 'x'.repeat(5000) })}` }],
    ['fieldSelector=metadata.name=', { method: 'GET', path: CM, query: 'fieldSelector=metadata.name%3D' }],
    ['a 1,100-char name in the path (GET)', { method: 'GET', path: `${CM}/${longName}` }],
    ['a 1,100-char name in the path (DELETE)', { method: 'DELETE', path: `${CM}/${longName}` }],
    ['a 1,100-char name in the path (PATCH)', { method: 'PATCH', path: `${CM}/${longName}`, contentType: MERGE_PATCH, body: '{}' }],
    ['a 1,100-char name in the body (POST)', { method: 'POST', path: CM, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: longName } }) }],
  ];
  it.each(cases)('%s -> 4xx', async (_label, call) => {
    expectRefused(await send(call));
  });
});

describe('e. percent-encoded paths over real HTTP', () => {
  it('GET …/secrets%2fs1 -> 400 or 404, not the Secret', async () => {
    const response = await send({ method: 'GET', path: `${SECRETS}%2fs1`, wirePath: `${SECRETS}%2fs1` }, true);
    expectRefused(response, [400, 404]);
  });
  it('POST namespaces/%2e%2e/configmaps -> 4xx, nothing created', async () => {
    const before = api.changes();
    const wirePath = '/api/v1/namespaces/%2e%2e/configmaps';
    const response = await send({ method: 'POST', path: wirePath, wirePath, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'escaped' } }) }, true);
    expectRefused(response);
    expect(api.changes()).toBe(before);
  });
});

describe('f. no-op writes', () => {
  it.each([`${CM}/c`, MS, CLUSTER, `${SECRETS}/s1`])('%s: merge patch {} and a PUT of the unchanged object keep the resourceVersion and change nothing', async (path) => {
    const rv = await resourceVersionOf(path);
    const before = api.changes();
    const patched = await send({ method: 'PATCH', path, contentType: MERGE_PATCH, body: '{}' });
    expect(patched.status, patched.body.slice(0, 300)).toBe(200);
    expect(stringAt(status(patched), 'metadata', 'resourceVersion')).toBe(rv);
    const current = (await send({ method: 'GET', path })).body;
    const put = await send({ method: 'PUT', path, body: current });
    expect(put.status, put.body.slice(0, 300)).toBe(200);
    expect(stringAt(status(put), 'metadata', 'resourceVersion')).toBe(rv);
    expect(await resourceVersionOf(path)).toBe(rv);
    expect(api.changes() - before, 'store changes from no-op writes').toBe(0);
  });
});

describe('g. watch', () => {
  const SECRET_LIST = '/api/v1/namespaces/default/secrets';
  it('?watch=true on a list -> a stream of watch events, not a list', async () => {
    const response = await send({ method: 'GET', path: CM, query: 'watch=true' });
    expect(response.status).toBe(200);
    const events = response.body.split('\n').filter(Boolean).map((line) => status({ ...response, body: line }));
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(stringAt(event, 'type')).toBe('ADDED');
  });
  it.each([
    ['resourceVersion=abc', 400],
    ['resourceVersion=1', 410],
    ['timeoutSeconds=-1', 400],
    ['watch=maybe', 400],
  ])('?watch=true&%s -> %i Status', async (query, code) => {
    expectRefused(await send({ method: 'GET', path: CM, query: `watch=true&${query}` }), [code]);
  });
  it.each([false, true])('a watch on Secrets carries no data, even for the admin (over HTTP: %s)', async (http) => {
    const response = await send({ method: 'GET', path: SECRET_LIST, query: 'watch=true&timeoutSeconds=1' }, http);
    expect(response.status).toBe(200);
    expect(response.body).toContain('"ADDED"');
    expect(response.body).not.toContain('"data"');
    expectNoSecret(response);
  });
  it.each([
    ['text/html', 406],
    ['application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', 406],
    ['application/json;as=Table;v=v1;g=meta.k8s.io', 200],
    ['application/vnd.kubernetes.protobuf,application/json', 200],
  ])('a list asked for as %s -> %i', async (accept, code) => {
    const response = await api.handle({ method: 'GET', path: CM, query: new URLSearchParams(), headers: { accept, authorization: `Bearer ${api.tokens.admin}` }, body: '' });
    if (code !== 200) expectRefused(response, [code]);
    else expect(response.status).toBe(200);
  });
  it('a watch on a named object -> 405 naming the collection route', async () => {
    expectRefused(await send({ method: 'GET', path: `${CM}/c`, query: 'watch=true' }), [405]);
  });
});

describe('h. malformed envelopes', () => {
  it('duplicate JSON keys in a create body -> 400 naming the key', async () => {
    const doc = expectRefused(await send({ method: 'POST', path: CM, body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d1","labels":{"dup":"1","dup":"2"}}}' }), [400]);
    expect(stringAt(doc, 'message')).toMatch(/dup/);
  });
  it('apiVersion "/v1" -> 4xx', async () => {
    const before = api.changes();
    expectRefused(await send({ method: 'POST', path: CM, body: JSON.stringify({ apiVersion: '/v1', kind: 'ConfigMap', metadata: { name: 'slash-version' } }) }));
    expect(api.changes()).toBe(before);
  });
});

describe('i. limits on metadata and replicas', () => {
  const cm = (metadata: Record<string, unknown>) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits', ...metadata } });
  const cases: [string, Call, RegExp][] = [
    ['a 100,000-char label key', { method: 'POST', path: CM, query: 'dryRun=All', body: cm({ labels: { ['k'.repeat(100_000)]: 'v' } }) }, /metadata\.labels/],
    ['a NUL in a label value', { method: 'POST', path: CM, query: 'dryRun=All', body: cm({ labels: { a: 'x\u0000y' } }) }, /metadata\.labels/],
    ['a newline in a label value', { method: 'POST', path: CM, query: 'dryRun=All', body: cm({ labels: { a: 'line\nbreak' } }) }, /metadata\.labels/],
    ['annotations over 256 KiB', { method: 'POST', path: CM, query: 'dryRun=All', body: cm({ annotations: { a: 'x'.repeat(262_145) } }) }, /metadata\.annotations/],
    ['a 100,000-char finalizer', { method: 'POST', path: CM, query: 'dryRun=All', body: cm({ finalizers: ['f'.repeat(100_000)] }) }, /metadata\.finalizers/],
    ['MachineDeployment replicas 2147483648', { method: 'POST', path: MDS, query: 'dryRun=All', body: JSON.stringify(machineDeployment('md-big', 2147483648)) }, /spec\.replicas/],
    ['MachineSet replicas 2147483648 (merge patch)', { method: 'PATCH', path: MS, query: 'dryRun=All', contentType: MERGE_PATCH, body: '{"spec":{"replicas":2147483648}}' }, /spec\.replicas/],
  ];
  it('the MachineDeployment body is otherwise valid (replicas 3 is accepted)', async () => {
    const response = await send({ method: 'POST', path: MDS, query: 'dryRun=All', body: JSON.stringify(machineDeployment('md-ok', 3)) });
    expect(response.status, response.body.slice(0, 400)).toBe(201);
  });
  it.each(cases)('%s -> 422 naming the field', async (_label, call, field) => {
    const doc = expectRefused(await send(call), [422]);
    expect(causeFields(doc).join(', '), JSON.stringify(doc).slice(0, 400)).toMatch(field);
  });
});
