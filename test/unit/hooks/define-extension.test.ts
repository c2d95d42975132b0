/** The authoring API and the hosted-extensions front: paths, discovery, exact response shapes, bad input, the path secret. */

import { describe, expect, it } from 'vitest';
import { defineExtension } from '../../../functions/hooks/define-extension.js';
import { hostedExtensionsHandler, hostedExtensionUrl } from '../../../functions/hooks/hosted-extensions.js';
import { decodeHookResponse } from '../../../shared/contracts/hooks/index.js';

const AV = 'hooks.runtime.cluster.x-k8s.io/v1alpha1';
const CLUSTER = { metadata: { name: 'c1', namespace: 'default' }, spec: {} };
const SECRET = 's'.repeat(40);

const extension = defineExtension({
  name: 'demo',
  handlers: {
    beforeClusterCreate: (request) => ({ retryAfterSeconds: request.cluster.metadata.name === 'c1' ? 5 : 0, message: 'wait' }),
    afterControlPlaneInitialized: { name: 'acpi', timeoutSeconds: 3, failurePolicy: 'Ignore', handle: () => ({}) },
    beforeClusterDelete: () => {
      throw new Error('database down');
    },
    afterClusterUpgrade: () => ({ retryAfterSeconds: -1 }),
  },
});

async function post(path: string, body: unknown, method = 'POST') {
  const response = await extension.handle({ method, path, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: response.status, body: JSON.parse(response.body) as Record<string, unknown> };
}

describe('defineExtension', () => {
  it('announces every declared handler in discovery, defaulted as Cluster API defaults them', async () => {
    const response = await post(`/${AV}/discovery`, { apiVersion: AV, kind: 'DiscoveryRequest' });
    expect(response).toEqual({
      status: 200,
      body: {
        apiVersion: AV,
        kind: 'DiscoveryResponse',
        status: 'Success',
        handlers: [
          { name: 'before-cluster-create', requestHook: { apiVersion: AV, hook: 'BeforeClusterCreate' }, timeoutSeconds: 10, failurePolicy: 'Fail' },
          { name: 'acpi', requestHook: { apiVersion: AV, hook: 'AfterControlPlaneInitialized' }, timeoutSeconds: 3, failurePolicy: 'Ignore' },
          { name: 'after-cluster-upgrade', requestHook: { apiVersion: AV, hook: 'AfterClusterUpgrade' }, timeoutSeconds: 10, failurePolicy: 'Fail' },
          { name: 'before-cluster-delete', requestHook: { apiVersion: AV, hook: 'BeforeClusterDelete' }, timeoutSeconds: 10, failurePolicy: 'Fail' },
        ],
      },
    });
    expect(decodeHookResponse('Discovery', response.body).ok).toBe(true);
  });

  it.each<[string, string, unknown, Record<string, unknown>]>([
    ['a blocking answer', 'beforeclustercreate/before-cluster-create', { cluster: CLUSTER }, { apiVersion: AV, kind: 'BeforeClusterCreateResponse', status: 'Success', message: 'wait', retryAfterSeconds: 5 }],
    ['a plain answer has no retryAfterSeconds', 'aftercontrolplaneinitialized/acpi', { cluster: CLUSTER }, { apiVersion: AV, kind: 'AfterControlPlaneInitializedResponse', status: 'Success' }],
    ['a handler that throws is a Failure with the message', 'beforeclusterdelete/before-cluster-delete', { cluster: CLUSTER }, { apiVersion: AV, kind: 'BeforeClusterDeleteResponse', status: 'Failure', message: 'handler before-cluster-delete failed: database down', retryAfterSeconds: 0 }],
    ['an invalid handler answer is a Failure', 'afterclusterupgrade/after-cluster-upgrade', { cluster: CLUSTER, kubernetesVersion: 'v1.34.0' }, { status: 'Failure', message: 'handler returned an invalid retryAfterSeconds' }],
    ['a request without its cluster is a Failure naming the field', 'beforeclustercreate/before-cluster-create', {}, { status: 'Failure', message: expect.stringMatching(/at cluster/) }],
    ['a body that is not JSON is a Failure', 'beforeclustercreate/before-cluster-create', '{nope', { status: 'Failure', message: expect.stringMatching(/not valid JSON/) }],
    ['duplicate keys are a Failure', 'beforeclustercreate/before-cluster-create', '{"cluster":{},"cluster":{}}', { status: 'Failure' }],
    ['unknown fields are tolerated', 'beforeclustercreate/before-cluster-create', { cluster: CLUSTER, somethingNew: 1 }, { status: 'Success', retryAfterSeconds: 5 }],
  ])('%s (HTTP 200)', async (_name, path, body, expected) => {
    const response = await post(`/${AV}/${path}`, body);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject(expected);
  });

  it.each<[string, string, string, number]>([
    ['an undeclared hook', 'beforeclusterupgrade/before-cluster-upgrade', 'POST', 404],
    ['an unknown handler name', 'beforeclustercreate/other', 'POST', 404],
    ['a discovery path with a handler', 'discovery/x', 'POST', 404],
    ['another group', '', 'POST', 404],
    ['GET', 'beforeclustercreate/before-cluster-create', 'GET', 405],
  ])('%s is HTTP %i', async (_name, path, method, status) => {
    const response = await post(path === '' ? '/other.group/v1/x' : `/${AV}/${path}`, { cluster: CLUSTER }, method);
    expect(response.status).toBe(status);
  });

  it.each([
    ['a name that is not a DNS-1123 label', { name: 'Demo', handlers: {} }],
    ['a handler timeout over 30 s', { name: 'd', handlers: { beforeClusterCreate: { timeoutSeconds: 31, handle: () => ({}) } } }],
    ['two handlers with one name', { name: 'd', handlers: { beforeClusterCreate: { name: 'x', handle: () => ({}) }, beforeClusterDelete: { name: 'x', handle: () => ({}) } } }],
  ])('refuses to define an extension with %s', (_name, definition) => {
    expect(() => defineExtension(definition)).toThrow();
  });
});

describe('defineExtension: the per-step upgrade hooks', () => {
  const stepped = defineExtension({
    name: 'steps',
    handlers: {
      beforeControlPlaneUpgrade: (r) => ({ retryAfterSeconds: r.controlPlaneUpgrades.length, message: `${r.fromKubernetesVersion}->${r.toKubernetesVersion}` }),
      afterControlPlaneUpgrade: (r) => ({ message: `${r.kubernetesVersion}, workers next: ${r.workersUpgrades.map((s) => s.version).join(',')}` }),
      beforeWorkersUpgrade: (r) => ({ retryAfterSeconds: r.workersUpgrades.length > 0 ? 30 : 0, message: `${r.fromKubernetesVersion}->${r.toKubernetesVersion}` }),
      afterWorkersUpgrade: (r) => ({ message: r.kubernetesVersion }),
    },
  });
  const plan = { controlPlaneUpgrades: [{ version: 'v1.34.0' }], workersUpgrades: [{ version: 'v1.34.0' }] };
  const versions = { fromKubernetesVersion: 'v1.33.0', toKubernetesVersion: 'v1.34.0' };

  it.each<[string, string, Record<string, unknown>, Record<string, unknown>]>([
    ['BeforeControlPlaneUpgrade', 'beforecontrolplaneupgrade/before-control-plane-upgrade', { ...versions, ...plan }, { status: 'Success', retryAfterSeconds: 1, message: 'v1.33.0->v1.34.0' }],
    ['AfterControlPlaneUpgrade', 'aftercontrolplaneupgrade/after-control-plane-upgrade', { kubernetesVersion: 'v1.34.0', controlPlaneUpgrades: [], workersUpgrades: plan.workersUpgrades }, { status: 'Success', retryAfterSeconds: 0, message: 'v1.34.0, workers next: v1.34.0' }],
    ['BeforeWorkersUpgrade', 'beforeworkersupgrade/before-workers-upgrade', { ...versions, ...plan }, { status: 'Success', retryAfterSeconds: 30, message: 'v1.33.0->v1.34.0' }],
    ['AfterWorkersUpgrade', 'afterworkersupgrade/after-workers-upgrade', { kubernetesVersion: 'v1.34.0', controlPlaneUpgrades: [], workersUpgrades: [] }, { status: 'Success', retryAfterSeconds: 0, message: 'v1.34.0' }],
  ])('%s: typed request in, a retry response out', async (hook, path, fields, expected) => {
    const response = await stepped.handle({ method: 'POST', path: `/${AV}/${path}`, body: JSON.stringify({ apiVersion: AV, kind: `${hook}Request`, cluster: CLUSTER, ...fields }) });
    const body: unknown = JSON.parse(response.body);
    expect(response.status).toBe(200);
    expect(body).toEqual({ apiVersion: AV, kind: `${hook}Response`, ...expected });
  });

  it('a per-step request without its versions is a Failure naming the field', async () => {
    const response = await stepped.handle({ method: 'POST', path: `/${AV}/beforeworkersupgrade/before-workers-upgrade`, body: JSON.stringify({ cluster: CLUSTER, ...plan }) });
    expect(JSON.parse(response.body)).toMatchObject({ status: 'Failure', message: expect.stringMatching(/KubernetesVersion/) });
  });
});

describe('hosted extensions behind the path secret', () => {
  const hosted = hostedExtensionsHandler({ extensions: [extension], pathSecret: SECRET });
  const request = (path: string) => hosted({ method: 'POST', path, query: new URLSearchParams(), headers: {}, body: JSON.stringify({ apiVersion: AV, kind: 'DiscoveryRequest' }) });

  it('serves an extension at its URL', async () => {
    const base = new URL(hostedExtensionUrl('https://127.0.0.1:8080', SECRET, 'demo'));
    const response = await request(`${base.pathname}/${AV}/discovery`);
    expect(response.status).toBe(200);
  });

  it.each([
    ['no secret', `/hooks/demo/${AV}/discovery`],
    ['a wrong secret of the same length', `/hooks/${'t'.repeat(40)}/demo/${AV}/discovery`],
    ['a prefix of the secret', `/hooks/${SECRET.slice(1)}/demo/${AV}/discovery`],
    ['a malformed escape', `/hooks/%E0%A4%A/demo/${AV}/discovery`],
  ])('refuses %s with 401', async (_name, path) => {
    expect((await request(path)).status).toBe(401);
  });

  it('answers 404 for an unknown extension behind the right secret', async () => {
    expect((await request(`/hooks/${SECRET}/nope/${AV}/discovery`)).status).toBe(404);
  });

  it('needs a path secret of at least 32 characters', () => {
    expect(() => hostedExtensionsHandler({ extensions: [], pathSecret: 'short' })).toThrow();
  });
});
