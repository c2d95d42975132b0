/**
 * MachineDrainRules through the API: created in v1beta2 and in v1beta1 (stored as v1beta2), read
 * and listed under both versions, changed and deleted; what Cluster API's CRD or webhook refuses
 * is a 422 Status whose causes name the field, on create and on update. No status subresource.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRecord, stringAt, valueAt } from '../../../shared/contracts/json.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { startTestApi, type TestApi } from '../../support/api-server.js';
import { RestClient, statusCauseFields } from '../../support/rest-client.js';

const V1BETA2 = 'cluster.x-k8s.io/v1beta2';
const V1BETA1 = 'cluster.x-k8s.io/v1beta1';
const NAMESPACE = 'drain-rules';

let server: TestApi;
let api: RestClient;

beforeAll(async () => {
  server = await startTestApi({ tls: false });
  api = new RestClient(server.url, server.token);
});

afterAll(async () => {
  await server?.close();
});

const rule = (name: string, spec: Record<string, unknown>, apiVersion = V1BETA2): KubeObject => ({
  apiVersion,
  kind: 'MachineDrainRule',
  metadata: { name, namespace: NAMESPACE },
  spec,
});

const skipLogging = {
  drain: { behavior: 'Skip' },
  machines: [{ selector: { matchExpressions: [{ key: 'cluster.x-k8s.io/control-plane', operator: 'Exists' }] } }],
  pods: [{ selector: { matchLabels: { app: 'logging' } }, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
};

async function request(method: string, path: string, body?: unknown, contentType = 'application/json') {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': contentType }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

describe('valid MachineDrainRules', () => {
  it('a v1beta2 rule is created, read and listed as written', async () => {
    const created = await api.mustCreate(rule('skip-logging', skipLogging));
    expect(created.apiVersion).toBe(V1BETA2);
    expect(created.spec).toEqual(skipLogging);
    expect((await api.get(V1BETA2, 'MachineDrainRule', NAMESPACE, 'skip-logging'))?.spec).toEqual(skipLogging);
  });

  it('a v1beta1 rule is stored as v1beta2, its spec unchanged, and read under both versions', async () => {
    const spec = { drain: { behavior: 'Drain', order: 10 }, pods: [{ selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['db'] }] } }] };
    const created = await api.mustCreate(rule('drain-db-late', spec, V1BETA1));
    expect(created.apiVersion).toBe(V1BETA2);
    expect(created.spec).toEqual(spec);
    for (const version of [V1BETA2, V1BETA1]) {
      expect(valueAt(await api.get(version, 'MachineDrainRule', NAMESPACE, 'drain-db-late'), 'spec', 'drain', 'order')).toBe(10);
    }
  });

  it('both are listed, under both versions, and across namespaces', async () => {
    for (const version of [V1BETA2, V1BETA1]) {
      const names = (await api.list(version, 'MachineDrainRule', NAMESPACE)).map((item) => item.metadata.name).sort();
      expect(names).toEqual(['drain-db-late', 'skip-logging']);
    }
    const all = await request('GET', '/apis/cluster.x-k8s.io/v1beta2/machinedrainrules');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ kind: 'MachineDrainRuleList', apiVersion: V1BETA2 });
  });

  it('is changed by a merge patch and deleted', async () => {
    await api.mustCreate(rule('wait-for-jobs', { drain: { behavior: 'WaitCompleted' } }));
    const patched = await api.mergePatch(V1BETA2, 'MachineDrainRule', NAMESPACE, 'wait-for-jobs', { spec: { drain: { behavior: 'Drain', order: -1 } } });
    expect(patched.spec).toEqual({ drain: { behavior: 'Drain', order: -1 } });
    expect((await api.delete(V1BETA2, 'MachineDrainRule', NAMESPACE, 'wait-for-jobs')).status).toBe(200);
    expect(await api.get(V1BETA2, 'MachineDrainRule', NAMESPACE, 'wait-for-jobs')).toBeUndefined();
  });

  it('has no status subresource', async () => {
    const response = await request('GET', `/apis/cluster.x-k8s.io/v1beta2/namespaces/${NAMESPACE}/machinedrainrules/skip-logging/status`);
    expect(response.status).toBe(404);
  });
});

describe('refused MachineDrainRules are a 422 Status naming the field', () => {
  it.for([
    ['an order with Skip', V1BETA2, { drain: { behavior: 'Skip', order: 5 } }, 'spec.drain.order', 'order must not be set if drain behavior is "Skip" or "WaitCompleted"'],
    ['an order with WaitCompleted (v1beta1)', V1BETA1, { drain: { behavior: 'WaitCompleted', order: 5 } }, 'spec.drain.order', 'order must not be set'],
    ['In without values', V1BETA2, { drain: { behavior: 'Drain' }, machines: [{ clusterSelector: { matchExpressions: [{ key: 'stage', operator: 'In' }] } }] }, 'spec.machines[0].clusterSelector', "values set can't be empty"],
    ['Exists with values', V1BETA2, { drain: { behavior: 'Drain' }, pods: [{ selector: { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] } }] }, 'spec.pods[0].selector', 'values set must be empty for exists and does not exist'],
    ['a bad label key (v1beta1)', V1BETA1, { drain: { behavior: 'Drain' }, pods: [{ namespaceSelector: { matchLabels: { 'no spaces': 'x' } } }] }, 'spec.pods[0].namespaceSelector', 'key: Invalid value: "no spaces"'],
    ['duplicate machines entries', V1BETA2, { drain: { behavior: 'Drain' }, machines: [{ selector: {} }, { selector: {} }] }, 'spec.machines', 'entries in machines must be unique'],
    ['duplicate pods entries (v1beta1)', V1BETA1, { drain: { behavior: 'Drain' }, pods: [{ selector: { matchLabels: { a: 'b' } } }, { selector: { matchLabels: { a: 'b' } } }] }, 'spec.pods', 'entries in pods must be unique'],
    ['an empty pods entry', V1BETA2, { drain: { behavior: 'Drain' }, pods: [{}] }, 'spec.pods[0]', 'should have at least 1 properties'],
    ['no behavior', V1BETA2, { drain: {} }, 'spec.drain.behavior', 'Required value'],
    ['an unknown behavior', V1BETA2, { drain: { behavior: 'Later' } }, 'spec.drain.behavior', 'Unsupported value: "Later"'],
  ] as const)('%s', async ([name, apiVersion, spec, field, message], { expect }) => {
    const response = await api.create(rule(name.replace(/[^a-z]+/g, '-').replace(/^-|-$/g, ''), spec, apiVersion));
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422, details: { group: 'cluster.x-k8s.io', kind: 'MachineDrainRule' } });
    expect(statusCauseFields(response.body)).toContain(field);
    expect(stringAt(response.body, 'message')).toContain(message);
  });

  it('an update that sets an order on a Skip rule is refused and leaves the rule as it was', async () => {
    const response = await api.tryMergePatch(V1BETA2, 'MachineDrainRule', NAMESPACE, 'skip-logging', { spec: { drain: { order: 3 } } });
    expect(response.status).toBe(422);
    expect(statusCauseFields(response.body)).toEqual(['spec.drain.order']);
    const stored = await api.get(V1BETA2, 'MachineDrainRule', NAMESPACE, 'skip-logging');
    expect(isRecord(stored?.spec) ? stored.spec.drain : undefined).toEqual({ behavior: 'Skip' });
  });
});
